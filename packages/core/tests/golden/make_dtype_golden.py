"""Write dtype_golden.json: dtype promotion, canonicalisation and naming facts.

Run with the module whose behaviour is the reference, by name:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_dtype_golden.py jax

The module must offer numpy.promote_types, numpy.issubdtype, dtypes.result_type,
dtypes.canonicalize_dtype, core.ShapedArray and config.update, as JAX does.
"""

import importlib
import json
import pathlib
import random
import sys
import warnings

import ml_dtypes
import numpy as np

DTYPE_NAMES = [
    "bool", "int1", "int2", "int4", "int8", "int16", "int32", "int64",
    "uint1", "uint2", "uint4", "uint8", "uint16", "uint32", "uint64",
    "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz",
    "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu",
    "bfloat16", "float16", "float32", "float64", "complex64", "complex128",
]
PY_TYPES = {"py:int": int, "py:float": float, "py:complex": complex, "py:bool": bool}
PY_VALUES = {"val:1": 1, "val:1.0": 1.0, "val:1j": 1j, "val:True": True}
ARRAY_NAMES = ["int64", "uint64", "float64", "complex128", "int16"]
ISSUB_KINDS = ["bool_", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
               "complexfloating", "generic"]


def np_dtype(name):
    return np.dtype(getattr(ml_dtypes, name, None) or name)


def outcome(fn, *args):
    """'name', 'name*' when weakly typed, '!Error' on failure; '~' appended when it warned."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res = fn(*args)
            text = (str(np.dtype(res[0])) + ("*" if res[1] else "")) if isinstance(res, tuple) else str(np.dtype(res))
        except Exception as err:  # noqa: BLE001 - the error type is the golden fact
            text = "!" + type(err).__name__
    return text + ("~" if caught else "")


def main(module_name):
    mod = importlib.import_module(module_name)
    np_mod, dtypes_mod, core_mod = (importlib.import_module(f"{module_name}.{sub}")
                                    for sub in ("numpy", "dtypes", "core"))

    class WeakValue:
        """A weakly typed value of any dtype, as a tracer or array would present it."""
        def __init__(self, dt):
            self.dtype = dt
            self.aval = core_mod.ShapedArray((), dt, weak_type=True)

    participants = {name: np_dtype(name) for name in DTYPE_NAMES}
    participants.update(PY_TYPES)
    participants.update(PY_VALUES)
    participants.update({f"weak:{n}": WeakValue(np_dtype(n)) for n in DTYPE_NAMES})
    participants.update({f"arr:{n}": np.zeros((), np_dtype(n)) for n in ARRAY_NAMES})
    participants["none"] = None
    labels = list(participants)
    promote_labels = DTYPE_NAMES + list(PY_TYPES)
    promote_args = {**{n: np_dtype(n) for n in DTYPE_NAMES}, **PY_TYPES}

    rng = random.Random(0)
    triples = [[rng.choice(labels) for _ in range(3)] for _ in range(400)]

    def result_type(*args):
        return dtypes_mod.result_type(*args, return_weak_type_flag=True)

    golden = {"module": f"{module_name} {getattr(mod, '__version__', '?')}", "dtypes": DTYPE_NAMES,
              "labels": labels, "promote_labels": promote_labels, "triples": triples}
    for mode in ("standard", "strict"):
        mod.config.update("jax_numpy_dtype_promotion", mode)
        for x64 in (False, True):
            mod.config.update("jax_enable_x64", x64)
            key = f"{mode}_{'x64' if x64 else 'x32'}"
            golden[f"result_type_{key}"] = [[outcome(result_type, participants[a], participants[b])
                                             for b in labels] for a in labels]
            golden[f"result_type3_{key}"] = [outcome(result_type, *(participants[x] for x in t)) for t in triples]
            golden[f"promote_types_{key}"] = [[outcome(np_mod.promote_types, promote_args[a], promote_args[b])
                                               for b in promote_labels] for a in promote_labels]
            golden[f"canonicalize_{key}"] = {n: outcome(dtypes_mod.canonicalize_dtype, np_dtype(n))
                                             for n in DTYPE_NAMES}
            golden[f"canonicalize_py_{key}"] = {n: outcome(dtypes_mod.canonicalize_dtype, t)
                                                for n, t in PY_TYPES.items()}
    mod.config.update("jax_numpy_dtype_promotion", "standard")
    mod.config.update("jax_enable_x64", False)
    golden["short_names"] = {n: core_mod.ShapedArray((2,), np_dtype(n)).str_short(short_dtypes=True)
                             for n in DTYPE_NAMES}
    golden["issubdtype"] = {n: [bool(np_mod.issubdtype(np_dtype(n), getattr(np, k))) for k in ISSUB_KINDS]
                            for n in DTYPE_NAMES}
    golden["issubdtype_kinds"] = ISSUB_KINDS
    out = pathlib.Path(__file__).with_name("dtype_golden.json")
    out.write_text(json.dumps(golden, separators=(",", ":")) + "\n")
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "jax")
