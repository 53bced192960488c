"""``checkpoint`` closing over or taking mutable array references, differentiated: values, jaxprs and what the
references hold afterwards against JAX 0.10.2's; where JAX fails to transpose (a reference made in the
differentiated function reaching the checkpoint), the gradient against JAX's linearization, and against finite
differences where the checkpoint's recomputation writes nothing twice."""

import functools
import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core.lax import refs

GEN = importlib.import_module("make_refs_checkpoint_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("refs_checkpoint")[1]
M = GEN.namespace(jaxle_core, refs.new_ref, refs.freeze, jaxle_core.checkpoint_name)


@functools.cache
def _record(name: str) -> dict:
    return GEN.run_case(M, name)


# Cases whose recomputation reads what it wrote itself, or adds to a reference again: their derivatives are those
# of JAX's linearization, which differ from the function's own
REWRITTEN = {"accumulate_inside", "ref_argument", "write_outer", "accumulate_outer", "names_outer", "in_scan",
             "scan_inside", "cond_inside", "while_inside"}
# Where JAX 0.10.2 fails to transpose (a reference made in the differentiated function reaches the checkpoint, or a
# conditional inside it writes one) and jaxle differentiates
TRANSPOSED_WHERE_JAX_FAILS = {"accumulate_inside", "everything_saveable", "read_only", "ref_argument", "write_only",
                              "remat_freeze", "cond_inside"}
# Where JAX 0.10.2's jitted linearization fails (a reference made in the differentiated function written in the
# checkpoint) and jaxle's is JAX's eager one
JITTED_WHERE_JAX_FAILS = {"ref_argument", "write_only", "remat_freeze"}


def _jaxle_works(name: str, key: str) -> bool:
    if key in ("vjp", "grad", "jit_grad", "grad_jaxpr"):
        return name in TRANSPOSED_WHERE_JAX_FAILS
    return key == "jit_linearize" and name in JITTED_WHERE_JAX_FAILS


def _assert_same(key: str, got, want) -> None:
    if key.endswith("jaxpr") or key.endswith("_error"):
        assert got == want, f"\n{got}\n!=\n{want}"
    else:
        np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=1e-5,
                                   atol=1e-6, err_msg=key)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    """Every value, jaxpr and error JAX gives, and what the outer references hold after each transformation,
    except where JAX fails and jaxle works (checked below)."""
    record, expected = _record(name), GOLDEN[name]
    failing = {key[:-len("_error")] for key in expected if key.endswith("_error")}
    for key, want in expected.items():
        base = key.removesuffix("_error").removesuffix("_held")
        if base in failing and _jaxle_works(name, base):
            assert base in record, record.get(base + "_error")
            continue
        assert key in record, f"{key}: {record.get(base + '_error')}"
        _assert_same(key, record[key], want)


