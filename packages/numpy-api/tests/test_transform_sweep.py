"""A sweep of jnp functions through the transforms: jit(f) equals f run eagerly, vmap(f) over a batch equals f per
example stacked, and the differentiable ones pass check_grads (order 1, forward and reverse, x64 on so finite
differences are accurate). Each entry is small: tiny shapes, one builder of example arguments per function."""

from __future__ import annotations

import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
import jaxle_tree
from jaxle_core.test_util import check_grads


def _floats(shape, seed, low=-1.5, high=1.5):
    """Floats away from zero (no kink of abs/sign/floor at the sample points) in [low, high]."""
    values = np.random.default_rng(seed).uniform(low, high, shape)
    return np.where(np.abs(values) < 0.1, values + 0.3, values).astype(np.float32)


def _pos(shape, seed):
    return _floats(shape, seed, 0.3, 1.5)


def _unit(shape, seed):
    return _floats(shape, seed, -0.8, 0.8)


def _ints(shape, seed, low=-4, high=6):
    return np.random.default_rng(seed).integers(low, high, shape).astype(np.int32)


def _bools(shape, seed):
    return np.random.default_rng(seed).random(shape) < 0.5


def _complex(shape, seed):
    return (_floats(shape, seed) + 1j * _floats(shape, seed + 7)).astype(np.complex64)


def _distinct(shape, seed):
    """Floats with no ties (sorting, min/max, median: no kink from equal entries)."""
    count = int(np.prod(shape))
    return (np.random.default_rng(seed).permutation(count) * 0.37 - 1.1).astype(np.float32).reshape(shape)


# name -> (function, builder(seed) -> args, differentiable)
SWEEP: dict = {}


def _add(name, fn, builder, grad=True):
    SWEEP[name] = (fn, builder, grad)


for _name in ["sin", "cos", "tan", "arctan", "sinh", "cosh", "tanh", "arcsinh", "exp", "exp2", "expm1", "cbrt",
              "square", "negative", "positive", "abs", "fabs", "sinc", "deg2rad", "rad2deg", "i0", "conj", "real"]:
    _add(_name, getattr(jnp, _name), lambda s: [_floats((3,), s)])
for _name in ["log", "log2", "log10", "log1p", "sqrt", "reciprocal"]:
    _add(_name, getattr(jnp, _name), lambda s: [_pos((3,), s)])
for _name in ["arcsin", "arccos", "arctanh"]:
    _add(_name, getattr(jnp, _name), lambda s: [_unit((3,), s)])
_add("arccosh", jnp.arccosh, lambda s: [_pos((3,), s) + 1.2])
for _name in ["sign", "floor", "ceil", "round", "trunc", "rint", "signbit", "isnan", "isfinite", "spacing"]:
    _add(_name, getattr(jnp, _name), lambda s: [_floats((3,), s) * 3], grad=False)
_add("frexp", jnp.frexp, lambda s: [_floats((3,), s) * 5], grad=False)
_add("modf", jnp.modf, lambda s: [_floats((3,), s) * 3])
_add("nan_to_num", jnp.nan_to_num, lambda s: [_floats((3,), s)])
_add("angle", jnp.angle, lambda s: [_complex((3,), s)], grad=False)
_add("abs_complex", jnp.abs, lambda s: [_complex((3,), s)], grad=False)
_add("exp_complex", jnp.exp, lambda s: [_complex((3,), s)], grad=False)
_add("imag", jnp.imag, lambda s: [_complex((3,), s)], grad=False)
for _name in ["add", "subtract", "multiply", "divide", "true_divide", "arctan2", "hypot", "logaddexp", "logaddexp2",
              "maximum", "minimum", "fmax", "fmin", "copysign"]:
    _add(_name, getattr(jnp, _name), lambda s: [_floats((3,), s), _distinct((3,), s + 1)])
