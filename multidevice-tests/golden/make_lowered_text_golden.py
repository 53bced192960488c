"""Write lowered_text_golden.json: the whole text of ``jit(f).lower(...).as_text()`` and ``pmap(f).lower(...)``
on eight CPU devices, recorded from the module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_lowered_text_golden.py jax

The cases cover what the text says besides the operations: the ``sdy.mesh`` declarations (with their
``stablehlo.mesh`` attribute), each result's ``jax.result_info`` (its path in the output pytree), the shardings
of arguments and results (over a mesh, or over the empty mesh for one device), a nested ``jit``'s
shardings (inside the function called, named after the function as JAX names it: ``@"<lambda>"``), and the
layouts of keys' data placed nowhere (a single key's at the boundary, others' constrained inside ``main``) or laid
out over the mesh, and draws, splits and folds of keys under ``set_mesh`` of Explicit (or Explicit and Auto) axes:
every operation inside ``@threefry2x32`` and its loop constrained to its type, the hash's counters typed over no
mesh; and samplers drawn there with an ``out_sharding`` (the gamma family's rejection loops, whose jitted pieces
are written once; the Cholesky factor's NaN for a failed factorization; the gather of a permutation's rows that
fills out-of-bounds indices) or without one (a draw of no shape drawn replicated, as JAX's samplers draw it), and
LAPACK's factorizations there (their kernels' results unconstrained, the values their rules compute constrained,
the zero padding QR's reflectors over the mesh); and ``platform_dependent``'s cases (``jnp.diagonal``).
"""

from __future__ import annotations

import collections
import importlib
import json
import pathlib
import warnings

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent
GOLDEN_PATH = HERE / "lowered_text_golden.json"
X = np.arange(8.0, dtype=np.float32)
SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
Pair = collections.namedtuple("Pair", "first second")


def double(a):
    return a * 2


def _mesh(jax):
    return jax.make_mesh((4, 2), ("x", "y"))


def _named(jax, *spec):
    return jax.sharding.NamedSharding(_mesh(jax), jax.sharding.PartitionSpec(*spec))


def _printing(jax):
    def printing(a):
        jax.debug.print("{}", a)
        return a * 2
    return printing


