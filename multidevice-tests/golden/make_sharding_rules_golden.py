"""Write sharding_rules_golden.json: the sharding rules of indexing, scatter, dynamic slices, padding, sorting,
joining, selection, convolution, matrix decompositions and Fourier transforms over a mesh of Explicit axes on eight
CPU devices (jaxpr text, results' types and layouts, errors), recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_sharding_rules_golden.py jax
"""


import golden_main
import numpy as np
from make_sharding_types_golden import HERE, _in_mesh, _jaxpr, _mesh, _outcome, _p, _put, _result, _traced

ROWS = np.array([0, 3, 1])  # row indices of the f32[8,4] arrays a, b, c, d of _in_mesh


def _put_as(jax, mesh, value, *spec):
    return jax.device_put(value, jax.sharding.NamedSharding(mesh, _p(jax, *spec)))


def _indices(jax, mesh, shape, bound, *spec):
    """int32 indices in [0, bound) of ``shape``, laid out as ``spec``."""
    return _put_as(jax, mesh, (np.arange(np.prod(shape), dtype=np.int32) % bound).reshape(shape), *spec)


def _matrices(jax, mesh, *spec):
    """A batch of two symmetric positive definite f32[4,4] matrices laid out as ``spec``."""
    matrix = np.eye(4, dtype=np.float32) * 4 + np.ones((4, 4), np.float32)
    return _put_as(jax, mesh, np.stack([matrix, 2 * matrix]), *spec)


def _with(make_operands, f):
    """The jaxpr of ``f(jax)`` applied to ``make_operands(jax, mesh)``, under set_mesh."""
    return _in_mesh(lambda jax, mesh, *_: _jaxpr(jax, f(jax), *make_operands(jax, mesh)))


def _layouts(jax, outs) -> str:
    """Each result's type and layout (values compared against NumPy by the test, not here: LAPACK's last bits)."""
    return " | ".join(f"{jax.typeof(o)} {o.sharding.spec}" for o in jax.tree.leaves(outs))


def _values(jax, outs) -> str:
    return " | ".join(_result(o) for o in jax.tree.leaves(outs))


def _computed(make_operands, f, describe=_values):
    """``describe`` of ``jit(f(jax))`` applied to ``make_operands(jax, mesh)``, under set_mesh."""
    def case(jax):
        mesh = _mesh(jax)
        with jax.sharding.set_mesh(mesh):
            return _outcome(lambda: describe(jax, jax.jit(f(jax))(*make_operands(jax, mesh))))
    return case


def _conv(jax, **kwargs):
    return lambda u, w: jax.lax.conv_general_dilated(u, w, (1, 1), "SAME", **kwargs)


def _images(*spec):
    return lambda jax, m: [_put(jax, m, (2, 4, 8, 8), *spec), _put(jax, m, (4, 4, 3, 3))]


def _solve(jax, **kwargs):
    return lambda u, v: jax.lax.linalg.triangular_solve(u, v, lower=True, **kwargs)


def _pooled(jax, mesh):
    return [_put(jax, mesh, (2, 4, 8, 8), "x", None, "y")]


def _pool(jax, u, reducer, init, strides, window=(2, 2)):
    return jax.lax.reduce_window(u, init, reducer, (1, 1, *window), (1, 1, *strides), "VALID")


