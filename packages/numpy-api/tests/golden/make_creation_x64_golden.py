"""Golden records of jnp's creation functions with x64 enabled, from JAX 0.10.2: a selection of the cases of the
creation, ranges, matrices, grids, windows and scalar-type generators, recorded with ``jax_enable_x64`` on (the
test replays them under ``config.enable_x64(True)``).

Run with JAX's environment:
/work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_creation_x64_golden.py jax
"""

import make_array_creation_golden
import make_grids_golden
import make_matrices_golden
import make_ranges_golden
import make_scalar_types_golden
import make_windows_golden
from jnp_golden import write_x64

_SELECTED = {
    make_array_creation_golden: [
        "array_py_float", "array_py_int", "array_py_complex", "array_list_ints", "array_list_mixed",
        "array_list_np_int8", "array_np_float64", "array_np_int64_scalar", "array_dtype_float", "array_int_overflow",
        "array_list_int_overflow", "array_weak_tracer", "array_list_weak_tracers", "array_list_tracer_and_int",
        "array_tracer_and_np_array", "zeros_int", "ones_complex", "full_int_weak", "full_tracer_dtype",
        "zeros_like_py_scalar", "full_like_dtype", "copy_host"],
    make_ranges_golden: [
        "arange_stop", "arange_float_step", "arange_dtype_bf16", "arange_int_float_mix", "arange_np_int8",
        "linspace_ints", "linspace_int_dtype", "linspace_complex", "linspace_retstep", "logspace", "geomspace",
        "geomspace_complex"],
    make_matrices_golden: [
        "eye", "eye_traced_k", "tri_k_int", "tril", "diag_vector", "diag_indices", "tril_indices", "vander",
        "vander_int_decreasing", "diagflat"],
    make_grids_golden: ["mgrid", "mgrid_complex_and_int", "indices", "ix_", "r_slice_and_scalar", "fromfunction"],
    make_windows_golden: ["bartlett", "hamming", "kaiser", "kaiser_traced_weak_beta"],
    make_scalar_types_golden: [
        "call_int_", "call_float_", "call_float64", "call_complex_", "call_float32_weak_traced", "result_type_python",
        "result_type_weak_float", "promote_python_types"],
}

CASES = {f"{module.__name__.removeprefix('make_').removesuffix('_golden')}.{name}": module.CASES[name]
         for module, names in _SELECTED.items() for name in names}

if __name__ == "__main__":
    write_x64(CASES, "creation_x64_golden.json")
