"""Write ffi_golden.json: jaxprs, values and errors of ``jax.ffi.ffi_call`` on jaxlib's LAPACK Cholesky kernels
(eager, jit, every vmap_method, differentiation, bad arguments), and the staged jaxpr and custom call of a call
with attributes of every kind; replayed by test_ffi_api.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_ffi_golden.py jax
"""

import importlib
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parents[3] / "numpy-api" / "tests" / "golden"))

import jnp_golden  # noqa: E402 - found through the path set just above
from golden_writer import write_golden

SPD = np.array([[4.0, 2.0, 0.4], [2.0, 3.0, 0.5], [0.4, 0.5, 2.0]], np.float32)
BATCH = np.stack([SPD, 2 * SPD + np.eye(3, dtype=np.float32)])
COMPLEX = (SPD + 1j * np.array([[0, 0.5, 0], [-0.5, 0, 0.2], [0, -0.2, 0]])).astype(np.complex64)
LOWER = np.uint8(ord("L"))


def potrf(m, target="lapack_spotrf_ffi", dtype=np.float32, n=3, **options):
    """The LAPACK Cholesky kernel as an ffi_call: column-major matrix in and out, and the status."""
    options.setdefault("input_layouts", [(1, 0)])
    options.setdefault("output_layouts", [(1, 0), None])
    return m.ffi.ffi_call(target, (m.ShapeDtypeStruct((n, n), dtype), m.ShapeDtypeStruct((), np.int32)), **options)


def call(m, x, **options):
    return potrf(m, **options)(x, uplo=LOWER)


def vmap_case(method):
    return lambda m: (m.vmap(lambda x: call(m, x, vmap_method=method)), [BATCH])


CASES = {
    "eager": lambda m: (lambda x: call(m, x), [SPD]),
    "aliased": lambda m: (lambda x: call(m, x, input_output_aliases={0: 0}), [SPD]),
    "complex64": lambda m: (lambda x: potrf(m, "lapack_cpotrf_ffi", np.complex64)(x, uplo=LOWER), [COMPLEX]),
    "jit": lambda m: (m.jit(lambda x: call(m, x)), [SPD]),
    "row_major": lambda m: (lambda x: call(m, x, input_layouts=None, output_layouts=None), [SPD]),
    **{f"vmap_{method}": vmap_case(method)
       for method in ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized"]},
    "vmap_aliased_broadcast_all": lambda m: (
        m.vmap(lambda x: call(m, x, vmap_method="broadcast_all", input_output_aliases={0: 0})), [BATCH]),
    "vmap_without_method": lambda m: (m.vmap(lambda x: call(m, x)), [BATCH]),
    "grad": lambda m: (m.grad(lambda x: call(m, x)[0].sum()), [SPD]),
    "bad_vmap_method": lambda m: (lambda x: call(m, x, vmap_method="parallel"), [SPD]),
    "unknown_target": lambda m: (lambda x: call(m, x, target="jaxle_no_such_target"), [SPD]),
    "unhashable_attribute": lambda m: (lambda x: potrf(m)(x, uplo=[76]), [SPD]),
    "too_many_input_layouts": lambda m: (lambda x: call(m, x, input_layouts=[(1, 0), (1, 0)]), [SPD]),
    "too_few_output_layouts": lambda m: (lambda x: call(m, x, output_layouts=[(1, 0)]), [SPD]),
    "alias_output_out_of_range": lambda m: (lambda x: call(m, x, input_output_aliases={0: 2}), [SPD]),
}


def attributes_call(m):
    """A staged call (never run) carrying attributes of every kind, with a side effect and an alias."""
    target = m.ffi.ffi_call("jaxle_attributes", m.ShapeDtypeStruct((2, 2), np.float32), has_side_effect=True,
                            input_output_aliases={0: 0})
    return lambda x: target(x, i=1, f=2.5, b=True, s="text", u8=LOWER, f32=np.float32(0.5), i64=np.int64(-3),
                            array=np.arange(3, dtype=np.int32))


def staged_record(m) -> dict:
    fn = attributes_call(m)
    x = np.ones((2, 2), np.float32)
    lowered = m.jit(fn).lower(x).as_text()
    custom_call = next(line for line in lowered.splitlines() if "stablehlo.custom_call" in line)
    return {"jaxpr": str(m.make_jaxpr(fn)(x)), "custom_call": custom_call.split(" = ", 1)[1]}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.ffi")
    module.numpy.linalg.cholesky(module.numpy.eye(2))  # JAX loads LAPACK on its first linear-algebra call only
    records = {name: jnp_golden.run_case(module, build) for name, build in CASES.items()}
    records["staged_attributes"] = staged_record(module)
    out = pathlib.Path(__file__).parent / "ffi_golden.json"
    write_golden(records, out)