CASES = {
    # gather: jnp indexing, take, take_along_axis
    "index_rows": _traced(lambda jax: lambda u: u[ROWS], 1),
    "index_rows_of_split_rows": _traced(lambda jax: lambda u: u[ROWS], 2),
    "index_split_indices": _with(lambda jax, m: [_put(jax, m, (8, 4), None, "y"), _indices(jax, m, (8,), 8, "x")],
                                 lambda jax: lambda u, i: u[i]),
    "index_dynamic_scalar": _with(lambda jax, m: [_put(jax, m, (8, 4), None, "y"), np.int32(2)],
                                  lambda jax: lambda u, i: u[i]),
    "take_columns": _traced(lambda jax: lambda u: jax.numpy.take(u, ROWS, axis=1), 0),
    "take_split_columns": _traced(lambda jax: lambda u: jax.numpy.take(u, ROWS, axis=1), 2),
    "take_along_axis_batch": _with(lambda jax, m: [_put(jax, m, (8, 4), "x"), _indices(jax, m, (8, 4), 4, "x")],
                                   lambda jax: lambda u, i: jax.numpy.take_along_axis(u, i, axis=1)),
    "take_along_axis_split_indices": _with(lambda jax, m: [_put(jax, m, (8, 4)), _indices(jax, m, (8, 4), 4, "x")],
                                           lambda jax: lambda u, i: jax.numpy.take_along_axis(u, i, axis=1)),
    "take_along_axis_batches_differ": _with(
        lambda jax, m: [_put(jax, m, (8, 4), "x"), _indices(jax, m, (8, 4), 4, "y")],
        lambda jax: lambda u, i: jax.numpy.take_along_axis(u, i, axis=1)),
    "take_along_axis_split_index_dim": _with(
        lambda jax, m: [_put(jax, m, (8, 4), "x"), _indices(jax, m, (8, 4), 4, "x", "y")],
        lambda jax: lambda u, i: jax.numpy.take_along_axis(u, i, axis=1)),
    "gather_whole_window": _traced(lambda jax: lambda u: jax.lax.gather(
        u, np.array([[0]]), jax.lax.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(),
                                                           start_index_map=(0,)), (8, 4), mode="clip"), 0),
    "gather_result": _computed(lambda jax, m: [_put(jax, m, (8, 4), None, "y")], lambda jax: lambda u: u[ROWS]),
    # scatter: .at[...] updates
    "at_add_scalar": _traced(lambda jax: lambda u: u.at[ROWS].add(1.0), 1),
    "at_set_replicated_updates": _traced(lambda jax: lambda u: u.at[ROWS].set(jax.numpy.ones((3, 4))), 1),
    "at_add_row": _with(lambda jax, m: [_put(jax, m, (8, 4), None, "y"), _put(jax, m, (4,))],
                        lambda jax: lambda u, r: u.at[ROWS].add(r)),
    "at_set_slice": _with(lambda jax, m: [_put(jax, m, (8, 4), None, "y"), np.ones((2, 4), np.float32)],
                          lambda jax: lambda u, v: u.at[1:3].set(v)),
    "at_set_dynamic_row": _with(lambda jax, m: [_put(jax, m, (8, 4), None, "y"), np.int32(2)],
                                lambda jax: lambda u, i: u.at[i].set(1.0)),
    "at_set_split_rows": _traced(lambda jax: lambda u: u.at[ROWS].set(1.0), 2),
    "at_add_split_indices": _with(lambda jax, m: [_put(jax, m, (8, 4), None, "y"), _indices(jax, m, (8,), 8, "x")],
                                  lambda jax: lambda u, i: u.at[i].add(1.0)),
    "at_set_updates_laid_out_otherwise": _with(
        lambda jax, m: [_put(jax, m, (8, 4)), _put(jax, m, (8, 4), None, "y")],
        lambda jax: lambda u, v: u.at[np.arange(8)].set(v)),
    "scatter_add_updates_replicated": _with(
        lambda jax, m: [_put(jax, m, (8, 4), None, "y"), _put(jax, m, (2, 4))],
        lambda jax: lambda u, v: jax.lax.scatter_add(u, np.array([[1], [2]]), v, jax.lax.ScatterDimensionNumbers(
            update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)))),
    "bincount_split_indices": _traced(lambda jax: lambda u: jax.numpy.bincount(u[:, 0].astype(np.int32), length=40),
                                      0),
    "scatter_result": _computed(lambda jax, m: [_put(jax, m, (8, 4), None, "y")],
                                lambda jax: lambda u: u.at[ROWS].add(1.0)),
    "at_get_out_sharding": _traced(lambda jax: lambda u: u.at[ROWS].get(out_sharding=_p(jax, None, "y")), 2),
    "at_get_out_sharding_mixed": _traced(lambda jax: lambda u: u.at[1:3, ROWS].get(out_sharding=_p(jax, "x")), 2),
    "at_add_out_sharding": _with(lambda jax, m: [_put(jax, m, (8, 4), "x", "y"), _put(jax, m, (3, 4), None, "y")],
                                 lambda jax: lambda u, v: u.at[ROWS].add(v, out_sharding=_p(jax, "x"))),
    "at_multiply_out_sharding": _traced(lambda jax: lambda u: u.at[ROWS].multiply(2.0, out_sharding=_p(jax, "x")),
                                        2),
    "at_set_out_sharding_result": _computed(lambda jax, m: [_put(jax, m, (8, 4), "x", "y")],
                                            lambda jax: lambda u: u.at[ROWS].set(-1.0, out_sharding=_p(jax, "x"))),
    # dynamic slices
    "dynamic_slice": _traced(lambda jax: lambda u: jax.lax.dynamic_slice(u, (1, 0), (4, 4)), 2),
    "dynamic_slice_uneven": _traced(lambda jax: lambda u: jax.lax.dynamic_slice(u, (1, 1), (8, 2)), 1),
    "dynamic_update_slice": _with(lambda jax, m: [_put(jax, m, (8, 4), "x"), _put(jax, m, (2, 4), "x")],
                                  lambda jax: lambda u, v: jax.lax.dynamic_update_slice(u, v, (0, 0))),
    "dynamic_update_slice_differs": _traced(lambda jax: lambda u: jax.lax.dynamic_update_slice(
        u, jax.numpy.ones((2, 2)), (1, 0)), 2),
    # padding
    "pad": _traced(lambda jax: lambda u: jax.numpy.pad(u, ((1, 1), (0, 0))), 2),
    "pad_uneven": _traced(lambda jax: lambda u: jax.numpy.pad(u, ((1, 0), (0, 0))), 0),
    "lax_pad_interior": _traced(lambda jax: lambda u: jax.lax.pad(u, 0.0, ((0, 0, 1), (0, 0, 0))), 0),
    "lax_pad_negative": _traced(lambda jax: lambda u: jax.lax.pad(u, 0.0, ((-2, 0, 0), (0, 0, 0))), 0),
    # sorting
    "sort": _traced(lambda jax: lambda u: jax.numpy.sort(u, axis=1), 0),
    "sort_split_dim": _traced(lambda jax: lambda u: jax.numpy.sort(u, axis=0), 0),
    "argsort": _traced(lambda jax: lambda u: jax.numpy.argsort(u, axis=1), 0),
    "sort_operands_differ": _with(lambda jax, m: [_put(jax, m, (8, 4), "x"), _put(jax, m, (8, 4))],
                                  lambda jax: lambda u, v: jax.lax.sort((u, v), dimension=1, num_keys=1)),
    "sort_result": _computed(lambda jax, m: [_put(jax, m, (8, 4), "x")],
                             lambda jax: lambda u: jax.numpy.sort(-u, axis=1)),
    "top_k": _traced(lambda jax: lambda u: jax.lax.top_k(u, 2), 0),
    "top_k_split_axis": _traced(lambda jax: lambda u: jax.lax.top_k(u, 2), 1),
    "top_k_result": _computed(lambda jax, m: [_put(jax, m, (2, 4, 4), "x", "y")],
                              lambda jax: lambda u: jax.lax.top_k(u, 2)),
    # joining and cutting
    "concatenate_differ": _traced(lambda jax: lambda u, v: jax.numpy.concatenate([u, v], 1), 0, 1),
    "hstack": _traced(lambda jax: lambda u, v: jax.numpy.hstack([u, v]), 0, 0),
    "stack": _traced(lambda jax: lambda u, v: jax.numpy.stack([u, v], 1), 0, 0),
    "stack_differ": _traced(lambda jax: lambda u, v: jax.numpy.stack([u, v]), 0, 2),
    "repeat_whole_axis": _traced(lambda jax: lambda u: jax.numpy.repeat(u, 2, axis=0), 1),
    "repeat_split_axis": _traced(lambda jax: lambda u: jax.numpy.repeat(u, 2, axis=0), 0),
    "repeat_out_sharding": _traced(lambda jax: lambda u: jax.numpy.repeat(u, 2, axis=0, out_sharding=_p(jax, "x")),
                                   0),
    "repeat_flat_replicated": _with(lambda jax, m: [_put(jax, m, (8, 4))],
                                    lambda jax: lambda u: jax.numpy.repeat(u, 2)),
    "split": _traced(lambda jax: lambda u: jax.numpy.split(u, 2, axis=0), 0),
    "split_uneven": _traced(lambda jax: lambda u: jax.numpy.split(u, 2, axis=1), 1),
    "lax_split": _traced(lambda jax: lambda u: jax.lax.split(u, (2, 6), axis=0), 0),
    "lax_split_uneven": _traced(lambda jax: lambda u: jax.lax.split(u, (3, 5), axis=0), 0),
    # selection
    "select_n_cases_differ": _traced(lambda jax: lambda u, v: jax.lax.select_n(u > 5, u, v), 0, 1),
    "select_n_which_differs": _with(lambda jax, m: [_put(jax, m, (8, 4)), _put(jax, m, (8, 4), "x")],
                                    lambda jax: lambda w, u: jax.lax.select_n(w > 1, u, u)),
    "select_n_scalar_which": _traced(lambda jax: lambda u: jax.lax.select_n(True, u, u * 2), 0),
    "where_differ": _traced(lambda jax: lambda u, v: jax.numpy.where(u > 5, u, v), 0, 1),
    "where_replicated_condition_broadcast": _with(lambda jax, m: [_put(jax, m, (8, 4)), _put(jax, m, (8, 4), "x")],
                                                  lambda jax: lambda p, u: jax.numpy.where(p > 1, u, 0.0)),
    "where_replicated_case_broadcast": _with(lambda jax, m: [_put(jax, m, (8, 4), "x"), _put(jax, m, (8, 4))],
                                             lambda jax: lambda p, u: jax.numpy.where(p > 1, u, 0.0)),
    "where_host_condition": _traced(lambda jax: lambda u: jax.numpy.where(np.ones((8, 4), bool), u, 0.0), 0),
    "where_same_shapes_differ": _with(lambda jax, m: [_put(jax, m, (8, 4)), _put(jax, m, (8, 4), "x")],
                                      lambda jax: lambda p, u: jax.numpy.where(p > 1, u, u)),
    "tril": _traced(lambda jax: jax.numpy.tril, 0),
    "tril_batch": _with(lambda jax, m: [_put(jax, m, (2, 4, 4), None, "y")], lambda jax: jax.numpy.triu),
    "trace": _traced(lambda jax: lambda u: jax.numpy.trace(u[:4]), 1),
    "pad_reflect_whole_axis": _traced(lambda jax: lambda u: jax.numpy.pad(u, ((2, 2), (0, 0)), mode="reflect"), 1),
    "pad_edge_split_axis": _traced(lambda jax: lambda u: jax.numpy.pad(u, ((0, 0), (1, 1)), mode="edge"), 1),
    "reshape_past_unit_dims": _traced(lambda jax: lambda u: jax.numpy.reshape(u, (1, 8, 1, 4)), 2),
    "clamp_arrays": _with(lambda jax, m: [_put(jax, m, (8, 4), "x"), _put(jax, m, (8, 4), None, "y"),
                                          _put(jax, m, (8, 4))],
                          lambda jax: lambda lo, u, hi: jax.lax.clamp(lo, u, hi)),
    "clip": _traced(lambda jax: lambda u: jax.numpy.clip(u, 0.0, 3.0), 2),
    "cumsum_kept_axis": _traced(lambda jax: lambda u: jax.lax.cumsum(u, 1, reverse=True), 0),
    "cummax_split_axis": _traced(lambda jax: lambda u: jax.lax.cummax(u, 0), 0),
    "argmin": _traced(lambda jax: lambda u: jax.numpy.argmin(u, 1), 2),
    # convolution
    "conv_batch": _with(_images("x"), _conv),
    "conv_spatial_strided": _with(_images(None, None, "y"), lambda jax: lambda u, w: jax.lax.conv_general_dilated(
        u, w, (2, 1), "SAME")),
    "conv_spatial_uneven": _with(_images(None, None, "y"), lambda jax: lambda u, w: jax.lax.conv_general_dilated(
        u, w, (1, 1), "VALID")),
    "conv_features_split": _with(_images(None, "y"), _conv),
    "conv_kernel_split": _with(lambda jax, m: [_put(jax, m, (2, 4, 8, 8), "x"), _put(jax, m, (4, 4, 3, 3), "y")],
                               _conv),
    "conv_out_sharding": _with(_images(None, "y"), lambda jax: _conv(jax, out_sharding=_p(jax, "x"))),
    "conv_nhwc": _with(lambda jax, m: [_put(jax, m, (2, 8, 8, 4), "x", None, "y"), _put(jax, m, (3, 3, 4, 4))],
                       lambda jax: lambda u, w: jax.lax.conv_general_dilated(
                           u, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "conv_result": _computed(_images("x", None, "y"), _conv, _layouts),
    # matrix decompositions and solves
    "cholesky_batch": _with(lambda jax, m: [_matrices(jax, m, "x")], lambda jax: jax.lax.linalg.cholesky),
    "cholesky_split_rows": _with(lambda jax, m: [_matrices(jax, m, None, "y")], lambda jax: jax.lax.linalg.cholesky),
    "lu_batch": _with(lambda jax, m: [_matrices(jax, m, "x")], lambda jax: jax.lax.linalg.lu),
    "lu_split_rows": _with(lambda jax, m: [_matrices(jax, m, None, "y")], lambda jax: jax.lax.linalg.lu),
    "lu_result": _computed(lambda jax, m: [_matrices(jax, m, "x")], lambda jax: jax.lax.linalg.lu, _layouts),
    "qr_batch": _with(lambda jax, m: [_matrices(jax, m, "x")], lambda jax: jax.lax.linalg.qr),
    "qr_split_columns": _with(lambda jax, m: [_matrices(jax, m, None, None, "y")], lambda jax: jax.lax.linalg.qr),
    "eigh_batch": _with(lambda jax, m: [_matrices(jax, m, "x")], lambda jax: jax.lax.linalg.eigh),
    "eigh_result": _computed(lambda jax, m: [_matrices(jax, m, "x")], lambda jax: jax.lax.linalg.eigh, _layouts),
    "svd_batch": _with(lambda jax, m: [_matrices(jax, m, "x")], lambda jax: jax.lax.linalg.svd),
    "svd_split_rows": _with(lambda jax, m: [_matrices(jax, m, None, "y")], lambda jax: jax.lax.linalg.svd),
    "svd_result": _computed(lambda jax, m: [_matrices(jax, m, "x")], lambda jax: jax.lax.linalg.svd, _layouts),
    "triangular_solve_batch": _with(lambda jax, m: [_matrices(jax, m, "x")] * 2,
                                    lambda jax: _solve(jax, left_side=True)),
    "triangular_solve_rows_of_a": _with(lambda jax, m: [_matrices(jax, m, None, "y"), _matrices(jax, m)],
                                        lambda jax: _solve(jax, left_side=True)),
    "triangular_solve_columns_of_b": _with(lambda jax, m: [_matrices(jax, m), _matrices(jax, m, None, None, "y")],
                                           lambda jax: _solve(jax, left_side=True)),
    "triangular_solve_contracted_a": _with(lambda jax, m: [_matrices(jax, m, None, None, "y"), _matrices(jax, m)],
                                           lambda jax: _solve(jax, left_side=True)),
    "triangular_solve_contracted_b": _with(lambda jax, m: [_matrices(jax, m), _matrices(jax, m, None, "y")],
                                           lambda jax: _solve(jax, left_side=True)),
    "triangular_solve_right": _with(lambda jax, m: [_matrices(jax, m, None, None, "y"), _matrices(jax, m)],
                                    lambda jax: _solve(jax, left_side=False)),
    "triangular_solve_right_transposed": _with(
        lambda jax, m: [_matrices(jax, m, None, None, "y"), _matrices(jax, m)],
        lambda jax: _solve(jax, left_side=False, transpose_a=True)),
    "triangular_solve_batches_differ": _with(lambda jax, m: [_matrices(jax, m, "x"), _matrices(jax, m)],
                                             lambda jax: _solve(jax, left_side=True)),
    # Fourier transforms
    "fft_batch": _traced(lambda jax: jax.numpy.fft.fft, 0),
    "fft_split_axis": _traced(lambda jax: jax.numpy.fft.fft, 1),
    "rfft_uneven": _traced(lambda jax: jax.numpy.fft.rfft, 1),
    "fft2": _with(lambda jax, m: [_put(jax, m, (2, 4, 8), None, "y")], lambda jax: jax.numpy.fft.fft2),
    "fft_result": _computed(lambda jax, m: [_put(jax, m, (2, 8), "x")], lambda jax: jax.numpy.fft.rfft, _layouts),
    # window reductions
    "max_pool": _with(_pooled, lambda jax: lambda u: _pool(jax, u, jax.lax.max, -np.inf, (2, 2))),
    "sum_pool_uneven": _with(_pooled, lambda jax: lambda u: _pool(jax, u, jax.lax.add, 0.0, (1, 1), (3, 3))),
    "product_pool": _with(_pooled, lambda jax: lambda u: _pool(jax, u, jax.lax.mul, 1.0, (2, 2))),
    "jvp_max_pool": _computed(_pooled, lambda jax: lambda u: jax.jvp(
        lambda v: _pool(jax, v, jax.lax.max, -np.inf, (2, 2)), (u,), (u,)), _layouts),
    "grad_max_pool": _with(_pooled, lambda jax: jax.grad(lambda u: _pool(jax, u, jax.lax.max, -np.inf, (2, 2)).sum())),
    "grad_sum_pool": _with(_pooled, lambda jax: jax.grad(lambda u: _pool(jax, u, jax.lax.add, 0.0, (2, 2)).sum())),
    # more batched matrix primitives, bitcasts, unstack, tile, approx_max_k
    "householder_product_split_taus": _with(lambda jax, m: [_matrices(jax, m), _put(jax, m, (2, 4), None, "y")],
                                            lambda jax: jax.lax.linalg.householder_product),
    "householder_product_batches_differ": _with(lambda jax, m: [_matrices(jax, m, "x"), _put(jax, m, (2, 4))],
                                                lambda jax: jax.lax.linalg.householder_product),
    "tridiagonal_solve": _with(lambda jax, m: [_put(jax, m, (2, 4), "x"), _put(jax, m, (2, 4), "x"),
                                               _put(jax, m, (2, 4), "x"), _put(jax, m, (2, 4, 1), "x")],
                               lambda jax: jax.lax.linalg.tridiagonal_solve),
    "tridiagonal_solve_split_b": _with(lambda jax, m: [_put(jax, m, (2, 4)), _put(jax, m, (2, 4)),
                                                       _put(jax, m, (2, 4)), _put(jax, m, (2, 4, 1), None, "y")],
                                       lambda jax: jax.lax.linalg.tridiagonal_solve),
    "eig_split_rows": _with(lambda jax, m: [_matrices(jax, m, None, "y")], lambda jax: jax.numpy.linalg.eigvals),
    "schur": _with(lambda jax, m: [_matrices(jax, m, "x")], lambda jax: jax.lax.linalg.schur),
    "lu_pivots_to_permutation_split": _with(lambda jax, m: [_indices(jax, m, (2, 4), 4, None, "y")],
                                            lambda jax: lambda p: jax.lax.linalg.lu_pivots_to_permutation(p, 4)),
    "bitcast_narrower": _traced(lambda jax: lambda u: jax.lax.bitcast_convert_type(u, np.int16), 0),
    "bitcast_wider": _with(lambda jax, m: [_put_as(jax, m, np.ones((8, 4, 2), np.int16), "x")],
                           lambda jax: lambda u: jax.lax.bitcast_convert_type(u, np.float32)),
    "unstack": _traced(lambda jax: lambda u: jax.numpy.unstack(u, axis=1), 0),
    "unstack_split_axis": _traced(lambda jax: lambda u: jax.numpy.unstack(u, axis=0), 0),
    "tile_split_axis": _traced(lambda jax: lambda u: jax.numpy.tile(u, (2, 1)), 0),
    "tile_whole_axis": _traced(lambda jax: lambda u: jax.numpy.tile(u, (1, 2)), 0),
    "approx_max_k_split_axis": _traced(lambda jax: lambda u: jax.lax.approx_max_k(u, 2), 1),
    "approx_max_k": _traced(lambda jax: lambda u: jax.lax.approx_max_k(u, 2), 0),
    # derivatives: the zeros a transpose writes into are laid out as the values they stand for
    "grad_index": _traced(lambda jax: jax.grad(lambda u: u[ROWS].sum()), 1),
    "grad_take_along_axis": _computed(
        lambda jax, m: [_put(jax, m, (8, 4), "x"), _indices(jax, m, (8, 4), 4, "x")],
        lambda jax: jax.grad(lambda u, i: jax.numpy.take_along_axis(u, i, axis=1).sum()), _layouts),
    "grad_at_add": _computed(lambda jax, m: [_put(jax, m, (8, 4), None, "y"), _put(jax, m, (3, 4), None, "y")],
                             lambda jax: jax.grad(lambda u, v: (u.at[ROWS].add(v) ** 2).sum(), argnums=(0, 1)),
                             _layouts),
    "grad_dynamic_slice": _traced(lambda jax: jax.grad(lambda u: jax.lax.dynamic_slice(u, (1, 0), (4, 4)).sum()), 2),
    "grad_dynamic_update_slice": _computed(
        lambda jax, m: [_put(jax, m, (8, 4), "x"), _put(jax, m, (2, 4), "x")],
        lambda jax: jax.grad(lambda u, v: (jax.lax.dynamic_update_slice(u, v, (0, 0)) ** 2).sum(), argnums=(0, 1)),
        _layouts),
    "grad_sort": _computed(lambda jax, m: [_put(jax, m, (8, 4), "x")],
                           lambda jax: jax.grad(lambda u: (jax.numpy.sort(u, axis=1) * jax.numpy.arange(4.0)).sum()),
                           _layouts),
    "grad_top_k": _computed(lambda jax, m: [_put(jax, m, (8, 4), "x")],
                            lambda jax: jax.grad(lambda u: jax.lax.top_k(u, 2)[0].sum()), _layouts),
    "grad_concatenate": _computed(lambda jax, m: [_put(jax, m, (8, 4), "x")],
                                  lambda jax: jax.grad(lambda u: jax.numpy.concatenate([u, u * 2], 1).sum()),
                                  _layouts),
    "grad_where": _traced(lambda jax: jax.grad(lambda u: jax.numpy.where(u > 3, u, 0.0).sum()), 0),
    "grad_conv": _with(_images("x"), lambda jax: jax.grad(lambda u, w: jax.lax.conv_general_dilated(
        u, w, (1, 1), "SAME").sum(), argnums=(0, 1))),
    "grad_eigh": _computed(lambda jax, m: [_matrices(jax, m, "x")],
                           lambda jax: jax.grad(lambda u: jax.lax.linalg.eigh(u)[1].sum()), _layouts),
    "grad_fft": _computed(lambda jax, m: [_put(jax, m, (2, 8), "x")],
                          lambda jax: jax.grad(lambda u: jax.numpy.abs(jax.numpy.fft.fft(u)).sum()), _layouts),
    "grad_triangular_solve": _computed(
        lambda jax, m: [_matrices(jax, m, "x")],
        lambda jax: jax.grad(lambda u: jax.lax.linalg.triangular_solve(u, u, left_side=True, lower=True).sum()),
        _layouts),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "sharding_rules_golden.json")
