"""Write more_sharding_rules_golden.json: ``.at[]`` updates given ``out_sharding``, types whose mesh axes do not
divide their dimensions, the linear algebra of batches split over a mesh axis, and ``vmap`` over split dimensions
(the jaxprs it batches, its loops, searchsorted), over a mesh of Explicit axes on eight CPU devices (jaxpr text,
results' types, errors), recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_more_sharding_rules_golden.py jax
"""


import golden_main
import numpy as np
from make_sharding_rules_golden import ROWS, _matrices
from make_sharding_types_golden import HERE, _in_mesh, _jaxpr, _mesh, _outcome, _p, _put, _result, _traced


def _types(jax, outs) -> str:
    return " | ".join(str(jax.typeof(o)) for o in jax.tree.leaves(outs))


def _update(method: str, *args):
    """``u.at[ROWS].<method>(*args, out_sharding=P('x'))``."""
    return lambda jax: lambda u: getattr(u.at[ROWS], method)(*args, out_sharding=_p(jax, "x"))


def _eager_and_jit(f):
    """The result types of ``f(jax)`` applied eagerly and under jit to a batch of two f32[4,4] matrices split over
    ``x`` (or the error each raises)."""
    def case(jax):
        mesh = _mesh(jax)
        with jax.sharding.set_mesh(mesh):
            batch = _matrices(jax, mesh, "x")
            return (f"eager: {_outcome(lambda: _types(jax, f(jax)(batch)))}; "
                    f"jit: {_outcome(lambda: _types(jax, jax.jit(f(jax))(batch)))}")
    return case


def _outside_mesh(f):
    """``f(jax)`` applied eagerly to an f32[8,4] of ones, outside any mesh (its result's values, or the error)."""
    return lambda jax: _outcome(lambda: str(np.asarray(f(jax)(jax.numpy.ones((8, 4)))).tolist()))


def _indivisible(f):
    """``f(jax, mesh, value)`` for a host f32[3,4], under set_mesh (the result's type, or the error)."""
    def case(jax):
        mesh = _mesh(jax)
        with jax.sharding.set_mesh(mesh):
            return _outcome(lambda: str(jax.typeof(f(jax, mesh, np.ones((3, 4), np.float32)))))
    return case


def _named(jax, mesh, *spec):
    return jax.sharding.NamedSharding(mesh, _p(jax, *spec))


def _vmapped(f, *which, **vmap_kwargs):
    """The jaxpr of ``jax.vmap(f(jax), **vmap_kwargs)`` applied to the arrays of _in_mesh named by ``which``."""
    return _traced(lambda jax: jax.vmap(f(jax), **vmap_kwargs), *which)


def _split_vector(f):
    """The jaxpr of ``f(jax)`` applied to an f32[8] split over ``x`` (and a 2-D f32[8@x,4] when asked)."""
    return _in_mesh(lambda jax, m, a, *_: _jaxpr(jax, f(jax), _put(jax, m, (8,), "x")))


def _loop_over_split(f):
    """The jaxpr of ``vmap(f(jax))`` over an f32[8] split along ``x``."""
    return _split_vector(lambda jax: jax.vmap(f(jax)))


def _typed_inside(*which):
    """The types a vmapped function sees of the arrays of _in_mesh named by ``which``, and the vmap's jaxpr."""
    def run(jax, mesh, *arrays):
        seen = []

        def spy(*values):
            seen.extend(str(jax.typeof(v)) for v in values)
            return values

        text = _jaxpr(jax, jax.vmap(spy), *[arrays[i] for i in which])
        return f"{seen} {text}"
    return _in_mesh(run)


def _with_key(f):
    """``f(jax)`` applied to the state ``uint32[4]`` of zeros, under set_mesh: its jaxpr, and its results' layouts
    and values eagerly."""
    def case(jax):
        with jax.sharding.set_mesh(_mesh(jax)):
            key = np.zeros((4,), np.uint32)
            return (f"{_jaxpr(jax, f(jax), key)} eager: "
                    f"{_outcome(lambda: ' | '.join(_result(o) for o in f(jax)(key)))}")
    return case


