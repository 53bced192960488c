"""Golden records of jnp's matrices (eye, tri, tril/triu, diag, diagflat, vander) and the index arrays of
diagonals and triangles from JAX 0.10.2.

Run with JAX's environment: /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_matrices_golden.py jax
"""

import numpy as np
from jnp_golden import no_args_case, rand, traced_case, write

M33 = rand((3, 3), "float32", 1)
M34 = rand((3, 4), "float32", 2)
B234 = rand((2, 3, 4), "int32", 3)
V3 = rand((3,), "float32", 4)

CASES = {
    # ---- eye, identity, tri
    "eye": no_args_case(lambda jnp: jnp.eye(3)),
    "eye_rect_k_int": no_args_case(lambda jnp: jnp.eye(2, 3, k=1, dtype=int)),
    "eye_negative_k": no_args_case(lambda jnp: jnp.eye(3, k=-1)),
    "eye_k_beyond": no_args_case(lambda jnp: jnp.eye(2, k=5)),
    "eye_k_numpy": no_args_case(lambda jnp: jnp.eye(2, k=np.int32(1))),
    "eye_traced_k": traced_case(lambda jnp, k: jnp.eye(3, k=k), 1),
    "eye_bool": no_args_case(lambda jnp: jnp.eye(2, dtype=bool)),
    "eye_bf16": no_args_case(lambda jnp: jnp.eye(2, dtype=jnp.bfloat16)),
    "eye_empty": no_args_case(lambda jnp: jnp.eye(0)),
    "eye_numpy_n": no_args_case(lambda jnp: jnp.eye(np.int64(2))),
    "eye_negative": no_args_case(lambda jnp: jnp.eye(-1)),
    "eye_negative_m": no_args_case(lambda jnp: jnp.eye(2, -1)),
    "eye_float_n": no_args_case(lambda jnp: jnp.eye(2.5)),
    "eye_float_k": no_args_case(lambda jnp: jnp.eye(2, k=1.5)),
    "eye_float_m": no_args_case(lambda jnp: jnp.eye(2, 3.0)),
    "identity": no_args_case(lambda jnp: jnp.identity(2, jnp.int8)),
    "identity_default": no_args_case(lambda jnp: jnp.identity(3)),
    "identity_negative": no_args_case(lambda jnp: jnp.identity(-1)),
    "identity_float": no_args_case(lambda jnp: jnp.identity(2.0)),
    "tri": no_args_case(lambda jnp: jnp.tri(3)),
    "tri_rect_k_bool": no_args_case(lambda jnp: jnp.tri(2, 3, -1, dtype=bool)),
    "tri_k_int": no_args_case(lambda jnp: jnp.tri(3, 2, 1, dtype=jnp.int16)),
    "tri_negative": no_args_case(lambda jnp: jnp.tri(-1)),
    "tri_float": no_args_case(lambda jnp: jnp.tri(2.0)),
    "tri_float_k": no_args_case(lambda jnp: jnp.tri(2, k=1.5)),
    # ---- tril, triu
    "tril": traced_case(lambda jnp, x: jnp.tril(x), M33),
    "tril_k_batched": traced_case(lambda jnp, x: jnp.tril(x, 1), B234),
    "tril_rect_negative_k": traced_case(lambda jnp, x: jnp.tril(x, -2), M34),
    "triu": traced_case(lambda jnp, x: jnp.triu(x, -1), M33),
    "triu_default": traced_case(lambda jnp, x: jnp.triu(x), M34),
    "triu_k_batched": traced_case(lambda jnp, x: jnp.triu(x, 2), B234),
    "tril_bool": no_args_case(lambda jnp: jnp.tril(np.ones((2, 2), bool))),
    "tril_weak": no_args_case(lambda jnp: jnp.tril(jnp.full((2, 2), 1.0))),
    "tril_numpy_k": no_args_case(lambda jnp: jnp.tril(np.ones((2, 2)), np.int32(1))),
    "tril_complex": no_args_case(lambda jnp: jnp.tril(rand((2, 2), "complex64", 5))),
    "tril_1d": traced_case(lambda jnp, x: jnp.tril(x), V3),
    "triu_1d": traced_case(lambda jnp, x: jnp.triu(x), V3),
    "tril_list": no_args_case(lambda jnp: jnp.tril([[1, 2], [3, 4]])),
    "tril_float_k": no_args_case(lambda jnp: jnp.tril(np.ones((2, 2)), 1.5)),
    # ---- diag, vander
    "diag_vector": traced_case(lambda jnp, x: jnp.diag(x), V3),
    "diag_vector_k": traced_case(lambda jnp, x: jnp.diag(x, 1), V3),
    "diag_vector_negative_k_int": traced_case(lambda jnp, x: jnp.diag(x, -2), np.array([1, 2], np.int32)),
    "diag_matrix": traced_case(lambda jnp, x: jnp.diag(x), M33),
    "diag_matrix_k": traced_case(lambda jnp, x: jnp.diag(x, -1), M34),
    "diag_matrix_k_positive": no_args_case(lambda jnp: jnp.diag(np.arange(12).reshape(3, 4), 2)),
    "diag_weak_vector": no_args_case(lambda jnp: jnp.diag(jnp.full(2, 1.5))),
    "diag_list": no_args_case(lambda jnp: jnp.diag([1, 2])),
    "diag_scalar": no_args_case(lambda jnp: jnp.diag(np.float32(1))),
    "diag_3d": no_args_case(lambda jnp: jnp.diag(np.ones((2, 2, 2)))),
    "diag_float_k": no_args_case(lambda jnp: jnp.diag(np.ones(2), 1.5)),
    "vander": traced_case(lambda jnp, x: jnp.vander(x), V3),
    "vander_increasing": traced_case(lambda jnp, x: jnp.vander(x, increasing=True), V3),
    "vander_int_columns": traced_case(lambda jnp, x: jnp.vander(x, 2, increasing=True), np.array([1, 2, 3], np.int32)),
    "vander_int_decreasing": no_args_case(lambda jnp: jnp.vander(np.array([2, -1, 3]), 4)),
    "vander_no_columns": traced_case(lambda jnp, x: jnp.vander(x, 0), V3),
    "vander_complex": no_args_case(lambda jnp: jnp.vander(np.array([1j, 2]), 3)),
    "vander_bool": traced_case(lambda jnp, x: jnp.vander(x, 2), np.array([True, False])),
    "vander_2d": no_args_case(lambda jnp: jnp.vander(np.ones((2, 2)))),
    "vander_list": no_args_case(lambda jnp: jnp.vander([1, 2])),
    "vander_negative_n": no_args_case(lambda jnp: jnp.vander(np.ones(2), -1)),
    # ---- diagflat
    "diagflat": traced_case(lambda jnp, x: jnp.diagflat(x), rand((2, 2), "float32", 6)),
    "diagflat_negative_k": traced_case(lambda jnp, x: jnp.diagflat(x, -1), rand((2,), "float32", 7)),
    "diagflat_k2_int": no_args_case(lambda jnp: jnp.diagflat(np.arange(3), 2)),
    "diagflat_scalar": no_args_case(lambda jnp: jnp.diagflat(np.float32(3))),
    "diagflat_list": no_args_case(lambda jnp: jnp.diagflat([1, 2])),
    # ---- index arrays
    "diag_indices": no_args_case(lambda jnp: jnp.diag_indices(3, 2)),
    "diag_indices_3d": no_args_case(lambda jnp: jnp.diag_indices(2, 3)),
    "diag_indices_ndim0": no_args_case(lambda jnp: list(jnp.diag_indices(2, 0)) + [jnp.zeros(())]),
    "diag_indices_negative": no_args_case(lambda jnp: jnp.diag_indices(-1)),
    "diag_indices_negative_ndim": no_args_case(lambda jnp: jnp.diag_indices(2, -1)),
    "diag_indices_float": no_args_case(lambda jnp: jnp.diag_indices(2.0)),
    "diag_indices_from": traced_case(lambda jnp, x: jnp.diag_indices_from(x), M33),
    "diag_indices_from_3d": no_args_case(lambda jnp: jnp.diag_indices_from(np.ones((2, 2, 2)))),
    "diag_indices_from_1d": no_args_case(lambda jnp: jnp.diag_indices_from(np.ones(2))),
    "diag_indices_from_not_square": no_args_case(lambda jnp: jnp.diag_indices_from(np.ones((2, 3)))),
    "diag_indices_from_list": no_args_case(lambda jnp: jnp.diag_indices_from([[1, 2], [3, 4]])),
    "tril_indices": no_args_case(lambda jnp: jnp.tril_indices(3)),
    "tril_indices_k": no_args_case(lambda jnp: jnp.tril_indices(3, -1, 4)),
    "triu_indices": no_args_case(lambda jnp: jnp.triu_indices(3, 1, 4)),
    "triu_indices_default": no_args_case(lambda jnp: jnp.triu_indices(2)),
    "tril_indices_from": traced_case(lambda jnp, x: jnp.tril_indices_from(x, -1), M34),
    "triu_indices_from": traced_case(lambda jnp, x: jnp.triu_indices_from(x), M33),
    "tril_indices_negative": no_args_case(lambda jnp: jnp.tril_indices(-1)),
    "tril_indices_float": no_args_case(lambda jnp: jnp.tril_indices(2.0)),
    "tril_indices_float_k": no_args_case(lambda jnp: jnp.tril_indices(2, 1.5)),
    "tril_indices_from_1d": no_args_case(lambda jnp: jnp.tril_indices_from(np.ones(2))),
    "triu_indices_from_3d": no_args_case(lambda jnp: jnp.triu_indices_from(np.ones((2, 2, 2)))),
    "tril_indices_from_list": no_args_case(lambda jnp: jnp.tril_indices_from([[1, 2], [3, 4]])),
    "mask_indices_traced": no_args_case(lambda jnp: jnp.mask_indices(3, jnp.triu, 1)),
}

if __name__ == "__main__":
    write(CASES, "matrices_golden.json")
