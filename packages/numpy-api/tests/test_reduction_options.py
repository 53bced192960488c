"""Reductions and creation functions given bad options raise JAX 0.10.2's errors (a number or an unhashable list
as a dtype, an unhashable keepdims), eagerly and inside jit, and a 64-bit dtype with x64 off warns on a
reduction's first call as JAX's does: as many warnings, naming the same functions."""

import jnp_golden
import make_complex_to_real_golden
import make_reduction_options_golden as cases
import pytest

GOLDEN = jnp_golden.load("reduction_options_golden.json")


@pytest.mark.parametrize("name", sorted(cases.OPTION_CALLS))
def test_option(name):
    actual = make_complex_to_real_golden.record(jnp_golden.jaxle_namespace(), cases.OPTION_CALLS[name])
    assert actual == GOLDEN[f"option_{name}"]


@pytest.mark.parametrize("name", sorted(cases.WIDE_CALLS))
def test_first_call_warnings(name):
    m = jnp_golden.jaxle_namespace()
    assert make_complex_to_real_golden.record(m, cases.WIDE_CALLS[name], ("eager",)) == GOLDEN[f"first_call_{name}"]


@pytest.mark.parametrize("name", sorted(cases.WIDE_JIT_CALLS))
def test_first_call_warnings_under_jit(name):
    m = jnp_golden.jaxle_namespace()
    actual = make_complex_to_real_golden.record(m, cases.WIDE_JIT_CALLS[name], ("jit",))
    assert actual == GOLDEN[f"first_call_jit_{name}"]


_CALL_SEQUENCES = [("cached", cases.CACHED_CALLS, name, cases.EAGER_FIRST) for name in sorted(cases.CACHED_CALLS)] + [
    ("cached_jit_first", cases.CACHED_JIT_CALLS, name, cases.JIT_FIRST) for name in sorted(cases.CACHED_JIT_CALLS)]


@pytest.mark.parametrize(("prefix", "table", "name", "order"), _CALL_SEQUENCES,
                         ids=[f"{prefix}_{name}" for prefix, _, name, _ in _CALL_SEQUENCES])
def test_warnings_after_cached_calls(prefix, table, name, order):
    n, fn = table[name]
    m = jnp_golden.jaxle_namespace()
    actual = make_complex_to_real_golden.record_calls(m, fn, m.numpy.ones(n), order)
    assert actual == GOLDEN[f"{prefix}_{name}"]