_add("power", jnp.power, lambda s: [_pos((3,), s), _floats((3,), s + 1)])
_add("float_power", jnp.float_power, lambda s: [_pos((3,), s), _floats((3,), s + 1)])
_add("power_int", lambda x: jnp.power(x, 3), lambda s: [_floats((3,), s)])
_add("floor_divide", jnp.floor_divide, lambda s: [_floats((3,), s) * 4, _pos((3,), s + 1)], grad=False)
_add("remainder", jnp.remainder, lambda s: [_floats((3,), s) * 4, _pos((3,), s + 1)], grad=False)
_add("fmod", jnp.fmod, lambda s: [_floats((3,), s) * 4, _pos((3,), s + 1)], grad=False)
_add("divmod", jnp.divmod, lambda s: [_ints((3,), s), _ints((3,), s + 1, 1, 5)], grad=False)
_add("heaviside", jnp.heaviside, lambda s: [_floats((3,), s), _floats((3,), s + 1)], grad=False)
_add("ldexp", jnp.ldexp, lambda s: [_floats((3,), s), _ints((3,), s + 1)], grad=False)
_add("nextafter", jnp.nextafter, lambda s: [_floats((3,), s), _floats((3,), s + 1)], grad=False)
for _name in ["gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"]:
    _add(_name, getattr(jnp, _name), lambda s: [_ints((3,), s, 0, 6), _ints((3,), s + 1, 0, 4)], grad=False)
for _name in ["logical_and", "logical_or", "logical_xor", "equal", "not_equal", "less", "greater_equal"]:
    _add(_name, getattr(jnp, _name), lambda s: [_bools((3,), s), _bools((3,), s + 1)], grad=False)
_add("invert", jnp.invert, lambda s: [_ints((3,), s)], grad=False)
_add("isclose", jnp.isclose, lambda s: [_floats((3,), s), _floats((3,), s)], grad=False)
_add("clip", lambda x: jnp.clip(x, -0.5, 0.7), lambda s: [_floats((4,), s)])
_add("clip_traced", jnp.clip, lambda s: [_floats((4,), s), _floats((4,), s + 1) - 2, _floats((4,), s + 2) + 2])
_add("where", jnp.where, lambda s: [_bools((3,), s), _floats((3,), s + 1), _floats((3,), s + 2)], grad=False)
_add("where_grad", lambda x, y: jnp.where(x > 0, x, y), lambda s: [_floats((3,), s), _floats((3,), s + 1)])

# reductions and cumulative functions
for _name in ["sum", "prod", "mean", "var", "std", "max", "min", "ptp", "median", "nansum", "nanprod", "nanmean",
              "nanvar", "nanstd", "nanmax", "nanmin", "nanmedian", "cumsum", "cumprod", "nancumsum", "nancumprod",
              "average", "amax"]:
    _add(_name, getattr(jnp, _name), lambda s: [_distinct((2, 3), s)])
    _add(f"{_name}_axis", lambda x, n=_name: getattr(jnp, n)(x, axis=1), lambda s: [_distinct((2, 3), s)])
for _name in ["cumulative_sum", "cumulative_prod"]:
    _add(_name, lambda x, n=_name: getattr(jnp, n)(x, axis=1, include_initial=True), lambda s: [_floats((2, 3), s)])
for _name in ["argmax", "argmin", "nanargmax", "nanargmin", "count_nonzero", "all", "any"]:
    _add(_name, lambda x, n=_name: getattr(jnp, n)(x, axis=0), lambda s: [_distinct((2, 3), s)], grad=False)
_add("sum_keepdims", lambda x: jnp.sum(x, axis=0, keepdims=True), lambda s: [_floats((2, 3), s)])
_add("mean_where", lambda x, w: jnp.mean(x, axis=1, where=w), lambda s: [_floats((2, 3), s), _bools((2, 3), s) | True])
_add("percentile", lambda x: jnp.percentile(x, 30.0), lambda s: [_distinct((5,), s)])
_add("quantile", lambda x: jnp.quantile(x, jnp.array([0.2, 0.7]), axis=0), lambda s: [_distinct((4, 2), s)])
_add("nanquantile", lambda x: jnp.nanquantile(x, 0.4), lambda s: [_distinct((5,), s)])
_add("average_weights", lambda x, w: jnp.average(x, weights=w), lambda s: [_floats((3,), s), _pos((3,), s + 1)])

