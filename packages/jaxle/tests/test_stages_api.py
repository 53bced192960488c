"""``jaxle.stages``' ArgInfo (``args_info`` of each stage), ``CompilerOptions`` and ``Wrapped``; ``jaxle.errors``'
JaxprTypeError from ``jax_enable_checks``; ``jaxle.ad_checkpoint``'s policy answers."""

import numpy as np
import pytest

import jaxle
import jaxle.numpy as jnp
from jaxle.stages import ArgInfo, CompilerOptions, Wrapped
from jaxle_core.core import ClosedJaxpr, Var
from jaxle_core.jaxpr_util import check_jaxpr

# JAX 0.10.2 prints this for jit(lambda x, y, n: x, donate_argnums=1, static_argnums=2).lower(ones(3), {'a': 2}, 3)
EXPECTED = ("((ArgInfo(_aval=ShapedArray(float32[3]), donated=False), "
            "{'a': ArgInfo(_aval=ShapedArray(int32[]), donated=True)}), {})")


def test_args_info_of_every_stage():
    wrapped = jaxle.jit(lambda x, y, n: x, donate_argnums=1, static_argnums=2)
    args = (jnp.ones(3), {"a": jnp.int32(2)}, 3)
    traced = wrapped.trace(*args)
    lowered = traced.lower()
    for stage in (traced, lowered, lowered.compile()):
        assert repr(stage.args_info) == EXPECTED
    info = lowered.args_info[0][0]
    assert (info.shape, info.dtype, info.donated) == ((3,), np.float32, False)
    assert info == ArgInfo(info._aval, False)


def test_wrapped_and_compiler_options():
    assert isinstance(jaxle.jit(lambda x: x), Wrapped)
    assert not isinstance(lambda x: x, Wrapped)
    assert CompilerOptions == dict[str, str | bool]


def test_enable_checks_type_checks_traced_jaxprs():
    with jaxle.enable_checks(True):
        assert float(jaxle.jit(lambda x: jnp.sin(x) * 2)(1.0)) == pytest.approx(2 * np.sin(1.0))
    closed = jaxle.make_jaxpr(lambda x: jnp.sin(x))(1.0)
    jaxpr = closed.jaxpr
    broken = jaxpr.replace(outvars=[Var(jaxpr.invars[0].aval)])  # an unbound variable
    with pytest.raises(jaxle.errors.JaxprTypeError, match="Variable 'b' not defined"):
        check_jaxpr(ClosedJaxpr(broken, closed.consts))
    assert issubclass(jaxle.errors.JaxprTypeError, TypeError)


def test_policy_answers_on_xla():
    from jaxle.ad_checkpoint import Offloadable, Recompute, Saveable, checkpoint_name

    def f(x):
        return jnp.cos(checkpoint_name(jnp.sin(x), "a")).sum()

    x = jnp.array([0.5, -1.0, 2.0])
    expected = -np.sin(np.sin(np.asarray(x))) * np.cos(np.asarray(x))
    policies = [lambda prim, *a, **k: Saveable if prim.name == "sin" else Recompute,
                lambda prim, *a, **k: Offloadable("device", "pinned_host"),
                jaxle.checkpoint_policies.save_and_offload_only_these_names(
                    names_which_can_be_saved=[], names_which_can_be_offloaded=["a"], offload_src="device",
                    offload_dst="pinned_host")]
    for policy in policies:
        np.testing.assert_allclose(np.asarray(jaxle.grad(jaxle.checkpoint(f, policy=policy))(x)), expected,
                                   rtol=1e-6)