CASES = {
    "one_result": lambda jax: jax.jit(double).lower(1.0),
    "no_results": lambda jax: jax.jit(lambda a: None).lower(X),
    "result_tree": lambda jax: jax.jit(lambda a: (a, {"u": a * 2, "v": [a, None, Pair(a, 1.0)]})).lower(X),
    "in_and_out_shardings": lambda jax: jax.jit(double, in_shardings=_named(jax, "x"),
                                                out_shardings=_named(jax, "y")).lower(X),
    "results_left_to_partitioner": lambda jax: jax.jit(lambda a: (a * 2, {"k": a + 1}),
                                                       in_shardings=_named(jax, "x")).lower(X),
    "callback_on_one_device_of_mesh": lambda jax: jax.jit(_printing(jax), in_shardings=_named(jax, "x")).lower(X),
    "pmap": lambda jax: jax.pmap(lambda a: (a * 2, {"k": a}), axis_name="i").lower(X.reshape(8, 1)),
    "nested_jit_shardings": lambda jax: jax.jit(lambda a: _nested(jax)(a) + 1).lower(X),
    "nested_jits_named": lambda jax: jax.jit(lambda a: _nested(jax)(jax.jit(lambda b: b * 3)(a))
                                             + jax.jit(lambda b: b - 1)(a)).lower(X),
    "one_device_in_and_out": lambda jax: jax.jit(double, in_shardings=_on(jax, 1),
                                                 out_shardings=_on(jax, 1)).lower(X),
    "one_device_out_of_two": lambda jax: jax.jit(lambda a: (a, a * 2), out_shardings=(_on(jax, 2), None)).lower(X),
    "committed_argument": lambda jax: jax.jit(lambda a, b: a * b).lower(jax.device_put(X, jax.devices()[3]), X),
    "one_device_shape_dtype_struct": lambda jax: jax.jit(double).lower(
        jax.ShapeDtypeStruct((8,), np.float32, sharding=_on(jax, 0))),
    "pinned_by_device": lambda jax: _jit_on_device(jax)(double).lower(X),
    "argmax_and_argmin": lambda jax: jax.jit(lambda a: (_jnp(jax).argmax(a, axis=0), _jnp(jax).argmax(a + 1, axis=0),
                                                        _jnp(jax).argmin(a > 2, axis=1))).lower(X.reshape(2, 4)),
    "argmax_over_explicit_axes": lambda jax: _explicit(jax, lambda a: _jnp(jax).argmax(a, axis=1)),
    "host_scalar_over_explicit_axes": lambda jax: _explicit(jax, lambda a: _jnp(jax).where(a > 3, jax.lax.sin(a), 0.0)),
    "conversions": lambda jax: jax.jit(lambda a, b, c: (jax.lax.convert_element_type(a, np.float32) * 2,
                                                         b.astype(bool), jax.numpy.real(c))).lower(
        1.0, X, X.astype(np.complex64)),
    "callable_objects": lambda jax: jax.jit(Tripler()).lower(jax.jit(Tripler())(X)),
    "nested_callable_object": lambda jax: jax.jit(lambda a: jax.jit(Tripler())(a)).lower(X),
    "keys_beside_a_laid_out_array": lambda jax: jax.jit(_draws(jax)).lower(
        jax.random.key(0), jax.random.split(jax.random.key(1), 4), jax.device_put(X, _named(jax, "x"))),
    "key_split_over_a_mesh": lambda jax: jax.jit(lambda k: jax.random.split(k, 8),
                                                 out_shardings=_named(jax, "x")).lower(jax.random.key(3)),
    "keys_laid_out_over_a_mesh": lambda jax: jax.jit(jax.vmap(lambda k: jax.random.fold_in(k, 3)),
                                                     in_shardings=_named(jax, "x"), out_shardings=_named(jax, "x"),
                                                     ).lower(jax.random.split(jax.random.key(0), 8)),
    "normal_under_explicit_mesh": lambda jax: _keys_under_mesh(jax, lambda k: jax.random.normal(k, (8,))),
    "bits_of_odd_size_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.bits(k, (3, 5), np.uint8)),
    "split_under_explicit_mesh": lambda jax: _keys_under_mesh(jax, lambda k: jax.random.split(k, (2, 3))),
    "fold_in_under_explicit_mesh": lambda jax: _keys_under_mesh(jax, lambda k: jax.random.fold_in(k, 3)),
    "key_made_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda seed: jax.random.uniform(jax.random.key(seed), (8,)), np.int32(3)),
    "draws_of_laid_out_keys_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, jax.vmap(lambda k: jax.random.normal(k, (3,))), laid_out=True),
    "folds_of_laid_out_keys_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, jax.vmap(lambda k: jax.random.fold_in(k, 3)), laid_out=True),
    "split_under_explicit_and_auto_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.split(k, 8), kinds=("Explicit", "Auto")),
    "folds_of_laid_out_keys_under_explicit_and_auto_mesh": lambda jax: _keys_under_mesh(
        jax, jax.vmap(lambda k: jax.random.fold_in(k, 3)), laid_out=True, kinds=("Explicit", "Auto")),
    "splits_of_a_key_grid_split_on_its_columns_under_explicit_and_auto_mesh": lambda jax: _key_grid_under_mixed_mesh(
        jax, jax.vmap(jax.vmap(jax.random.split)), (None, "x")),
    "folds_of_a_key_grid_split_on_its_rows_under_explicit_and_auto_mesh": lambda jax: _key_grid_under_mixed_mesh(
        jax, jax.vmap(jax.vmap(lambda k: jax.random.fold_in(k, 3))), ("x", None)),
    "splits_of_a_key_grid_over_an_auto_axis_under_explicit_and_auto_mesh": lambda jax: _key_grid_under_mixed_mesh(
        jax, jax.vmap(jax.vmap(jax.random.split)), (None, "y")),
    "multivariate_normal_drawn_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.multivariate_normal(k, np.zeros(2, np.float32), np.eye(2, dtype=np.float32), (8,))),
    "orthogonal_drawn_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.orthogonal(k, 2, (8,))),
    "linear_algebra_under_explicit_mesh": lambda jax: _whole_under_explicit_mesh(jax, lambda a, b: (
        jax.lax.linalg.cholesky(a), jax.lax.linalg.eigh(a), jax.lax.linalg.svd(b, full_matrices=False),
        jax.lax.linalg.qr(b, full_matrices=False), jax.lax.linalg.triangular_solve(a, b, left_side=True, lower=True),
        jax.lax.linalg.schur(a), jax.lax.linalg.hessenberg(a), jax.lax.linalg.tridiagonal(a)), SPD, SPD[:, :2]),
    "gamma_drawn_under_explicit_mesh": lambda jax: _keys_under_mesh(jax, lambda k: jax.random.gamma(k, 2.0, (8,))),
    "scalar_draws_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: (jax.random.normal(k), jax.random.randint(k, (), 0, 5), jax.random.t(k, 3.0))),
    "vmapped_scalar_draws_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, jax.vmap(lambda k: (jax.random.uniform(k), jax.random.gamma(k, 2.0))),
        jax.random.split(jax.random.key(0), 8)),
    "gamma_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.gamma(k, 2.0, (8,), out_sharding=jax.sharding.PartitionSpec("x"))),
    "loggamma_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.loggamma(k, 0.5, (8,), out_sharding=jax.sharding.PartitionSpec("y"))),
    "multivariate_normal_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.multivariate_normal(k, np.zeros(2, np.float32), np.eye(2, dtype=np.float32), (8,),
                                                      out_sharding=jax.sharding.PartitionSpec("x"))),
    "permutation_of_rows_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.permutation(k, X.reshape(4, 2), out_sharding=jax.sharding.PartitionSpec("x"))),
    # the log-space gamma draws drawn without out_sharding: the exponential of the boost is a uniform draw of its
    # own (its bounds typed over no mesh, the loop's over the Auto mesh of its replicated draw), the Dirichlet
    # softmax's stop_gradient is not constrained again
    "loggamma_drawn_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.loggamma(k, 0.5, (8,))),
    "dirichlet_drawn_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: jax.random.dirichlet(k, np.ones(3, np.float32), (8,))),
    "beta_chisquare_and_f_drawn_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: (jax.random.beta(k, 2.0, 3.0, (8,)), jax.random.chisquare(k, 3.0, (8,)),
                        jax.random.f(k, 2.0, 3.0, (8,)))),
    # draws of no shape: loggamma typed as its alpha (over no mesh), orthogonal's diagonal through
    # platform_dependent's cases, ball's exponential replicated, choice reshaped last (the fill of its gather
    # constrained), the rejection loops' clamps and uniforms of poisson and binomial
    "scalar_log_gamma_orthogonal_and_choice_draws_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: (jax.random.loggamma(k, 0.5), jax.random.orthogonal(k, 2), jax.random.choice(k, 5),
                        jax.random.choice(k, X[:5]), jax.random.choice(k, 4, (2,), replace=False))),
    "scalar_ball_draw_under_explicit_mesh": lambda jax: _keys_under_mesh(jax, lambda k: jax.random.ball(k, 2)),
    "scalar_poisson_and_binomial_draws_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, lambda k: (jax.random.poisson(k, 3.0), jax.random.binomial(k, 5, 0.3))),
    "vmapped_scalar_log_gamma_draws_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, jax.vmap(lambda k: (jax.random.exponential(k), jax.random.loggamma(k, 0.5))),
        jax.random.split(jax.random.key(0), 8)),
    # keys laid out along "x", vmapped: the reshards into the draws' auto_axes write nothing, as JAX's
    "scalar_draws_of_laid_out_keys_under_explicit_mesh": lambda jax: _keys_under_mesh(
        jax, jax.vmap(lambda k: (jax.random.normal(k, (3,)), jax.random.uniform(k), jax.random.gamma(k, 2.0),
                                 jax.random.bits(k), jax.random.choice(k, 5))),
        laid_out=True),
    "qr_with_full_matrices_under_explicit_mesh": lambda jax: _whole_under_explicit_mesh(
        jax, lambda b: jax.lax.linalg.qr(b, full_matrices=True), SPD[:, :2]),
    "diagonal": lambda jax: jax.jit(_jnp(jax).diagonal).lower(SPD),
    "diagonal_and_full_like_of_a_scalar_under_explicit_mesh": lambda jax: _whole_under_explicit_mesh(
        jax, lambda a: (_jnp(jax).diagonal(a), jax.lax.full_like(a[0, 0], 2.0)), SPD),
}


