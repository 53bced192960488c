"""``jaxle.new_ref``/``jaxle.Ref``/``jaxle.ref`` on XLA: every case of core's reference goldens (jaxprs, eager and
jitted values, what references passed in hold afterwards, errors) through the public names."""

import importlib
import pathlib
import re
import sys

import numpy as np
import pytest

import jaxle
import jaxle.numpy as jnp

_CORE_GOLDEN = pathlib.Path(__file__).parents[2] / "core" / "tests" / "golden"
if str(_CORE_GOLDEN) not in sys.path:
    sys.path.insert(0, str(_CORE_GOLDEN))

GEN = importlib.import_module("make_refs_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("refs")[1]
M = GEN.namespace(jaxle, jaxle.ref)


def _without_sources(message: str) -> str:
    return re.sub(r" at \S+:\d+", " at <source>", message)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax_on_xla(name):
    actual, expected = GEN.run_case(M, GEN.CASES[name]), GOLDEN["cases"][name]
    if "error" in expected or "error" in actual:
        assert (actual.get("error"), _without_sources(actual.get("message", ""))) == \
            (expected.get("error"), _without_sources(expected.get("message", "")))
        return
    assert actual["jaxpr"] == expected["jaxpr"]
    for key in ("eager", "jit", "eager_refs", "jit_refs"):
        for a, e in zip(actual[key], expected[key], strict=True):
            assert (a["dtype"], a["shape"]) == (e["dtype"], e["shape"])
            np.testing.assert_allclose(a["data"], e["data"], rtol=1e-6)


def test_errors_match_jax_on_xla():
    for name, actual in GEN.errors(M).items():
        expected = GOLDEN["errors"][name]
        assert (actual["error"], _without_sources(actual["message"])) == \
            (expected["error"], _without_sources(expected["message"]))


def test_jnp_values_and_ds_with_refs():
    r = jaxle.new_ref(jnp.zeros((2, 4)))

    @jaxle.jit
    def fill(i):
        r[i, jaxle.ds(1, 2)] = jnp.arange(2.0) + i
        return jaxle.freeze(r).sum()

    assert float(fill(0)) == 1.0
    assert float(fill(1)) == 4.0
    np.testing.assert_array_equal(np.asarray(r[...]), [[0, 0, 1, 0], [0, 1, 2, 0]])
    assert isinstance(r, jaxle.Ref) and isinstance(jaxle.typeof(r), jaxle.ref.AbstractRef)


VMAP = importlib.import_module("make_refs_vmap_golden")
GRAD = importlib.import_module("make_refs_grad_golden")
SHARED = importlib.import_module("make_reductions_golden")


@pytest.mark.parametrize("gen,family", [(VMAP, "refs_vmap"), (GRAD, "refs_grad")], ids=["vmap", "grad"])
def test_transformed_references_match_jax_on_xla(gen, family):
    golden = SHARED.load_suite(family)[1]
    m = gen.namespace(jaxle, jaxle.new_ref, jaxle.freeze)
    for name in gen.CASES:
        GEN.assert_record_matches(gen.run_case(m, name), golden[name], rtol=1e-5)


def test_derivative_jaxprs_and_values_match_jax_on_xla():
    # jvp and grad through references (their jaxprs hold reference operations on tangents and cotangents, which the
    # jitted programs discharge before XLA runs them)
    golden = SHARED.load_suite("refs_grad")[1]
    m = GRAD.namespace(jaxle, jaxle.new_ref, jaxle.freeze)
    for name in GRAD.JAXPR_CASES:
        record, expected = GRAD.run_jaxpr_case(m, name), golden["jaxprs"][name]
        assert (record["jvp_jaxpr"], record["grad_jaxpr"]) == (expected["jvp_jaxpr"], expected["grad_jaxpr"])
        np.testing.assert_allclose(record["jit_grad"], expected["jit_grad"], rtol=1e-5)
    for name in GRAD.LOOP_CASES:
        record, expected = GRAD.run_loop_case(m, name), golden["loop_jvps"][name]
        assert record["jvp_jaxpr"] == expected["jvp_jaxpr"]
        np.testing.assert_allclose(record["jit_jvp"], expected["jit_jvp"], rtol=1e-5)
        assert record.get("grad_error") == expected.get("grad_error")
        np.testing.assert_allclose(record.get("jit_grad", []), expected.get("jit_grad", []), rtol=1e-5)


def test_vjp_with_refs_accumulates_cotangents_as_jax():
    # JAX 0.10.2, for f(x, y) = 2 sum(x * y) at x = ones(3), y = arange(3.), a cotangent of 1.0 and a reference
    # holding full(3, 10.): with_refs(r, DontWant()) gives (GradRef(), DidntWant()) and r becomes [10, 12, 14];
    # with_refs(GradValue(), r) then gives ([0, 2, 4], GradRef()) and r becomes [12, 14, 16].
    _, f_vjp = jaxle.vjp(lambda x, y: (x * y).sum() * 2, jnp.ones(3), jnp.arange(3.0))
    r = jaxle.new_ref(jnp.full(3, 10.0))
    assert repr(f_vjp.with_refs(r, jaxle.ad.DontWant())(1.0)) == "(GradRef(), DidntWant())"
    np.testing.assert_array_equal(np.asarray(r[...]), [10, 12, 14])
    value, marker = f_vjp.with_refs(jaxle.ad.GradValue(), r)(1.0)
    np.testing.assert_array_equal(np.asarray(value), [0, 2, 4])
    assert marker == jaxle.ad.GradRef()
    np.testing.assert_array_equal(np.asarray(r[...]), [12, 14, 16])
    np.testing.assert_array_equal(np.asarray(f_vjp.with_refs()(1.0)[1]), [2, 2, 2])
    # The pullback stays a pytree: through jit it keeps with_refs.
    again = jaxle.jit(lambda pullback: pullback)(f_vjp)
    assert repr(again.with_refs(jaxle.ad.DontWant(), jaxle.ad.DontWant())(1.0)) == "(DidntWant(), DidntWant())"