# products, polynomials and signals
_add("dot", jnp.dot, lambda s: [_floats((2, 3), s), _floats((3,), s + 1)])
_add("vdot", jnp.vdot, lambda s: [_floats((3,), s), _floats((3,), s + 1)])
_add("vecdot", jnp.vecdot, lambda s: [_floats((2, 3), s), _floats((2, 3), s + 1)])
_add("inner", jnp.inner, lambda s: [_floats((2, 3), s), _floats((3,), s + 1)])
_add("outer", jnp.outer, lambda s: [_floats((2,), s), _floats((3,), s + 1)])
_add("matmul", jnp.matmul, lambda s: [_floats((2, 3), s), _floats((3, 2), s + 1)])
_add("matvec", jnp.matvec, lambda s: [_floats((2, 3), s), _floats((3,), s + 1)])
_add("tensordot", lambda a, b: jnp.tensordot(a, b, axes=1), lambda s: [_floats((2, 3), s), _floats((3, 2), s + 1)])
_add("kron", jnp.kron, lambda s: [_floats((2,), s), _floats((2,), s + 1)])
_add("trace", jnp.trace, lambda s: [_floats((3, 3), s)])
_add("cross", jnp.cross, lambda s: [_floats((3,), s), _floats((3,), s + 1)])
_add("einsum", lambda a, b: jnp.einsum("ij,jk->ik", a, b), lambda s: [_floats((2, 3), s), _floats((3, 2), s + 1)])
_add("polyval", jnp.polyval, lambda s: [_floats((3,), s), _floats((2,), s + 1)])
_add("polymul", jnp.polymul, lambda s: [_floats((3,), s), _floats((2,), s + 1)])
_add("polyder", jnp.polyder, lambda s: [_floats((4,), s)])
_add("convolve", jnp.convolve, lambda s: [_floats((4,), s), _floats((2,), s + 1)])
_add("correlate", lambda a, b: jnp.correlate(a, b, mode="full"), lambda s: [_floats((4,), s), _floats((2,), s + 1)])

# manipulation
_add("reshape", lambda x: jnp.reshape(x, (3, 2)), lambda s: [_floats((2, 3), s)])
_add("ravel", jnp.ravel, lambda s: [_floats((2, 3), s)])
_add("transpose", jnp.transpose, lambda s: [_floats((2, 3), s)])
_add("moveaxis", lambda x: jnp.moveaxis(x, 0, -1), lambda s: [_floats((2, 3, 2), s)])
_add("swapaxes", lambda x: jnp.swapaxes(x, 0, 2), lambda s: [_floats((2, 3, 2), s)])
_add("expand_dims", lambda x: jnp.expand_dims(x, 1), lambda s: [_floats((2, 3), s)])
_add("squeeze", jnp.squeeze, lambda s: [_floats((1, 3), s)])
_add("broadcast_to", lambda x: jnp.broadcast_to(x, (2, 3)), lambda s: [_floats((3,), s)])
_add("concatenate", lambda a, b: jnp.concatenate([a, b], axis=0), lambda s: [_floats((2,), s), _floats((3,), s + 1)])
_add("stack", lambda a, b: jnp.stack([a, b], axis=1), lambda s: [_floats((3,), s), _floats((3,), s + 1)])
_add("vstack", lambda a, b: jnp.vstack([a, b]), lambda s: [_floats((3,), s), _floats((3,), s + 1)])
_add("split", lambda x: jnp.split(x, [1, 3]), lambda s: [_floats((4,), s)])
_add("array_split", lambda x: jnp.array_split(x, 3), lambda s: [_floats((4,), s)])
_add("tile", lambda x: jnp.tile(x, (2, 1)), lambda s: [_floats((3,), s)])
_add("repeat", lambda x: jnp.repeat(x, 2, axis=0), lambda s: [_floats((2, 2), s)])
for _mode in ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum", "mean"]:
    _add(f"pad_{_mode}", lambda x, m=_mode: jnp.pad(x, (1, 2), mode=m), lambda s: [_distinct((3,), s)])
_add("flip", jnp.flip, lambda s: [_floats((2, 3), s)])
_add("roll", lambda x: jnp.roll(x, 1, axis=1), lambda s: [_floats((2, 3), s)])
_add("rot90", jnp.rot90, lambda s: [_floats((2, 3), s)])
_add("diagonal", jnp.diagonal, lambda s: [_floats((3, 3), s)])
_add("tril", jnp.tril, lambda s: [_floats((3, 3), s)])
_add("triu", lambda x: jnp.triu(x, 1), lambda s: [_floats((3, 3), s)])
_add("insert", lambda x, v: jnp.insert(x, 1, v), lambda s: [_floats((3,), s), _floats((), s + 1)])
_add("delete", lambda x: jnp.delete(x, 1), lambda s: [_floats((3,), s)])
_add("append", jnp.append, lambda s: [_floats((3,), s), _floats((2,), s + 1)])
_add("resize", lambda x: jnp.resize(x, (5,)), lambda s: [_floats((3,), s)])
_add("atleast_2d", jnp.atleast_2d, lambda s: [_floats((3,), s)])