def _keys_under_mesh(jax, f, argument=None, laid_out=False, kinds=("Explicit", "Explicit")):
    """``f`` lowered under ``set_mesh`` of a 2x4 mesh of axes of ``kinds`` for ``argument``: by default a key placed
    nowhere, or (``laid_out``) eight keys laid out along "x"."""
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=tuple(getattr(jax.sharding.AxisType, k) for k in kinds))
    if argument is None:
        argument = jax.random.key(0)
    if laid_out:
        argument = jax.device_put(jax.random.split(argument, 8),
                                  jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x")))
    with jax.set_mesh(mesh):
        return jax.jit(f).lower(argument)


def _key_grid_under_mixed_mesh(jax, f, spec):
    """``f`` lowered under ``set_mesh`` of a 2x4 mesh of an Explicit "x" and an Auto "y" for 2x4 keys laid out as
    ``P(*spec)``: a key result typed over "x" is left to the partitioner, one typed over no Explicit axis is
    constrained inside ``main`` to keep each key's data whole."""
    kinds = (jax.sharding.AxisType.Explicit, jax.sharding.AxisType.Auto)
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=kinds)
    keys = jax.device_put(jax.random.split(jax.random.key(0), (2, 4)),
                          jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec)))
    with jax.set_mesh(mesh):
        return jax.jit(f).lower(keys)


