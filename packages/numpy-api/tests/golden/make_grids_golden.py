"""Golden records of jnp's grids and index helpers (meshgrid, mgrid/ogrid, indices, ix_, r_/c_, fromfunction)
from JAX 0.10.2.

Run with JAX's environment: /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_grids_golden.py jax
"""

import numpy as np
from jnp_golden import no_args_case, rand, traced_case, write

X2, Y3, Z4 = rand((2,), "float32", 1), rand((3,), "float32", 2), rand((4,), "float32", 3)
I3 = np.array([2, 0, 1], np.int32)

CASES = {
    # ---- meshgrid
    "meshgrid_xy": traced_case(lambda jnp, x, y: jnp.meshgrid(x, y), X2, Y3),
    "meshgrid_ij_sparse": traced_case(lambda jnp, x, y: jnp.meshgrid(x, y, indexing="ij", sparse=True), X2, I3),
    "meshgrid_xy_sparse": traced_case(lambda jnp, x, y: jnp.meshgrid(x, y, sparse=True), X2, Y3),
    "meshgrid_three": traced_case(lambda jnp, x, y, z: jnp.meshgrid(x, y, z), X2, Y3, Z4),
    "meshgrid_three_ij": traced_case(lambda jnp, x, y, z: jnp.meshgrid(x, y, z, indexing="ij"), X2, Y3, Z4),
    "meshgrid_one": traced_case(lambda jnp, x: jnp.meshgrid(x), Y3),
    "meshgrid_mixed_dtypes": traced_case(lambda jnp, x, y: jnp.meshgrid(x, y), np.ones(2, np.float16), I3),
    "meshgrid_scalar": traced_case(lambda jnp, x: jnp.meshgrid(x), np.float32(1)),
    "meshgrid_2d": no_args_case(lambda jnp: jnp.meshgrid(np.ones(2), np.ones((2, 2)))),
    "meshgrid_bad_indexing": no_args_case(lambda jnp: jnp.meshgrid(np.ones(2), indexing="foo")),
    "meshgrid_list": no_args_case(lambda jnp: jnp.meshgrid([1, 2])),
    "meshgrid_no_copy": no_args_case(lambda jnp: jnp.meshgrid(np.ones(2), copy=False)),
    # ---- mgrid, ogrid
    "mgrid": no_args_case(lambda jnp: jnp.mgrid[0:3, 0:2]),
    "mgrid_1d_step": no_args_case(lambda jnp: jnp.mgrid[0:1:0.25]),
    "mgrid_complex_step": no_args_case(lambda jnp: jnp.mgrid[0:1:3j]),
    "mgrid_complex_and_int": no_args_case(lambda jnp: jnp.mgrid[0:1:3j, 1:4]),
    "mgrid_negative_step": no_args_case(lambda jnp: jnp.mgrid[3:0:-1]),
    "mgrid_float_start": no_args_case(lambda jnp: jnp.mgrid[0.5:2]),
    "mgrid_no_start": no_args_case(lambda jnp: jnp.mgrid[:3]),
    "mgrid_no_stop": no_args_case(lambda jnp: jnp.mgrid[3:]),
    "mgrid_one_tuple": no_args_case(lambda jnp: jnp.mgrid[1:3,]),
    "mgrid_empty": no_args_case(lambda jnp: jnp.mgrid[()]),
    "mgrid_integer": no_args_case(lambda jnp: jnp.mgrid[3]),
    "mgrid_traced": traced_case(lambda jnp, n: jnp.mgrid[0:n], 3),
    "ogrid": no_args_case(lambda jnp: jnp.ogrid[0:3, 0:2]),
    "ogrid_1d": no_args_case(lambda jnp: jnp.ogrid[0:3]),
    "ogrid_complex": no_args_case(lambda jnp: jnp.ogrid[0:1:3j, 0:2]),
    # ---- indices, ix_
    "indices": no_args_case(lambda jnp: jnp.indices((2, 3))),
    "indices_sparse": no_args_case(lambda jnp: jnp.indices((2, 3), sparse=True)),
    "indices_dtype": no_args_case(lambda jnp: jnp.indices((2,), dtype=jnp.int8)),
    "indices_float_dtype": no_args_case(lambda jnp: jnp.indices((2, 2), dtype=float)),
    "indices_3d": no_args_case(lambda jnp: jnp.indices((2, 1, 3))),
    "indices_empty": no_args_case(lambda jnp: jnp.indices(())),
    "indices_int": no_args_case(lambda jnp: jnp.indices(2)),
    "indices_negative": no_args_case(lambda jnp: jnp.indices((2, -1))),
    "indices_float": no_args_case(lambda jnp: jnp.indices((2.0,))),
    "ix_": traced_case(lambda jnp, x, y: jnp.ix_(x, y), I3, np.array([1, 0], np.int32)),
    "ix_three": no_args_case(lambda jnp: jnp.ix_(np.arange(2), np.arange(3), np.arange(1))),
    "ix_empty": no_args_case(lambda jnp: list(jnp.ix_()) + [jnp.zeros(())]),
    "ix_bool": traced_case(lambda jnp, x: jnp.ix_(x), np.array([True, False])),
    "ix_2d": no_args_case(lambda jnp: jnp.ix_(np.ones((2, 2)))),
    "ix_scalar": no_args_case(lambda jnp: jnp.ix_(1)),
    "ix_list": no_args_case(lambda jnp: jnp.ix_([1, 2])),
    # ---- r_, c_
    "r_tracer_and_scalars": traced_case(lambda jnp, x: jnp.r_[x, 1, 2], X2),
    "r_slice_and_scalar": no_args_case(lambda jnp: jnp.r_[0:3, 5]),
    "r_directive_ndmin": traced_case(lambda jnp, x: jnp.r_["0,2", x, x], X2),
    "r_last_axis": no_args_case(lambda jnp: jnp.r_["-1", np.ones((2, 2)), np.zeros((2, 1))]),
    "r_row": no_args_case(lambda jnp: jnp.r_["r", [1, 2, 3]]),
    "r_column": no_args_case(lambda jnp: jnp.r_["c", [1, 2, 3]]),
    "r_column_scalars": no_args_case(lambda jnp: jnp.r_["c", 1, 2]),
    "r_row_2d": no_args_case(lambda jnp: jnp.r_["r", np.ones((2, 2))]),
    "r_complex_slice": no_args_case(lambda jnp: jnp.r_[0:1:3j, 4]),
    "r_lists": no_args_case(lambda jnp: jnp.r_[[1, 2], [3]]),
    "r_single_scalar": no_args_case(lambda jnp: jnp.r_[1]),
    "r_bool_int": no_args_case(lambda jnp: jnp.r_[True, 2]),
    "r_complex_scalar": no_args_case(lambda jnp: jnp.r_[1j, 2]),
    "r_numpy_scalar": no_args_case(lambda jnp: jnp.r_[np.float32(1), 2]),
    "r_zero_dim_array": no_args_case(lambda jnp: jnp.r_[np.array(1.0), 2]),
    "r_weak_floats": no_args_case(lambda jnp: jnp.r_[1.0, 2]),
    "r_tuple_item": no_args_case(lambda jnp: jnp.r_[(1, 2), 3]),
    "r_2d": no_args_case(lambda jnp: jnp.r_[np.ones((2, 2)), np.zeros((1, 2))]),
    "r_trans1d": no_args_case(lambda jnp: jnp.r_["0,2,0", [1, 2, 3], [4, 5, 6]]),
    "r_trans1d_one": no_args_case(lambda jnp: jnp.r_["0,3,1", [1, 2]]),
    "r_trans1d_negative": no_args_case(lambda jnp: jnp.r_["0,3,-1", [1, 2]]),
    "r_trans1d_minus_two": no_args_case(lambda jnp: jnp.r_["0,3,-2", np.ones((2, 3))]),
    "r_trans1d_last": no_args_case(lambda jnp: jnp.r_["0,3,2", [1, 2]]),
    "r_trans1d_2d_item": no_args_case(lambda jnp: jnp.r_["0,4,2", np.ones((2, 3))]),
    "r_trans1d_scalar": no_args_case(lambda jnp: jnp.r_["0,3,1", 5]),
    "r_ndmin_slice": no_args_case(lambda jnp: jnp.r_["0,2", 0:3, [1, 2, 3]]),
    "r_ndmin_slice_trans": no_args_case(lambda jnp: jnp.r_["0,2,0", 0:3, [[1], [2], [3]]]),
    "r_ndmin_scalars": no_args_case(lambda jnp: jnp.r_["0,2", 1, 2]),
    "r_slice_no_start": no_args_case(lambda jnp: jnp.r_[:3]),
    "r_slice_float_step": no_args_case(lambda jnp: jnp.r_[0:1:0.5]),
    "r_empty": no_args_case(lambda jnp: jnp.r_[()]),
    "r_directive_only": no_args_case(lambda jnp: jnp.r_["0"]),
    "r_bad_directive": no_args_case(lambda jnp: jnp.r_["a", 1]),
    "r_directive_later": no_args_case(lambda jnp: jnp.r_[1, "0", 2]),
    "r_none": no_args_case(lambda jnp: jnp.r_[None]),
    "r_traced_slice": traced_case(lambda jnp, n: jnp.r_[n:3], 1),
    "r_list_of_tracers": traced_case(lambda jnp, x: jnp.r_["0,2,0", [x, x], 1.0], np.float32(2)),
    "c_": traced_case(lambda jnp, x, y: jnp.c_[x, y], X2, X2),
    "c_2d": no_args_case(lambda jnp: jnp.c_[np.ones((2, 2)), np.zeros((2, 1))]),
    "c_scalars": no_args_case(lambda jnp: jnp.c_[1, 2]),
    "c_3d": no_args_case(lambda jnp: jnp.c_[np.ones((2, 2, 2)), np.ones((2, 2, 1))]),
    # ---- fromfunction
    "fromfunction": no_args_case(lambda jnp: jnp.fromfunction(lambda i, j: i + j, (2, 3))),
    "fromfunction_int": no_args_case(lambda jnp: jnp.fromfunction(lambda i: i * 2, (3,), dtype=int)),
    "fromfunction_three": no_args_case(lambda jnp: jnp.fromfunction(lambda i, j, k: i * j + k, (2, 3, 2),
                                                                    dtype=jnp.int32)),
    "fromfunction_int_shape": no_args_case(lambda jnp: jnp.fromfunction(lambda i: i, 3)),
    "fromfunction_tuple_result": no_args_case(lambda jnp: jnp.fromfunction(lambda i, j: (i, j), (2, 2))),
    "fromfunction_kwargs": no_args_case(lambda jnp: jnp.fromfunction(lambda i, j, a: i + a, (2, 2), a=3)),
}

if __name__ == "__main__":
    write(CASES, "grids_golden.json")