def _survey(f):
    """The jaxpr of ``f(jax)`` applied to f32 a: [8@x,4] and c: [8@x,4@y] and i32 i: [8@x,4@y]."""
    def run(jax, mesh, *_):
        values = (np.arange(32) % 7 / 8).reshape(8, 4)
        a, c = (jax.device_put(values.astype(np.float32), _named(jax, mesh, *spec)) for spec in (("x",), ("x", "y")))
        i = jax.device_put(values.astype(np.int32), _named(jax, mesh, "x", "y"))
        return _jaxpr(jax, f(jax), a, c, i)
    return _in_mesh(run)


def _split_keys(f):
    """``f(jax)`` applied to eight keys split over ``x``, under set_mesh: its jaxpr and its eager results' types
    and values (the keys' data for keys)."""
    def case(jax):
        with jax.sharding.set_mesh(_mesh(jax)):
            keys = _outcome(lambda: jax.sharding.reshard(jax.random.split(jax.random.key(0), 8), _p(jax, "x")))
            if isinstance(keys, str):
                return keys

            def described(out):
                data = jax.random.key_data(out) if jax.dtypes.issubdtype(out.dtype, jax.dtypes.prng_key) else out
                return f"{jax.typeof(out)} {np.asarray(data).tolist()}"

            return (f"{jax.typeof(keys)} {_jaxpr(jax, f(jax), keys)} eager: "
                    f"{_outcome(lambda: ' | '.join(described(o) for o in jax.tree.leaves(f(jax)(keys))))}")
    return case