def _whole_under_explicit_mesh(jax, f, *arrays):
    """``f`` lowered under ``set_mesh`` of a 2x4 mesh of Explicit axes for ``arrays`` placed whole on it."""
    explicit = jax.sharding.AxisType.Explicit
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(explicit, explicit))
    whole = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec())
    with jax.set_mesh(mesh):
        return jax.jit(f).lower(*(jax.device_put(a, whole) for a in arrays))


def _draws(jax):
    """Keys placed nowhere (one, several) beside an array laid out over a mesh: new keys, bits, the keys back."""
    random = jax.random
    return lambda k, ks, a: (random.split(k, 2), random.bits(ks[0]), random.fold_in(k, 1), ks, a * 2)


def _jnp(jax):
    return importlib.import_module(jax.__name__ + ".numpy")


def _explicit(jax, f):
    """``f`` lowered for a 8x4 array split along its rows over a mesh of Explicit axes set by ``set_mesh``."""
    explicit = jax.sharding.AxisType.Explicit
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(explicit, explicit))
    a = jax.device_put(np.arange(32, dtype=np.float32).reshape(8, 4),
                       jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x", None)))
    with jax.set_mesh(mesh):
        return jax.jit(f).lower(a)


class Tripler:
    """A callable without a ``__name__``: jit names it ``<unnamed function>``."""

    def __call__(self, a):
        return a * 3


def _nested(jax):
    return jax.jit(double, in_shardings=_named(jax, "x"), out_shardings=_named(jax, "y"))


def _on(jax, index):
    return jax.sharding.SingleDeviceSharding(jax.devices()[index])


def _jit_on_device(jax):
    def jit(f):
        with warnings.catch_warnings():  # device= is deprecated, and still lowers as it did
            warnings.simplefilter("ignore", DeprecationWarning)
            return jax.jit(f, device=jax.devices()[0])
    return jit


def record(jax) -> dict:
    """Every case's lowered text with ``jax`` as JAX."""
    return {name: case(jax).as_text() for name, case in CASES.items()}


def load() -> dict:
    return json.loads(GOLDEN_PATH.read_text())


if __name__ == "__main__":
    golden_main.main(record, GOLDEN_PATH)
