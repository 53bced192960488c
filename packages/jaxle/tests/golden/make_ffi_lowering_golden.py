"""Write ffi_lowering_golden.json: user primitives lowered by ``jax.ffi.ffi_lowering`` to calls of jaxlib's LAPACK
Cholesky kernel: each case's jaxpr, the custom call of its lowered module, and its values under jit (or its error);
replayed by test_ffi_lowering.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_ffi_lowering_golden.py jax
"""

import importlib
import pathlib
import re
import sys

import numpy as np
from golden_writer import write_golden

SPD = np.array([[4.0, 2.0, 0.4], [2.0, 3.0, 0.5], [0.4, 0.5, 2.0]], np.float32)
LOWER = np.uint8(ord("L"))
COLUMN_MAJOR = {"operand_layouts": [(0, 1)], "result_layouts": [(0, 1), ()]}

# case -> (ffi_lowering's keyword arguments, the primitive's parameters, whether the jitted call runs)
CASES = {
    "column_major": (COLUMN_MAJOR, {"uplo": LOWER}, True),
    "row_major_defaults": ({}, {"uplo": LOWER}, True),
    "aliased_side_effect": ({**COLUMN_MAJOR, "operand_output_aliases": {0: 0}, "has_side_effect": True},
                            {"uplo": LOWER}, True),
    "attributes_of_every_kind": ({}, {"uplo": LOWER, "flag": True, "text": "ab", "n": 3, "scale": 1.5,
                                      "i64": np.int64(-2)}, False),
    "legacy_config": ({"backend_config": "opaque", "api_version": 2}, {}, False),
    "legacy_with_attributes": ({"api_version": 2}, {"uplo": LOWER}, False),
}


def primitive(m, name, lowering_options):
    """A primitive with the Cholesky kernel's signature (factor and status), lowered to the kernel."""
    p = m.extend.core.Primitive(name)
    p.multiple_results = True
    p.def_abstract_eval(lambda x, **params: (m.core.ShapedArray(x.shape, x.dtype), m.core.ShapedArray((), np.int32)))
    m.interpreters.mlir.register_lowering(p, m.ffi.ffi_lowering("lapack_spotrf_ffi", **lowering_options))
    return p


def record(m, name) -> dict:
    options, params, runs = CASES[name]
    p = primitive(m, f"ffi_lowering_{name}", options)

    def fn(x):
        return p.bind(x, **params)

    out = {"jaxpr": str(m.make_jaxpr(fn)(SPD))}
    try:
        lowered = m.jit(fn).lower(SPD).as_text()
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {**out, "error": type(error).__name__, "message": str(error)}
    call = next(line for line in lowered.splitlines() if "stablehlo.custom_call" in line)
    out["custom_call"] = re.sub(r" loc\(.*\)$", "", call.split(" = ", 1)[1])
    if runs:
        factor, info = m.jit(fn)(SPD)
        out["values"] = [np.asarray(factor).round(5).tolist(), int(info)]
    return out


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    for submodule in ("ffi", "extend.core", "interpreters.mlir", "core"):
        importlib.import_module(f"{sys.argv[1]}.{submodule}")
    module.numpy.linalg.cholesky(module.numpy.eye(2))  # JAX loads LAPACK on its first linear-algebra call only
    records = {name: record(module, name) for name in CASES}
    out = pathlib.Path(__file__).parent / "ffi_lowering_golden.json"
    write_golden(records, out, indent=0)
