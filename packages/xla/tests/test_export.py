"""``jax.export`` on XLA: exporting jitted functions, calling them eagerly and inside transformations, the
calling-signature errors of JAX 0.10.2, and serialization round trips."""

from __future__ import annotations

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax
from jaxle_xla import export

f32 = np.float32
x = np.array([0.5, 1.0, 2.0], f32)


def _sin_times(a, b):
    return lax.sin(a) * b, lax.reduce_sum(a, (0,))


@pytest.fixture(scope="module")
def exported():
    return export.export(jc.jit(_sin_times))(x, 2.0)


def test_signature(exported):
    assert exported.fun_name == "_sin_times"
    assert [str(a) for a in exported.in_avals] == ["float32[3]", "~float32[]"] and exported.in_avals[1].weak_type
    assert [str(a) for a in exported.out_avals] == ["float32[3]", "float32[]"]
    assert exported.platforms == ("cpu",) and exported.nr_devices == 1 and exported.module_kept_var_idx == (0, 1)
    assert exported.calling_convention_version == export.maximum_supported_calling_convention_version == 10
    assert exported.mlir_module_serialized.startswith(b"ML\xefR\rStableHLO_v")
    assert "stablehlo.sine" in exported.mlir_module() and str(exported) == "Exported(fun_name=_sin_times, ...)"


@pytest.mark.parametrize("wrap", [lambda f: f, jc.jit], ids=["eager", "jit"])
def test_call(exported, wrap):
    out, total = wrap(exported.call)(x, 3.0)
    np.testing.assert_allclose(np.asarray(out), np.sin(x) * 3, rtol=1e-6)
    assert float(total) == float(x.sum())


def test_call_is_one_equation_and_composes(exported):
    text = str(jc.make_jaxpr(exported.call)(x, 2.0))
    assert "= call_exported[\n      exported=Exported(fun_name=_sin_times, ...)\n    ] a b\n" in text
    twice = jc.jit(lambda a: exported.call(exported.call(a, 1.0)[0], 2.0)[0])(x)
    np.testing.assert_allclose(np.asarray(twice), np.sin(np.sin(x)) * 2, rtol=1e-6)


def test_unused_arguments_are_not_in_the_module():
    unused = export.export(jc.jit(lambda a, b: a * 2))(x, np.ones(2, f32))
    assert unused.module_kept_var_idx == (0,) and len(unused.in_avals) == 2
    np.testing.assert_array_equal(np.asarray(unused.call(x, np.ones(2, f32))), x * 2)


def test_abstract_arguments():
    exported = export.export(jc.jit(lambda a: a + 1))(jc.ShapeDtypeStruct((2,), f32))
    assert [str(a) for a in exported.in_avals] == ["float32[2]"]


def test_serialize_round_trip(exported):
    blob = exported.serialize()
    assert isinstance(blob, bytearray)
    again = export.deserialize(blob)
    assert again.in_avals == exported.in_avals and again.in_tree == exported.in_tree
    assert again.mlir_module_serialized == exported.mlir_module_serialized
    out, _ = again.call(x, 2.0)
    np.testing.assert_allclose(np.asarray(out), np.sin(x) * 2, rtol=1e-6)


_STRUCTURE = ("The invocation args and kwargs must have the same pytree structure as when the function '_sin_times' "
              "was exported, but they have the following structural differences:\n")


@pytest.mark.parametrize("args, kwargs, message", [
    ((x.astype(np.int32), 2.0), {}, "Dtype mismatch for args[0]: expected float32 and called with int32"),
    ((x[:, None], 2.0), {}, "Rank mismatch for args[0]: expected (3,) and called with (3, 1)"),
    ((np.ones(4, f32), 2.0), {}, "Shape mismatch for args[0].shape[0] (expected same constant): expected (3,) and "
                                 "called with (4,)"),
    (((x,), 2.0), {}, _STRUCTURE + "   - args[0] is a <class 'tuple'> in the invocation and a <class 'int'> when "
                                   "exported, so their Python types differ.\n"),
    ((x,), {"b": 2.0}, _STRUCTURE + "   - args is a tuple of length 1 in the invocation and a tuple of length 2 when "
                                    "exported, so the lengths do not match.\n\n   - kwargs is a <class 'dict'> with 1 "
                                    "child in the invocation and a <class 'dict'> with 0 child when exported, so the "
                                    "numbers of children do not match, with the symmetric difference of key sets: "
                                    "{'b'}.\n"),
])
def test_call_errors(exported, args, kwargs, message):
    with pytest.raises(ValueError) as info:
        exported.call(*args, **kwargs)
    assert str(info.value) == message


def test_export_errors():
    with pytest.raises(ValueError, match="^Function to be exported must be the result of `jit` but is: <function"):
        export.export(lambda a: a)(x)
    with pytest.raises(NotImplementedError, match="^serialization of host_callbacks is not yet implemented$"):
        export.export(jc.jit(lambda a: jc.pure_callback(np.sin, jc.ShapeDtypeStruct((3,), f32), a)))(x)
