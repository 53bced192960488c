"""``ffi_call`` in core: staged params (layouts minor-to-major, sorted attributes), batching by vmap_method,
no derivative, and the reference backend's refusal to run a target."""

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core.ffi import HashableArray, ffi_call
from jaxle_core.jaxpr_util import dce_jaxpr

X = np.ones((2, 3), np.float32)


def _call(**options):
    return ffi_call("kernel", jc.ShapeDtypeStruct((2, 3), np.float32), **options)


def _params(fn, *args):
    (eqn,) = jc.make_jaxpr(fn)(*args).jaxpr.eqns
    return eqn.params


def test_params_of_a_staged_call():
    params = _params(lambda x: _call(input_layouts=[(0, 1)])(x, z=np.arange(2), a=1.5), X)
    assert params["input_layouts"] == ((1, 0),)  # given major-to-minor, carried minor-to-major
    assert params["output_layouts"] == ((1, 0),)
    assert [name for name, _ in params["attributes"]] == ["a", "z"]
    assert params["attributes"][1][1] == HashableArray(np.arange(2))


def test_broadcast_all_widens_layouts_and_results():
    params = _params(jc.vmap(lambda x: _call(vmap_method="broadcast_all", input_layouts=[(1, 0)])(x)), X[None])
    assert params["input_layouts"] == ((1, 2, 0),)  # the batch dimension is the most major
    assert params["output_layouts"] == ((2, 1, 0),)
    assert params["result_avals"][0].shape == (1, 2, 3)


def test_no_derivative():
    with pytest.raises(ValueError, match="The FFI call to `kernel` cannot be differentiated"):
        jc.jvp(lambda x: _call()(x), (X,), (X,))


def test_reference_backend_refuses_to_run():
    with pytest.raises(RuntimeError, match="needs a compiling backend"):
        _call()(X)


@pytest.mark.parametrize("side_effect", [False, True])
def test_dead_code_elimination_keeps_side_effects(side_effect):
    jaxpr = jc.make_jaxpr(lambda x: (_call(has_side_effect=side_effect)(x), x)[1])(X).jaxpr
    pruned, _ = dce_jaxpr(jaxpr)
    assert len(pruned.eqns) == int(side_effect)
