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


@pytest.mark.parametrize("name", sorted(cases.CACHED_CALLS))
def test_warnings_after_cached_calls(name):
    n, fn = cases.CACHED_CALLS[name]
    m = jnp_golden.jaxle_namespace()
    actual = make_complex_to_real_golden.record_calls(m, fn, m.numpy.ones(n), cases.EAGER_FIRST)
    assert actual == GOLDEN[f"cached_{name}"]


@pytest.mark.parametrize("name", sorted(cases.CACHED_JIT_CALLS))
def test_warnings_after_cached_calls_jit_first(name):
    n, fn = cases.CACHED_JIT_CALLS[name]
    m = jnp_golden.jaxle_namespace()
    actual = make_complex_to_real_golden.record_calls(m, fn, m.numpy.ones(n), cases.JIT_FIRST)
    assert actual == GOLDEN[f"cached_jit_first_{name}"]
