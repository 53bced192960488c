"""``custom_vmap`` and ``sequential_vmap``: the rule runs under vmap only, jvp differentiates it, reverse mode is
refused; values, rule calls, jaxprs and the error as JAX 0.10.2 gives them (the expected texts are JAX's output)."""

import numpy as np
import pytest

import jaxle_core as jax
from jaxle_core import lax
from jaxle_core.custom_batching import custom_vmap, sequential_vmap

XS = np.arange(3, dtype=np.float32)


def make_f(calls):
    @custom_vmap
    def f(x):
        return lax.sin(x)

    @f.def_vmap
    def rule(axis_size, in_batched, x):
        calls.append((axis_size, in_batched))
        return lax.cos(x), in_batched[0]

    return f


def test_rule_only_under_vmap():
    calls = []
    f = make_f(calls)
    assert float(f(np.float32(1.0))) == pytest.approx(np.sin(1.0)) and calls == []
    np.testing.assert_allclose(jax.vmap(f)(XS), np.cos(XS), rtol=1e-6)
    np.testing.assert_allclose(jax.jit(jax.vmap(f))(XS), np.cos(XS), rtol=1e-6)
    assert calls == [(3, [True]), (3, [True])]
    assert str(jax.make_jaxpr(f)(np.float32(1.0))) == """{ lambda ; a:f32[]. let
    b:f32[] = custom_vmap_call[
      call={ lambda ; c:f32[]. let d:f32[] = sin c in (d,) }
      in_tree=PyTreeDef(([], (*,)))
      out_tree=PyTreeDef(*)
      rule=<function make_f.<locals>.rule at 0xXXXXXXXXXXXX>
    ] a
  in (b,) }"""
    assert str(jax.make_jaxpr(jax.vmap(f))(XS)) == "{ lambda ; a:f32[3]. let b:f32[3] = cos a in (b,) }"


def test_unbatched_arguments_and_outputs():
    seen = []

    @custom_vmap
    def h(x, y):
        return {"a": x + y, "b": x}

    @h.def_vmap
    def rule(axis_size, in_batched, x, y):
        seen.append(in_batched)
        return {"a": x * y, "b": x * 3.0}, {"a": True, "b": False}

    out = jax.vmap(h, in_axes=(None, 0))(np.float32(2.0), XS)
    assert seen == [[False, True]]
    np.testing.assert_allclose(out["a"], 2.0 * XS)
    np.testing.assert_allclose(out["b"], np.full(3, 6.0))  # unbatched: broadcast over the batch


def test_jvp_differentiates_the_function_and_its_rule():
    f = make_f([])
    primal, tangent = jax.jvp(f, (np.float32(1.0),), (np.float32(1.0),))
    assert float(tangent) == pytest.approx(np.cos(1.0))
    assert str(jax.make_jaxpr(lambda x: jax.jvp(f, (x,), (1.0,)))(np.float32(1.0))) == """{ lambda ; a:f32[]. let
    b:f32[] c:f32[] = custom_vmap_call[
      call={ lambda ; d:f32[] e:f32[]. let
          f:f32[] = sin d
          g:f32[] = cos d
          h:f32[] = mul e g
        in (f, h) }
      in_tree=PyTreeDef((([], (*,)), ([], (*,))))
      out_tree=PyTreeDef((*, *))
      rule=<function custom_vmap_jvp.<locals>.jvp_of_rule_rule at 0xXXXXXXXXXXXX>
    ] a 1.0:f32[]
  in (b, c) }"""
    primals, tangents = jax.vmap(lambda x: jax.jvp(f, (x,), (np.float32(1.0),)))(XS)
    np.testing.assert_allclose(primals, np.cos(XS), rtol=1e-6)
    np.testing.assert_allclose(tangents, -np.sin(XS), rtol=1e-6, atol=1e-7)


def test_reverse_mode_is_refused_as_jax():
    with pytest.raises(ValueError, match="^Linearization failed to produce known values for all output primals"):
        jax.grad(make_f([]))(np.float32(1.0))


def test_missing_rule():
    @custom_vmap
    def f(x):
        return x

    with pytest.raises(AttributeError, match="No batching rule defined for custom_vmap function f using def_vmap."):
        f(1.0)


def test_sequential_vmap_maps_one_element_at_a_time():
    double = sequential_vmap(lambda x, y: x * y)
    np.testing.assert_allclose(jax.vmap(double, in_axes=(0, None))(XS, np.float32(2.0)), 2 * XS)
    text = str(jax.make_jaxpr(jax.vmap(sequential_vmap(lambda x: x * 2.0)))(XS))
    assert "scan[" in text and "rule=<function sequential_vmap.<locals>.rule at 0xXXXXXXXXXXXX>" in text
