"""Write scaled_matmul_golden.json: JAX's jaxprs of ``jax.nn.scaled_matmul`` (and the error its CPU compilation
raises), its shape errors and the configurations of ``get_scaled_dot_general_config``, replayed by
test_nn_scaled_matmul.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_scaled_matmul_golden.py jax
"""

import importlib
import pathlib
import sys

import ml_dtypes
import numpy as np
from golden_writer import write_golden

F8, E8M0, F32 = ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e8m0fnu, np.float32

# name: (lhs, rhs, lhs_scales, rhs_scales shapes, their dtypes, preferred_element_type or None).
MATMUL_CASES = {
    "mxfp8": (((1, 2, 64), (1, 3, 64), (1, 2, 2), (1, 3, 2)), (F8, F8, E8M0, E8M0), None),
    "mxfp8_bfloat16": (((2, 2, 32), (2, 1, 32), (2, 2, 1), (2, 1, 1)), (F8, F8, E8M0, E8M0), ml_dtypes.bfloat16),
    "float32_operands": (((1, 2, 4), (1, 3, 4), (1, 2, 2), (1, 3, 2)), (F32,) * 4, None),
    "rank_error": (((2, 64), (3, 64), (2, 2), (3, 2)), (F8, F8, E8M0, E8M0), None),
    "operand_k_error": (((1, 2, 64), (1, 3, 32), (1, 2, 2), (1, 3, 2)), (F8, F8, E8M0, E8M0), None),
    "operand_batch_error": (((1, 2, 64), (2, 3, 64), (1, 2, 2), (2, 3, 2)), (F8, F8, E8M0, E8M0), None),
    "scales_k_error": (((1, 2, 64), (1, 3, 64), (1, 2, 3), (1, 3, 2)), (F8, F8, E8M0, E8M0), None),
    "scales_rows_error": (((1, 2, 64), (1, 3, 64), (1, 3, 2), (1, 3, 2)), (F8, F8, E8M0, E8M0), None),
}


def matmul_record(m, shapes, types, preferred) -> dict:
    """The jaxpr and the error of running it, or the error of tracing it."""
    args = [m.numpy.ones(shape, dtype) for shape, dtype in zip(shapes, types)]
    fn = m.nn.scaled_matmul if preferred is None else (
        lambda *a: m.nn.scaled_matmul(*a, preferred_element_type=preferred))
    try:
        text = str(m.make_jaxpr(fn)(*args))
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error)}
    try:
        fn(*args)
    except Exception as error:  # noqa: BLE001
        return {"jaxpr": text, "run_error": type(error).__name__, "run_message": str(error)}
    return {"jaxpr": text}


def config_record(m, mode, global_scale) -> dict:
    try:
        config = m.nn.get_scaled_dot_general_config(mode, global_scale)
    except Exception as error:  # noqa: BLE001
        return {"error": type(error).__name__, "message": str(error)}
    return {"repr": repr(config), "type": type(config).__name__}


def main() -> None:
    m = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.numpy")
    records = {f"matmul_{name}": matmul_record(m, *case) for name, case in MATMUL_CASES.items()}
    for mode, scale in [("mxfp8", None), ("nvfp4", None), ("nvfp4", [2.0]), ("fp8", None)]:
        global_scale = None if scale is None else m.numpy.array(scale, np.float32)
        records[f"config_{mode}_{scale}"] = config_record(m, mode, global_scale)
    path = pathlib.Path(__file__).parent / "scaled_matmul_golden.json"
    write_golden(records, path)


if __name__ == "__main__":
    main()
