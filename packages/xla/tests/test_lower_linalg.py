"""lax.linalg on XLA: jaxlib's LAPACK kernels called as JAX 0.10.2 calls them, so every result has JAX's exact bits
(golden/make_lapack_golden.py), and the lowering agrees with core's NumPy/SciPy reference."""

import json
import pathlib
import sys

import numpy as np
import pytest
from conftest import assert_same, check_against_reference

import jaxle_core
from jaxle_core import lax
from jaxle_core.backend import use_backend
from jaxle_core.config import enable_x64

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
import host_variants  # noqa: E402 - found through the path set just above
import make_lapack_golden as golden  # noqa: E402

GOLDEN = json.loads(golden.GOLDEN.read_text())
VARIANTS = host_variants.load_variants(golden.GOLDEN)


# jaxlib's perturbing tridiagonal kernel (perturb_singular=True) has no reference implementation yet: the
# reference solves without perturbing, which differs on the singular systems of these cases.
_REFERENCE_UNWRITTEN = {f"tridiagonal_solve-perturbed-{t}" for t in ["float32", "complex64", "float64", "complex128"]}


def _check_case(name, build):
    """JAX's exact bits on XLA; the SciPy reference agrees with them to rounding (NaNs of failures included)."""
    outcome = golden.run_case(jaxle_core, build)
    host_variants.check(outcome, name, GOLDEN, VARIANTS)
    if "error" in outcome or name in _REFERENCE_UNWRITTEN:
        return
    fn, args = build(jaxle_core)
    with use_backend("reference"):
        reference = fn(*args)
    reference = list(reference) if isinstance(reference, (tuple, list)) else [reference]
    for record, expected in zip(outcome["outs"], reference):
        compiled = np.frombuffer(bytes.fromhex(record["hex"]), record["dtype"]).reshape(record["shape"])
        assert_same(np.asarray(expected), compiled, rtol=1e-2 if "float16" in name else 2e-5, atol=2e-5)


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_bits_match_jax(name):
    _check_case(name, golden.CASES[name])


@pytest.mark.parametrize("name", sorted(golden.X64_CASES))
def test_bits_match_jax_with_x64(name):
    with enable_x64(True):
        _check_case(name, golden.X64_CASES[name])


def _loss(x):
    """A scalar of a matrix through every differentiable factorization and solve."""
    linalg = lax.linalg
    spd = lax.dot_general(x, x, (((1,), (1,)), ((), ()))) + 4 * np.eye(4, dtype=np.float32)
    factor = linalg.cholesky(spd)
    q, r = linalg.qr(x)
    solved = linalg.triangular_solve(factor, x, left_side=True, lower=True)
    total = factor + linalg.lu(x)[0] + q + r + solved
    return lax.reduce_sum(total * total, (0, 1))


def test_gradient_runs_compiled():
    x = golden.matrix((4, 4), "float32", 5) + 2 * np.eye(4, dtype=np.float32)
    check_against_reference(jaxle_core.grad(_loss), x, rtol=1e-3, atol=1e-3, eager=False)


def test_vmap_runs_compiled():
    x = golden.matrix((3, 2, 4, 4), "float32", 6)
    check_against_reference(jaxle_core.vmap(lambda m: lax.linalg.qr(m), in_axes=1), x, rtol=1e-4, atol=1e-4,
                            eager=False)
    b = golden.matrix((4, 3, 2), "float32", 7)
    check_against_reference(jaxle_core.vmap(lambda a, v: lax.linalg.triangular_solve(a, v, left_side=True),
                                            in_axes=(None, 2)), np.triu(x[0, 0]) + 4 * np.eye(4, dtype=np.float32),
                            b, rtol=1e-4, atol=1e-4, eager=False)


def test_golden_check_on_an_unrecorded_machine(monkeypatch):
    """Where no outcome was recorded for this kind of CPU, a golden's own bits and results a few ulps from them pass;
    results further off, or of another dtype, fail."""
    monkeypatch.setattr(host_variants, "machine_kind", lambda: "a kind never recorded")
    name = "cholesky-float32"
    expected = GOLDEN[name]
    values = np.frombuffer(bytes.fromhex(expected["outs"][0]["hex"]), np.float32)
    near, far = (np.nextafter(values, np.inf).astype(np.float32), (values * 1.001).astype(np.float32))

    def outcome(array):
        return {"outs": [dict(expected["outs"][0], hex=array.tobytes().hex())]}

    host_variants.check(expected, name, GOLDEN, VARIANTS)
    host_variants.check(outcome(near), name, GOLDEN, VARIANTS)
    with pytest.raises(AssertionError):
        host_variants.check(outcome(far), name, GOLDEN, VARIANTS)
    with pytest.raises(AssertionError):
        host_variants.check({"outs": [dict(expected["outs"][0], dtype="int32")]}, name, GOLDEN, VARIANTS)