# indexing
_add("getitem_slice", lambda x: jnp.asarray(x)[1:, ::-1], lambda s: [_floats((3, 3), s)])
_add("getitem_int_array", lambda x, i: jnp.asarray(x)[i], lambda s: [_floats((4,), s), _ints((3,), s, 0, 4)])
_add("getitem_traced_int", lambda x, i: jnp.asarray(x)[i], lambda s: [_floats((4,), s), np.int32(s % 4)])
_add("getitem_bool_mask", lambda x: jnp.asarray(x)[np.array([True, False, True])], lambda s: [_floats((3,), s)])
_add("at_set", lambda x, v: jnp.asarray(x).at[1].set(v), lambda s: [_floats((3,), s), _floats((), s + 1)])
_add("at_add", lambda x, v: jnp.asarray(x).at[np.array([0, 0, 2])].add(v),
     lambda s: [_floats((3,), s), _floats((3,), s + 1)])
_add("at_multiply", lambda x, v: jnp.asarray(x).at[1:].multiply(v),
     lambda s: [_floats((3,), s), _floats((2,), s + 1)])
_add("at_max", lambda x, v: jnp.asarray(x).at[np.array([0, 2])].max(v),
     lambda s: [_distinct((3,), s), _distinct((2,), s + 1)])
_add("at_get", lambda x, i: jnp.asarray(x).at[i].get(mode="fill", fill_value=0),
     lambda s: [_floats((3,), s), _ints((2,), s, 0, 5)])
_add("take", lambda x, i: jnp.take(x, i, axis=1), lambda s: [_floats((2, 3), s), _ints((2,), s, 0, 3)])
_add("take_along_axis", lambda x, i: jnp.take_along_axis(x, i, axis=1),
     lambda s: [_floats((2, 3), s), _ints((2, 2), s, 0, 3)])
_add("choose", lambda i, a, b: jnp.choose(i, [a, b], mode="wrap"),
     lambda s: [_ints((3,), s, 0, 2), _floats((3,), s), _floats((3,), s + 1)], grad=False)
_add("select", lambda c, a, b: jnp.select([c, ~c], [a, b]),
     lambda s: [_bools((3,), s), _floats((3,), s), _floats((3,), s + 1)], grad=False)
_add("nonzero_size", lambda x: jnp.nonzero(x, size=3), lambda s: [_ints((4,), s, 0, 2)], grad=False)
_add("argwhere_size", lambda x: jnp.argwhere(x, size=2), lambda s: [_ints((2, 2), s, 0, 2)], grad=False)
_add("compress", lambda x: jnp.compress(np.array([True, False, True]), x, size=2), lambda s: [_floats((3,), s)])
_add("unravel_index", lambda i: jnp.unravel_index(i, (2, 3)), lambda s: [_ints((2,), s, 0, 6)], grad=False)

# sorting, sets, statistics
_add("sort", jnp.sort, lambda s: [_distinct((2, 3), s)])
_add("argsort", jnp.argsort, lambda s: [_distinct((2, 3), s)], grad=False)
_add("partition", lambda x: jnp.partition(x, 1), lambda s: [_distinct((4,), s)])
_add("argpartition", lambda x: jnp.argpartition(x, 1), lambda s: [_distinct((4,), s)], grad=False)
_add("searchsorted", lambda a, v: jnp.searchsorted(jnp.sort(a), v),
     lambda s: [_distinct((4,), s), _floats((3,), s + 1)], grad=False)
_add("lexsort", lambda a, b: jnp.lexsort((a, b)), lambda s: [_ints((4,), s, 0, 2), _distinct((4,), s)], grad=False)
_add("unique_size", lambda x: jnp.unique(x, size=4, fill_value=0), lambda s: [_ints((5,), s, 0, 3)], grad=False)
_add("isin", jnp.isin, lambda s: [_ints((4,), s, 0, 4), _ints((2,), s + 1, 0, 4)], grad=False)
_add("diff", jnp.diff, lambda s: [_floats((4,), s)])
_add("ediff1d", jnp.ediff1d, lambda s: [_floats((4,), s)])
_add("gradient", jnp.gradient, lambda s: [_floats((4,), s)])
_add("gradient_2d", jnp.gradient, lambda s: [_floats((3, 3), s)])
_add("cov", jnp.cov, lambda s: [_floats((2, 4), s)])
_add("corrcoef", jnp.corrcoef, lambda s: [_floats((2, 4), s)])
_add("interp", lambda x, fp: jnp.interp(x, np.array([-1.0, 0.0, 1.0], np.float32), fp),
     lambda s: [_unit((3,), s), _floats((3,), s + 1)])
