"""sparse.sparsify against JAX 0.10.2 (golden/sparsify_golden.json from golden/make_sparsify_golden.py: results,
layouts of sparse results, jaxprs and errors) and against NumPy dense references."""

import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle
import jaxle.numpy as jnp
from jaxle import lax
from jaxle.experimental import sparse

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_sparsify_golden as golden  # noqa: E402 - found through the path set just above
from make_sparse_golden import assert_outputs_match  # noqa: E402

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sparsify_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_sparsify_golden(name):
    expected, got = GOLDEN[name], golden.run_case(jaxle, name)
    assert ("error" in got) == ("error" in expected)
    if "error" in expected:
        assert got["error"][0] == expected["error"][0]
        if name not in golden.OWN_MESSAGE:
            assert got["error"][1] == expected["error"][1]
        return
    if "jaxpr" in expected:
        assert got["jaxpr"] == expected["jaxpr"]
    assert_outputs_match(got, expected)


def _random_bcoo(seed, shape, n_batch=0):
    rng = np.random.default_rng(seed)
    dense = rng.standard_normal(shape).astype(np.float32) * (rng.random(shape) < 0.5)
    return dense, sparse.BCOO.fromdense(dense, n_batch=n_batch)


@pytest.mark.parametrize("use_tracer", [False, True])
def test_sparsified_program_matches_numpy(use_tracer):
    dense, mat = _random_bcoo(0, (4, 5))
    v = np.linspace(-1, 1, 5).astype(np.float32)

    def program(a, v):
        y = jnp.sin(a * 2.0) @ v
        z = (a.T @ a).sum(0)
        return y + jnp.tanh(a).sum(1), z

    y, z = sparse.sparsify(program, use_tracer=use_tracer)(mat, v)
    np.testing.assert_allclose(y, np.sin(dense * 2) @ v + np.tanh(dense).sum(1), rtol=1e-5, atol=1e-6)
    assert isinstance(z, sparse.BCOO)
    np.testing.assert_allclose(z.todense(), (dense.T @ dense).sum(0), rtol=1e-5, atol=1e-5)


def test_sparsify_under_jit_and_vmap():
    stack, mat = _random_bcoo(1, (3, 4, 5), n_batch=1)
    v = np.arange(5, dtype=np.float32)
    f = sparse.sparsify(lambda a, v: (a * a) @ v)
    np.testing.assert_allclose(jaxle.jit(f)(mat, v), (stack * stack) @ v, rtol=1e-5)
    np.testing.assert_allclose(jaxle.vmap(f, in_axes=(0, None))(mat, v), (stack * stack) @ v, rtol=1e-5)


def test_sparsified_loops_match_numpy():
    dense, mat = _random_bcoo(2, (3, 4))
    v = np.ones(4, np.float32)

    def loops(a):
        doubled = lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2.0), (0, a))[1]
        final, ys = lax.scan(lambda c, _: (-c, c @ v), a, None, length=3)
        return doubled, final, ys

    doubled, final, ys = sparse.sparsify(loops)(mat)
    np.testing.assert_allclose(doubled.todense(), 8 * dense)
    np.testing.assert_allclose(final.todense(), -dense)
    np.testing.assert_allclose(ys, np.stack([dense @ v, -dense @ v, dense @ v]), rtol=1e-6)


@pytest.mark.parametrize("use_tracer", [False, True])
def test_keyword_arguments_are_static(use_tracer):
    dense, mat = _random_bcoo(4, (3, 4))
    out = sparse.sparsify(lambda a, axis: a.sum(axis), use_tracer=use_tracer)(mat, axis=1)
    np.testing.assert_allclose(out.todense(), dense.sum(1), rtol=1e-6)


def test_sparse_tracer():
    _, mat = _random_bcoo(3, (2, 3))
    seen = []
    sparse.sparsify(lambda a: seen.append(a) or a, use_tracer=True)(mat)
    assert isinstance(seen[0], sparse.SparseTracer) and repr(seen[0]) == "SparseTracer<float32[2,3]>"
    assert seen[0].shape == (2, 3) and seen[0].dtype == np.float32
    assert sparse.transform.sparsify is sparse.sparsify