CASES = {
    # .at[] updates given out_sharding: computed whole, laid out as asked; divide and power combine the operand
    # with the factors so laid out
    **{f"at_{method}_out_sharding": _traced(_update(method, 2.0), 2)
       for method in ("set", "add", "subtract", "multiply", "mul", "min", "max", "divide", "power")},
    "at_divide_split_columns": _traced(lambda jax: lambda u: u.at[ROWS].divide(2.0), 1),
    "at_divide_without_out_sharding": _traced(lambda jax: lambda u: u.at[ROWS].divide(2.0), 2),
    "at_divide_slice_out_sharding": _traced(lambda jax: lambda u: u.at[1:3].divide(2.0, out_sharding=_p(jax, "x")),
                                            1),
    "at_power_strided_out_sharding": _traced(
        lambda jax: lambda u: u.at[::2].power(2.0, out_sharding=_p(jax, None, "y")), 1),
    "at_divide_values_out_sharding": _in_mesh(lambda jax, m, a, b, c, d: _jaxpr(
        jax, lambda u, v: u.at[ROWS].divide(v, out_sharding=_p(jax, "x")), c, _put(jax, m, (3, 4), None, "y"))),
    "at_divide_named_out_sharding": _in_mesh(lambda jax, m, a, b, c, d: _jaxpr(
        jax, lambda u: u.at[ROWS].divide(2.0, out_sharding=_named(jax, m, "x")), c)),
    "at_power_eager_result": _in_mesh(lambda jax, m, a, b, c, d: _outcome(lambda: (
        lambda r: f"{jax.typeof(r)} {np.asarray(r).tolist()}")(c.at[ROWS].power(2.0, out_sharding=_p(jax, "x"))))),
    "at_divide_duplicate_axes": _traced(lambda jax: lambda u: u.at[ROWS].divide(2.0, out_sharding=_p(jax, "x", "x")),
                                        2),
    "at_get_slice_out_sharding": _traced(lambda jax: lambda u: u.at[2:6].get(out_sharding=_p(jax, "x")), 1),
    "at_get_row_out_sharding": _traced(lambda jax: lambda u: u.at[1].get(out_sharding=_p(jax, "y")), 1),
    "at_get_uneven_out_sharding": _traced(lambda jax: lambda u: u.at[ROWS].get(out_sharding=_p(jax, "x")), 2),
    "at_set_slice_out_sharding": _traced(lambda jax: lambda u: u.at[2:6].set(1.0, out_sharding=_p(jax, "x")), 1),
    "at_apply_out_sharding": _traced(lambda jax: lambda u: u.at[ROWS].apply(jax.numpy.sin,
                                                                            out_sharding=_p(jax, "x")), 2),
    "at_get_outside_mesh": _outside_mesh(lambda jax: lambda u: u.at[0].get(out_sharding=_p(jax, "x"))),
    "at_set_outside_mesh": _outside_mesh(lambda jax: lambda u: u.at[0].set(2.0, out_sharding=_p(jax, "x"))),
    "at_power_outside_mesh": _outside_mesh(lambda jax: lambda u: u.at[0].power(2.0, out_sharding=_p(jax, "x"))),
    # a type whose Explicit axes do not divide its dimensions cannot exist
    "reshard_uneven": _indivisible(lambda jax, m, v: jax.sharding.reshard(v, _p(jax, "x"))),
    "reshard_uneven_jit": _indivisible(lambda jax, m, v: jax.jit(lambda u: jax.sharding.reshard(u, _p(jax, "x")))(v)),
    "device_put_uneven": _indivisible(lambda jax, m, v: jax.device_put(v, _p(jax, "x"))),
    "device_put_uneven_two_axes": _indivisible(lambda jax, m, v: jax.device_put(v, _p(jax, None, ("x", "y")))),
    "device_put_uneven_jit": _indivisible(lambda jax, m, v: jax.jit(lambda u: jax.device_put(u, _p(jax, "x")))(v)),
    "zeros_uneven_out_sharding": _indivisible(lambda jax, m, v: jax.numpy.zeros((3,), out_sharding=_p(jax, "x"))),
    "broadcast_uneven_out_sharding": _indivisible(lambda jax, m, v: jax.jit(
        lambda u: jax.lax.broadcast_in_dim(u, (3, 4), (0, 1), out_sharding=_p(jax, "x")))(v)),
    "jit_out_shardings_uneven": _indivisible(lambda jax, m, v: jax.jit(lambda u: u, out_shardings=_p(jax, "x"))(v)),
    "device_put_uneven_outside_mesh": lambda jax: _outcome(lambda: str(jax.typeof(jax.device_put(
        np.ones((3, 4), np.float32), _named(jax, _mesh(jax), "x"))))),
    # linear algebra of a batch split over a mesh axis, eager and under jit
    "qr": _eager_and_jit(lambda jax: jax.lax.linalg.qr),
    "jnp_qr": _eager_and_jit(lambda jax: jax.numpy.linalg.qr),
    "cholesky": _eager_and_jit(lambda jax: jax.lax.linalg.cholesky),
    "jnp_cholesky": _eager_and_jit(lambda jax: jax.numpy.linalg.cholesky),
    "eigh": _eager_and_jit(lambda jax: jax.lax.linalg.eigh),
    "jnp_eigh": _eager_and_jit(lambda jax: jax.numpy.linalg.eigh),
    "eigvalsh": _eager_and_jit(lambda jax: jax.numpy.linalg.eigvalsh),
    "svd": _eager_and_jit(lambda jax: jax.lax.linalg.svd),
    "jnp_svd": _eager_and_jit(lambda jax: jax.numpy.linalg.svd),
    "lu": _eager_and_jit(lambda jax: jax.lax.linalg.lu),
    "lu_factor": _eager_and_jit(lambda jax: jax.scipy.linalg.lu_factor),
    "solve": _eager_and_jit(lambda jax: lambda a: jax.numpy.linalg.solve(a, a)),
    "det": _eager_and_jit(lambda jax: jax.numpy.linalg.det),
    "slogdet": _eager_and_jit(lambda jax: jax.numpy.linalg.slogdet),
    "triangular_solve": _eager_and_jit(lambda jax: lambda a: jax.lax.linalg.triangular_solve(a, a, left_side=True,
                                                                                              lower=True)),
    "solve_triangular": _eager_and_jit(lambda jax: lambda a: jax.scipy.linalg.solve_triangular(a, a)),
    "cho_solve": _eager_and_jit(lambda jax: lambda a: jax.scipy.linalg.cho_solve((a, True), a)),
    "pinv": _eager_and_jit(lambda jax: jax.numpy.linalg.pinv),
    "matrix_rank": _eager_and_jit(lambda jax: jax.numpy.linalg.matrix_rank),
    "matrix_power": _eager_and_jit(lambda jax: lambda a: jax.numpy.linalg.matrix_power(a, 3)),
    "cond": _eager_and_jit(lambda jax: jax.numpy.linalg.cond),
    "norm_2": _eager_and_jit(lambda jax: lambda a: jax.numpy.linalg.norm(a, ord=2, axis=(1, 2))),
    "eig": _eager_and_jit(lambda jax: jax.numpy.linalg.eig),
    "schur": _eager_and_jit(lambda jax: jax.lax.linalg.schur),
    "hessenberg": _eager_and_jit(lambda jax: jax.lax.linalg.hessenberg),
    "tridiagonal": _eager_and_jit(lambda jax: jax.lax.linalg.tridiagonal),
    "inv": _eager_and_jit(lambda jax: jax.numpy.linalg.inv),
    "expm": _eager_and_jit(lambda jax: jax.scipy.linalg.expm),
    # vmap over a dimension split over mesh axes: the mapped dimensions must agree, and the jaxprs vmap batches
    # (a jit's, a loop's body) are typed with the batch dimension's layout
    "vmap_mapped_dims_differ": _vmapped(lambda jax: lambda u, v: u + v, 0, 1),
    "vmap_mapped_dims_split_differently": _in_mesh(lambda jax, m, a, *_: _jaxpr(
        jax, jax.vmap(lambda u, v: u + v), a, _put(jax, m, (8, 4), "y"))),
    "vmap_mapped_dims_agree": _vmapped(lambda jax: lambda u, v: u + v, 0, 0),
    "vmap_unmapped_argument": _in_mesh(lambda jax, m, a, b, *_: _jaxpr(
        jax, jax.vmap(lambda u, v: u + v, in_axes=(0, None)), a, b[0])),
    "vmap_columns_against_whole": _vmapped(lambda jax: lambda u, v: u + v, 1, 0, in_axes=1),
    "vmap_eager_mapped_dims_differ": _in_mesh(lambda jax, m, a, b, *_: _outcome(
        lambda: str(jax.vmap(lambda u, v: u + v)(a, b)))),
    "vmap_types_inside_rows": _typed_inside(0),
    "vmap_types_inside_columns": _typed_inside(1),
    "vmap_of_jit_rows": _vmapped(lambda jax: jax.jit(lambda u: jax.numpy.sin(u) * 2), 0),
    "vmap_of_jit_columns": _vmapped(lambda jax: jax.jit(lambda u: jax.numpy.sin(u) * 2), 1),
    "vmap_of_jit_in_axes_one": _vmapped(lambda jax: jax.jit(lambda u: u * 2), 2, in_axes=1, out_axes=1),
    "vmap_of_vmap_of_jit": _vmapped(lambda jax: jax.vmap(jax.jit(lambda u: u * 2)), 2),
    "vmap_of_jit_unbatched_argument": _vmapped(
        lambda jax: lambda u: jax.jit(lambda s, t: s + t)(u, jax.numpy.ones(4)), 0),
    "vmap_of_jit_matmul": _vmapped(lambda jax: lambda u: jax.jit(lambda s: s @ jax.numpy.ones((4, 3)))(u), 0),
    "vmap_result": _in_mesh(lambda jax, m, a, *_: _outcome(
        lambda: str(jax.vmap(jax.jit(lambda u: u * 2))(a).sharding))),
    "grad_of_vmap_of_jit": _traced(
        lambda jax: jax.grad(lambda u: jax.vmap(jax.jit(lambda s: (s ** 2).sum()))(u).sum()), 0),
    "vmap_broadcast_results": _vmapped(lambda jax: lambda u: (u, jax.numpy.ones(4), np.ones(3, np.float32), 1.0), 0),
    "vmap_cond_constant_branch": _vmapped(
        lambda jax: lambda u: jax.lax.cond(True, lambda: u, lambda: jax.numpy.ones(4)), 0),
    "vmap_cond_batched_predicate": _loop_over_split(lambda jax: lambda q: jax.lax.cond(q > 1, lambda: q,
                                                                                         lambda: 0.0)),
    "vmap_scan_carry_batched": _vmapped(
        lambda jax: lambda u: jax.lax.scan(lambda c, x: (c + x, c * x), u[0], u), 0),
    "vmap_scan_carry_made_batched": _vmapped(
        lambda jax: lambda u: jax.lax.scan(lambda c, x: (c + x, c * x), jax.numpy.zeros(()), u), 0),
    "vmap_scan_carry_stays_unbatched": _loop_over_split(
        lambda jax: lambda q: jax.lax.scan(lambda c, _: (c + 1, c * q), 0.0, None, length=3)),
    "vmap_scan_two_carries": _loop_over_split(lambda jax: lambda q: jax.lax.scan(
        lambda c, _: ((c[0] + q, c[1]), None), (0.0, jax.numpy.zeros(2)), None, length=3)),
    "vmap_fori_loop": _loop_over_split(lambda jax: lambda q: jax.lax.fori_loop(0, 3, lambda i, c: c + q, 0.0)),
    "vmap_fori_loop_batched_init": _loop_over_split(
        lambda jax: lambda q: jax.lax.fori_loop(0, 3, lambda i, c: c + q, q)),
    "vmap_while_loop": _loop_over_split(lambda jax: lambda q: jax.lax.while_loop(lambda c: c < 10, lambda c: c + q,
                                                                                   0.0)),
    "vmap_while_batched_predicate": _loop_over_split(
        lambda jax: lambda q: jax.lax.while_loop(lambda c: c < q, lambda c: c + 1, 0.0)),
    "vmap_while_batched_init": _loop_over_split(
        lambda jax: lambda q: jax.lax.while_loop(lambda c: c < 10, lambda c: c + q, q)),
    "vmap_sort": _vmapped(lambda jax: jax.numpy.sort, 0),
    "vmap_cumsum": _vmapped(lambda jax: jax.numpy.cumsum, 0),
    "vmap_map": _loop_over_split(lambda jax: lambda q: jax.lax.map(lambda r: r * q, jax.numpy.ones(3))),
    # searchsorted (and what it serves) of a split operand: JAX's vmap of its loop refuses the split queries
    "searchsorted_split_queries": _split_vector(lambda jax: lambda q: jax.numpy.searchsorted(jax.numpy.arange(8.0),
                                                                                              q)),
    "searchsorted_split_queries_sort": _split_vector(lambda jax: lambda q: jax.numpy.searchsorted(
        jax.numpy.arange(8.0), q, method="sort")),
    "searchsorted_split_sorted": _split_vector(lambda jax: lambda q: jax.numpy.searchsorted(q, jax.numpy.arange(8.0))),
    "searchsorted_split_sorted_sort": _split_vector(lambda jax: lambda q: jax.numpy.searchsorted(
        q, jax.numpy.arange(8.0), method="sort")),
    "searchsorted_split_queries_2d": _traced(lambda jax: lambda u: jax.numpy.searchsorted(jax.numpy.arange(8.0), u),
                                             0),
    "interp_split": _split_vector(lambda jax: lambda q: jax.numpy.interp(q, jax.numpy.arange(8.0),
                                                                         jax.numpy.arange(8.0))),
    "digitize_split": _split_vector(lambda jax: lambda q: jax.numpy.digitize(q, jax.numpy.arange(8.0))),
    # random bits laid out as asked
    "rng_bit_generator_out_sharding": _with_key(lambda jax: lambda k: jax.lax.rng_bit_generator(
        k, (8, 4), out_sharding=_p(jax, "x"))),
    "rng_bit_generator_bytes_out_sharding": _with_key(lambda jax: lambda k: jax.lax.rng_bit_generator(
        k, (8, 4), dtype=np.uint8, out_sharding=_p(jax, None, "y"))),
    "rng_bit_generator_uneven": _with_key(lambda jax: lambda k: jax.lax.rng_bit_generator(
        k, (6, 4), out_sharding=_p(jax, "y"))),
    "rng_bit_generator_duplicate_axes": _with_key(lambda jax: lambda k: jax.lax.rng_bit_generator(
        k, (8, 4), out_sharding=_p(jax, "x", "y", "x"))),
    "rng_bit_generator_outside_mesh": lambda jax: _outcome(lambda: str(jax.lax.rng_bit_generator(
        np.zeros((4,), np.uint32), (8, 4), out_sharding=_p(jax, "x")))),
    "rng_bit_generator_named_outside_mesh": lambda jax: _jaxpr(jax, lambda k: jax.lax.rng_bit_generator(
        k, (8, 4), out_sharding=_named(jax, _mesh(jax), "x")), np.zeros((4,), np.uint32)),
    "rng_uniform": _in_mesh(lambda jax, *_: _jaxpr(jax, lambda: jax.lax.rng_uniform(0.0, 1.0, (8, 4)))),
    # keys laid out over a mesh axis
    "keys_split": _split_keys(lambda jax: jax.vmap(jax.random.split)),
    "keys_data": _split_keys(lambda jax: jax.random.key_data),
    "keys_bits": _split_keys(lambda jax: jax.vmap(lambda k: jax.random.bits(k, (4,)))),
    "keys_uniform": _split_keys(lambda jax: jax.vmap(lambda k: jax.random.uniform(k, (2,)))),
    "keys_wrapped": _split_keys(lambda jax: lambda k: jax.random.wrap_key_data(jax.random.key_data(k))),
    # the other primitives over split operands
    **{f"survey_{name}": _survey(f) for name, f in {
        "cumsum_reverse": lambda jax: lambda a, c, i: jax.lax.cumsum(a, 1, reverse=True),
        "cumsum_reverse_split_axis": lambda jax: lambda a, c, i: jax.lax.cumsum(a, 0, reverse=True),
        "cummax_reverse_split_axis": lambda jax: lambda a, c, i: jax.lax.cummax(c, 0, reverse=True),
        "cumlogsumexp_split_axis": lambda jax: lambda a, c, i: jax.lax.cumlogsumexp(c, 0),
        "associative_scan_split_axis": lambda jax: lambda a, c, i: jax.lax.associative_scan(jax.numpy.add, c),
        "reduce_precision": lambda jax: lambda a, c, i: jax.lax.reduce_precision(c, 5, 10),
        "population_count": lambda jax: lambda a, c, i: jax.lax.population_count(i),
        "clz": lambda jax: lambda a, c, i: jax.lax.clz(i),
        "shift_left": lambda jax: lambda a, c, i: jax.lax.shift_left(i, np.int32(1)),
        "erf_inv": lambda jax: lambda a, c, i: jax.lax.erf_inv(c),
        "igamma": lambda jax: lambda a, c, i: jax.lax.igamma(c, a),
        "nextafter": lambda jax: lambda a, c, i: jax.lax.nextafter(c, a),
        "zeta": lambda jax: lambda a, c, i: jax.lax.zeta(c + 2, c + 1),
        "polygamma": lambda jax: lambda a, c, i: jax.lax.polygamma(c * 0 + 1, c + 1),
        "random_gamma_grad": lambda jax: lambda a, c, i: jax.lax.random_gamma_grad(c + 1, c + 1),
        "betainc": lambda jax: lambda a, c, i: jax.lax.betainc(c + 1, c + 1, c),
        "bessel_i1e": lambda jax: lambda a, c, i: jax.lax.bessel_i1e(c),
        "rev": lambda jax: lambda a, c, i: jax.lax.rev(c, (0,)),
        "iota_out_sharding": lambda jax: lambda a, c, i: jax.lax.broadcasted_iota(np.int32, (8, 4), 0,
                                                                                   out_sharding=_p(jax, "x")),
        "clamp_scalar_bounds": lambda jax: lambda a, c, i: jax.lax.clamp(0.1, c, 0.5),
        "top_k_split_axis": lambda jax: lambda a, c, i: jax.lax.top_k(c, 2),
        "argsort_split_axis": lambda jax: lambda a, c, i: jax.numpy.argsort(c, axis=0),
        "round": lambda jax: lambda a, c, i: jax.lax.round(c),
        "complex": lambda jax: lambda a, c, i: jax.lax.complex(c, c),
        "integer_pow": lambda jax: lambda a, c, i: jax.lax.integer_pow(c, 3),
        "optimization_barrier": lambda jax: lambda a, c, i: jax.lax.optimization_barrier((a, c)),
        "reduce_window_split_axis": lambda jax: lambda a, c, i: jax.lax.reduce_window(c, 0.0, jax.lax.add, (2, 1),
                                                                                      (2, 1), "VALID"),
        "approx_min_k": lambda jax: lambda a, c, i: jax.lax.approx_min_k(a, 2),
        "platform_dependent": lambda jax: lambda a, c, i: jax.lax.platform_dependent(c, cpu=lambda u: u * 2,
                                                                                     default=lambda u: u),
        "split_uneven": lambda jax: lambda a, c, i: jax.lax.split(c, (3, 5), axis=0),
    }.items()},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "more_sharding_rules_golden.json")