@pytest.mark.parametrize("name", sorted(TRANSPOSED_WHERE_JAX_FAILS | JITTED_WHERE_JAX_FAILS))
def test_where_jax_fails_jaxle_transposes_its_linearization(name):
    """jaxle's gradient pairs with the tangent as JAX's linearization does, and its jitted linearization is JAX's
    eager one."""
    record, expected = _record(name), GOLDEN[name]
    for key in ("vjp", "grad", "jit_grad"):
        if _jaxle_works(name, key):
            np.testing.assert_allclose(np.dot(record[key], GEN.T), expected["linearize"], rtol=1e-5, atol=1e-6)
    if _jaxle_works(name, "jit_linearize"):
        np.testing.assert_allclose(record["jit_linearize"], expected["linearize"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(set(GEN.CASES) - REWRITTEN))
def test_matches_finite_differences(name):
    x, eps = GEN.X.astype(np.float64), 1e-3

    def at(p):
        f, _ = GEN.CASES[name](M)
        return float(f(p.astype(np.float32)))

    numeric = np.array([(at(x + eps * e) - at(x - eps * e)) / (2 * eps) for e in np.eye(3)])
    np.testing.assert_allclose(_record(name)["grad"], numeric, rtol=2e-2, atol=2e-2)
    np.testing.assert_allclose(_record(name)["jvp"], numeric @ GEN.T, rtol=2e-2, atol=2e-2)
    np.testing.assert_allclose(_record(name)["linearize"], numeric @ GEN.T, rtol=2e-2, atol=2e-2)


def test_recomputation_writes_an_outer_reference_again():
    """As JAX's: ``grad`` runs the checkpointed function once forward and once more to recompute it, so a
    reference it adds to from outside is added to twice (``jvp`` once)."""
    outer = refs.new_ref(np.zeros(2, np.float32))

    @jaxle_core.checkpoint
    def g(z):
        outer[...] += np.ones(2, np.float32)
        return jaxle_core.lax.sin(z)

    f = lambda y: jaxle_core.lax.reduce_sum(g(y), (0,))
    y = np.array([0.3, -0.4], np.float32)
    jaxle_core.jvp(f, (y,), (y,))
    np.testing.assert_array_equal(np.asarray(outer[...]), [1.0, 1.0])
    np.testing.assert_allclose(np.asarray(jaxle_core.grad(f)(y)), np.cos(y), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(outer[...]), [3.0, 3.0])


def test_reference_made_from_a_constant_inside_the_checkpoint():
    """Its tangent reference, made from zeros, holds linear values: transposed as such (JAX 0.10.2 fails with a
    KeyError), the gradient is the function's own, sum(sin(y) * y)'s."""

    @jaxle_core.checkpoint
    def g(z):
        r = refs.new_ref(np.zeros(3, np.float32))
        r[...] += jaxle_core.lax.sin(z)
        return refs.freeze(r) * z

    f = lambda y: jaxle_core.lax.reduce_sum(g(y), (0,))
    y = GEN.X
    expected = np.cos(y) * y + np.sin(y)
    np.testing.assert_allclose(np.asarray(jaxle_core.grad(f)(y)), expected, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(jaxle_core.jit(jaxle_core.grad(f))(y)), expected, rtol=1e-5)
    np.testing.assert_allclose(float(jaxle_core.linearize(f, y)[1](GEN.T)), expected @ GEN.T, rtol=1e-5)


def _written_directly(z):
    r = refs.new_ref(np.zeros((), np.float32))
    r[...] += z[0] * 2.0
    r[...] += jaxle_core.lax.sin(z[1]) * z[2]
    return r[...]


def _written_in_cond(z):
    r = refs.new_ref(np.zeros((), np.float32))

    def positive():
        r[...] += jaxle_core.lax.sin(z[0]) * z[1]

    def other():
        r[...] += z[2] * z[2]

    jaxle_core.lax.cond(z[0] > 0, positive, other)
    return r[...] * z[2]


def _written_in_scan(z):
    r = refs.new_ref(np.zeros((), np.float32))

    def body(c, x):
        r[...] += jaxle_core.lax.sin(x) * c
        return c * 1.5, None

    jaxle_core.lax.scan(body, z[1], z)
    return r[...]


def _fori_loop_writing(r, z):
    """The sum of ``r`` after a fori_loop that scales it by ``z`` and adds the cosine of its carry."""

    def body(i, c):
        r[...] = r[...] * z + jaxle_core.lax.cos(c)
        return c + z[0]

    jaxle_core.lax.fori_loop(0, 3, body, z[2])
    return jaxle_core.lax.reduce_sum(r[...], (0,))


def _written_in_fori_loop(z):
    return _fori_loop_writing(refs.new_ref(np.zeros(3, np.float32)), z)


def _empty_written_in_fori_loop(z):
    r = refs.empty_ref(jaxle_core.ShapeDtypeStruct((3,), np.float32))
    r[...] = z * 0.5
    return _fori_loop_writing(r, z)


def _empty_scanned_over(z):
    r = refs.empty_ref(jaxle_core.ShapeDtypeStruct((3, 2), np.float32))
    r[...] = jaxle_core.lax.broadcast_in_dim(z, (3, 2), (0,))

    def body(c, row):
        row[...] = jaxle_core.lax.sin(row[...] * c)
        return c * z[1], row[0]

    _, ys = jaxle_core.lax.scan(body, z[2], r)
    return jaxle_core.lax.reduce_sum(r[...], (0, 1)) + jaxle_core.lax.reduce_sum(ys, (0,))


def _written_in_jit(z):
    r = refs.new_ref(np.zeros((), np.float32))

    @jaxle_core.jit
    def write():
        r[...] += jaxle_core.lax.sin(z[0]) * z[1]

    write()
    return r[...] * z[2]


def _written_in_nested_checkpoint(z):
    r = refs.new_ref(np.zeros((), np.float32))

    @jaxle_core.checkpoint
    def write(b):
        r[...] += jaxle_core.lax.sin(b[0]) * b[1]
        return b[2]

    return r[...] * write(z)


def _written_in_while_loop(z):
    r = refs.new_ref(np.zeros((), np.float32))

    def body(c):
        r[...] += c[1] * z[1]
        return c[0] + 1, c[1] * 0.5

    jaxle_core.lax.while_loop(lambda c: c[0] < 3, body, (0, z[0]))
    return r[...]


def _numeric_gradient(fun) -> np.ndarray:
    x, eps = GEN.X.astype(np.float64), 1e-3
    return np.array([(float(fun((x + eps * e).astype(np.float32))) - float(fun((x - eps * e).astype(np.float32))))
                     / (2 * eps) for e in np.eye(3)])


_POLICIES = {"default": None, "nothing_saveable": jaxle_core.checkpoint_policies.nothing_saveable,
             "everything_saveable": jaxle_core.checkpoint_policies.everything_saveable,
             "dots_saveable": jaxle_core.checkpoint_policies.dots_saveable}


@pytest.mark.parametrize("policy", sorted(_POLICIES))
@pytest.mark.parametrize("fun", [_written_directly, _written_in_cond, _written_in_scan, _written_in_fori_loop,
                                 _empty_written_in_fori_loop, _empty_scanned_over, _written_in_jit,
                                 _written_in_nested_checkpoint],
                         ids=lambda f: f.__name__.removeprefix("_"))
def test_reference_made_and_written_inside_the_checkpoint_against_finite_differences(fun, policy):
    """What a reference made inside the checkpoint (by ``new_ref``, or by ``empty_ref`` then written) is written
    (directly, in a ``cond``, ``scan``, ``fori_loop``, ``jit`` or nested ``checkpoint``, or scanned over) and read
    back from reaches the derivatives (JAX 0.10.2 fails with a KeyError)."""
    numeric = _numeric_gradient(fun)
    g = jaxle_core.checkpoint(fun, policy=_POLICIES[policy])
    close = functools.partial(np.testing.assert_allclose, rtol=2e-2, atol=2e-2)
    close(np.asarray(jaxle_core.grad(g)(GEN.X)), numeric)
    close(np.asarray(jaxle_core.jit(jaxle_core.grad(g))(GEN.X)), numeric)
    close(np.asarray(jaxle_core.vjp(g, GEN.X)[1](np.float32(1))[0]), numeric)
    close(float(jaxle_core.linearize(g, GEN.X)[1](GEN.T)), numeric @ GEN.T)
    close(float(jaxle_core.jvp(g, (GEN.X,), (GEN.T,))[1]), numeric @ GEN.T)


def test_reference_made_and_written_in_a_while_loop_inside_the_checkpoint():
    """Its writes reach the linearization; reverse mode refuses the loop as it refuses any ``while_loop``."""
    numeric = _numeric_gradient(_written_in_while_loop)
    g = jaxle_core.checkpoint(_written_in_while_loop)
    np.testing.assert_allclose(float(jaxle_core.linearize(g, GEN.X)[1](GEN.T)), numeric @ GEN.T, rtol=2e-2, atol=2e-2)
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for lax.while_loop"):
        jaxle_core.grad(g)(GEN.X)
