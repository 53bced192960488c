"""``jax.ffi.ffi_lowering``/``build_ffi_lowering_function``: user primitives lowered through
``mlir.register_lowering`` to calls of jaxlib's LAPACK Cholesky kernel, against JAX 0.10.2's jaxprs, custom calls,
values and errors (golden/ffi_lowering_golden.json) and NumPy; ``register_ffi_type`` registering a user type."""

import ctypes
import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle as jax
from jaxle.interpreters import mlir

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_ffi_lowering_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "ffi_lowering_golden.json").read_text())


@pytest.mark.parametrize("case", sorted(golden.CASES))
def test_matches_jax(case):
    assert golden.record(jax, case) == GOLDEN[case]


def test_factor_matches_numpy():
    p = golden.primitive(jax, "ffi_lowering_numpy_check", golden.COLUMN_MAJOR)
    factor, info = jax.jit(lambda x: p.bind(x, uplo=golden.LOWER))(golden.SPD)
    np.testing.assert_allclose(np.tril(np.asarray(factor)), np.linalg.cholesky(golden.SPD), rtol=1e-6)
    assert int(info) == 0


def _cholesky_primitive(name, rule):
    p = jax.extend.core.Primitive(name)
    p.multiple_results = True
    p.def_abstract_eval(lambda x: (jax.core.ShapedArray(x.shape, x.dtype), jax.core.ShapedArray((), np.int32)))
    mlir.register_lowering(p, rule)
    return p


def test_build_function_with_fixed_attributes():
    build = jax.ffi.build_ffi_lowering_function("lapack_spotrf_ffi", backend_config={"uplo": golden.LOWER},
                                                **golden.COLUMN_MAJOR)
    seen = []

    def rule(ctx, x):
        op = build(ctx, x)
        seen.append(len(op.results))
        return op.results

    p = _cholesky_primitive("ffi_lowering_fixed_attributes", rule)
    factor, _ = jax.jit(p.bind)(golden.SPD)
    assert seen == [2]
    np.testing.assert_allclose(np.tril(np.asarray(factor)), np.linalg.cholesky(golden.SPD), rtol=1e-6)
    assert GOLDEN["column_major"]["custom_call"] in jax.jit(p.bind).lower(golden.SPD).as_text()


def test_unknown_lowering_argument():
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        jax.ffi.ffi_lowering("lapack_spotrf_ffi", colour="red")


def test_register_ffi_type_gives_the_type_an_id():
    type_ids = [ctypes.c_int64(0), ctypes.c_int64(0)]
    for number, type_id in enumerate(type_ids):
        jax.ffi.register_ffi_type(f"jaxle_test_type_{number}", {"type_id": jax.ffi.pycapsule(ctypes.pointer(type_id))})
    # XLA writes each registered type's id into the kernel library's TypeId: distinct and non-zero
    assert 0 not in {t.value for t in type_ids} and type_ids[0].value != type_ids[1].value