_add("trapezoid", jnp.trapezoid, lambda s: [_floats((4,), s)])
_add("unwrap", jnp.unwrap, lambda s: [_floats((4,), s) * 3])
_add("histogram", lambda x: jnp.histogram(x, bins=3, range=(-2.0, 2.0)), lambda s: [_floats((5,), s)], grad=False)
_add("bincount", lambda x: jnp.bincount(x, length=4), lambda s: [_ints((5,), s, 0, 4)], grad=False)
_add("digitize", lambda x: jnp.digitize(x, np.array([-0.5, 0.0, 0.5], np.float32)), lambda s: [_floats((4,), s)],
     grad=False)
_add("vectorize", lambda x, y: jnp.vectorize(lambda a, b: jnp.sum(a * b), signature="(n),(n)->()")(x, y),
     lambda s: [_floats((2, 3), s), _floats((3,), s + 1)])
_add("apply_along_axis", lambda x: jnp.apply_along_axis(jnp.cumsum, 1, x), lambda s: [_floats((2, 3), s)])
_add("full_like", lambda x: jnp.full_like(x, 2.0) * x, lambda s: [_floats((3,), s)])
_add("zeros_like", lambda x: jnp.zeros_like(x) + x, lambda s: [_floats((3,), s)])
_add("linspace", lambda a, b: jnp.linspace(a, b, 4), lambda s: [_floats((), s), _floats((), s + 1)])

NAMES = sorted(SWEEP)
GRAD_NAMES = sorted(name for name, (_, _, grad) in SWEEP.items() if grad)


def _leaves(tree) -> list:
    return [np.asarray(leaf) for leaf in jaxle_tree.tree_leaves(tree)]


def _assert_trees_close(actual, expected, what: str) -> None:
    actual_leaves, expected_leaves = _leaves(actual), _leaves(expected)
    assert len(actual_leaves) == len(expected_leaves), what
    for got, want in zip(actual_leaves, expected_leaves):
        assert got.dtype == want.dtype and got.shape == want.shape, (what, got.dtype, want.dtype, got.shape, want.shape)
        np.testing.assert_allclose(got.astype(np.complex128 if got.dtype.kind == "c" else np.float64),
                                   want.astype(np.complex128 if want.dtype.kind == "c" else np.float64),
                                   rtol=2e-6, atol=2e-6, err_msg=what)


@pytest.mark.parametrize("name", NAMES)
def test_jit_and_vmap_match_eager(name):
    fn, builder, _ = SWEEP[name]
    args = builder(0)
    eager = fn(*args)
    _assert_trees_close(jaxle_core.jit(fn)(*args), eager, f"jit({name})")
    examples = [builder(seed) for seed in (0, 1)]
    per_example = [fn(*example) for example in examples]
    expected = jaxle_tree.tree_map(lambda *leaves: np.stack([np.asarray(leaf) for leaf in leaves]), *per_example)
    batched_args = [np.stack(column) for column in zip(*examples)]
    _assert_trees_close(jaxle_core.vmap(fn)(*batched_args), expected, f"vmap({name})")


def _float64(value):
    value = np.asarray(value)
    return value.astype(np.float64) if value.dtype == np.float32 else value


@pytest.mark.parametrize("name", GRAD_NAMES)
def test_gradients_match_finite_differences(name):
    fn, builder, _ = SWEEP[name]
    with jaxle_core.config.enable_x64(True):
        args = [_float64(arg) for arg in builder(0)]
        float_positions = [i for i, arg in enumerate(args) if arg.dtype == np.float64]

        def of_floats(*floats):
            full = list(args)
            for position, value in zip(float_positions, floats):
                full[position] = value
            return fn(*full)

        check_grads(of_floats, [args[i] for i in float_positions], order=1, modes=("fwd", "rev"),
                    atol=1e-5, rtol=1e-5)
