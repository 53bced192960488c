"""Collectives over named axes (``psum``, ``all_gather``, ``ppermute``, ...), as bound by ``vmap(axis_name=...)``.

A collective names axes of the enclosing mapped computation. Each batching trace
rewrites the part of a collective over its own axis into ordinary array operations
over its batch dimension (see ``batching/parallel.py``). Reductions may
therefore carry positional axes (ints) in ``axes``: those reduce dimensions of the
operand. Evaluating a collective whose named axis no transformation bound raises
``NameError``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, dtypes, vma
from jaxle_core.avals import ShapedArray, get_aval, is_array_like
from jaxle_core.core import Primitive, Tracer
from jaxle_core.lax.elementwise import add, div, mul
from jaxle_core.lax.reductions import reduce_sum
from jaxle_core.lax.structural import convert_element_type, expand_dims, squeeze
from jaxle_core.lax.tokens import abstract_token
from jaxle_core.staging import StagingTrace

__all__ = ["all_gather", "all_gather_invariant_p", "all_gather_p", "all_gather_reduced_p", "all_to_all",
           "all_to_all_p", "axis_index", "axis_index_p", "axis_size", "pbroadcast", "pbroadcast_p", "pcast", "pmax",
           "pmax_p", "pmean", "pmin", "pmin_p", "ppermute", "ppermute_p", "precv", "preduced_p", "psend", "pshuffle",
           "psum", "psum_invariant_p", "psum_p", "psum_scatter", "pswapaxes", "pvary_p", "ragged_all_to_all",
           "ragged_all_to_all_p", "reduced_vary_cast_p", "unreduced_psum_p", "unreduced_reduce_scatter_p",
           "vary_unreduced_cast_p"]


# ---------------------------------------------------------------- axis names


def axis_names(axis_name: Any) -> tuple[Any, ...]:
    """``axis_name`` as a tuple of names (a single name becomes a 1-tuple)."""
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def unbound_axis_error(name: Any, function: str) -> NameError:
    return NameError(f"Found an unbound axis name: {name}. To fix this, please call {function} under `jax.shard_map`.")


def bound_axis_size(name: Any, function: str | None = None) -> int:
    """The size bound to ``name`` by the enclosing ``vmap``/``make_jaxpr(axis_env=...)``."""
    try:
        return core.axis_size(name)
    except NameError:
        if function is None:
            raise NameError(f"unbound axis name: {name}") from None
        raise unbound_axis_error(name, function) from None


def axis_size(axis_name: Any) -> int:
    """The size of the named axis (the product of the sizes for a tuple of names), a Python int."""
    return math.prod(bound_axis_size(n) for n in axis_names(axis_name))


def _no_evaluation_rule(name: str) -> NotImplementedError:
    # JAX has no eager rule for these collectives: evaluated with no transformation, they fail before any check.
    return NotImplementedError(f"Evaluation rule for '{name}' not implemented")


def _no_impl(name: str):
    def impl(*args, **params):
        raise _no_evaluation_rule(name)

    return impl


def _under_staging() -> bool:
    """Whether a jaxpr is being staged (``jit``, ``make_jaxpr``) around the current trace."""
    return core.within_trace_of(StagingTrace)


def _group_size(names: Sequence[Any], groups: Any, function: str | None = None) -> int:
    if groups is not None:
        return len(groups[0])
    return math.prod(bound_axis_size(n, function) for n in names)


def _canonical_groups(groups: Any) -> tuple[tuple[int, ...], ...] | None:
    if groups is None:
        return None
    groups = tuple(tuple(int(i) for i in g) for g in groups)
    if len({len(g) for g in groups}) != 1:
        raise ValueError("axis_index_groups must all be the same size")
    return groups


def _reduction_groups(names: tuple[Any, ...], groups: Any) -> tuple[tuple[int, ...], ...] | None:
    """A reduction's groups: members of named axes only, as JAX refuses positional axes with them."""
    if groups is not None and split_axes(names)[1]:
        raise ValueError("axis_index_groups only supported for sums over just named axes")
    return _canonical_groups(groups)


def _normalize_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


# ---------------------------------------------------------------- psum, pmax, pmin


def split_axes(axes: Sequence[Any]) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """``axes`` split into (named axes, positional axes)."""
    named = tuple(a for a in axes if not isinstance(a, (int, np.integer)))
    positional = tuple(int(a) for a in axes if isinstance(a, (int, np.integer)))
    return named, positional


def _reduction_collective(name: str, reduce, function: str) -> Primitive:
    primitive = Primitive(name)

    def abstract_eval(x: ShapedArray, *, axes, axis_index_groups):
        named, positional = split_axes(axes)
        for n in named:
            bound_axis_size(n, function)
        shape = tuple(s for i, s in enumerate(x.shape) if i not in positional)
        return x.update(shape=shape, weak_type=False)

    def impl(x: np.ndarray, *, axes, axis_index_groups):
        named, positional = split_axes(axes)
        if named:
            raise unbound_axis_error(named[0], function)
        return reduce(x, positional) if positional else x

    primitive.def_abstract_eval(abstract_eval)
    primitive.def_impl(impl)
    return primitive


psum_p = _reduction_collective("psum", lambda x, axes: np.sum(x, axis=axes, dtype=x.dtype), "psum")
pmax_p = _reduction_collective("pmax", lambda x, axes: np.max(x, axis=axes), "psum")
pmin_p = _reduction_collective("pmin", lambda x, axes: np.min(x, axis=axes), "psum")

# Inside a shard_map checking types, a sum over manual axes is ``psum_invariant`` (its result no longer varies
# over them) and ``pvary`` casts a value to vary over more axes (the identity on every device). Each is the
# other's transpose.
psum_invariant_p = Primitive("psum_invariant")
pvary_p = Primitive("pvary")


# Only staged inside a shard_map body (whose axes are bound), these two are typed without looking the axes up: a
# body's jaxpr may be traced again outside it (physicalizing key types).
@psum_invariant_p.def_abstract_eval
def _psum_invariant_aval(x: ShapedArray, *, axes):
    return x.update(weak_type=False, vma=x.vma - frozenset(axes))


@psum_invariant_p.def_impl
def _psum_invariant_impl(x, *, axes):
    raise unbound_axis_error(axes[0], "psum")


@pvary_p.def_abstract_eval
def _pvary_aval(x: ShapedArray, *, axes):
    # A body batched along mesh axes (vmap's spmd_axis_name) varies over them already: casting to them is refused.
    if x.vma & frozenset(axes):
        raise ValueError("pvary is a invariant->variant collective. This means that the axis names mentioned in "
                         "`axes` passed to `pvary` must not be present in `jax.typeof(inp).mat.varying`. Got "
                         f"axes={tuple(axes)} and jax.typeof(inp)={x}")
    return x.update(vma=x.vma | frozenset(axes))


pvary_p.def_impl(lambda x, *, axes: x)


def _named_param(params: dict) -> frozenset:
    """The manual axes a collective's params name (not the axes of a vmap inside the body)."""
    names = params["axes"] if "axes" in params else params["axis_name"]
    return frozenset(split_axes(axis_names(names))[0]) & vma.checked_axes()


def _reducing_vma(avals, params):
    """Reductions over manual axes: the operand cast to vary over them, the result varying over the others."""
    named = _named_param(params)
    return [avals[0].vma | named], avals[0].vma - named


def _communicating_vma(avals, params):
    """Collectives exchanging values along manual axes: the operand cast to vary over them, as the result does."""
    named = _named_param(params)
    return [a.vma | named for a in avals], avals[0].vma | named


vma.vma_rules.update({psum_invariant_p: _reducing_vma, psum_p: _reducing_vma, pmax_p: _reducing_vma,
                      pmin_p: _reducing_vma,
                      pvary_p: lambda avals, params: ([avals[0].vma], avals[0].vma | _named_param(params))})


def _check_bound_for_pvary(names: Sequence[Any]) -> None:
    """Inside a body checking types, JAX casts a reduction's or permutation's operand with ``pvary`` first, so an
    unbound name is reported for ``pvary``."""
    if vma.checked_axes():
        for name in split_axes(names)[0]:
            bound_axis_size(name, "pvary")


def _checks_vma(names: Sequence[Any]) -> bool:
    """Whether a collective over ``names`` is staged with varying-manual-axes types: inside a shard_map checking
    them, over its manual axes."""
    checked = vma.checked_axes()
    return bool(checked) and bool(names) and all(n in checked for n in names)


def _psum_checked(x: Any, names: tuple) -> Any:
    """``psum`` over manual axes with types: ``psum_invariant``, the operand first cast to vary over axes it does
    not vary over (JAX's error when it varies over some of them only)."""
    aval = get_aval(x)
    if aval.unreduced & frozenset(names):  # partial sums: their sum
        return unreduced_psum_p.bind(x, axes=names)
    if aval.reduced & frozenset(names):
        raise _pvary_reduced_error(aval, names)
    varying = [n in aval.vma for n in names]
    if any(varying) and not all(varying):
        raise ValueError("jax.lax.psum can only accept axis_name which corresponds to one of varying, unreduced, "
                         f"reduced or invarying state of the input. Got input type: {aval.str_short()}, axes: "
                         f"{names} and input state: {{'invarying', 'varying'}}")
    return psum_invariant_p.bind(x, axes=names)


def _bool_to_int(x: Any) -> Any:
    return convert_element_type(x, np.int32) if dtypes.dtype(x) == np.bool_ else x


def psum(x, axis_name, *, axis_index_groups=None):
    """Sum of ``x`` (a pytree) over the named axes ``axis_name`` (a name or a tuple of names)."""
    names = axis_names(axis_name)
    groups = _reduction_groups(names, axis_index_groups)
    leaves, treedef = tree.tree_flatten(x)
    leaves = [_bool_to_int(leaf) for leaf in leaves]
    _check_bound_for_pvary(names)
    if not any(isinstance(leaf, Tracer) for leaf in leaves):
        named, positional = split_axes(names)
        size = _group_size(named, groups)  # looked up as axis_size does (its shorter NameError)
        out = [_constant_sum(leaf, size, positional) for leaf in leaves]
    elif groups is None and _checks_vma(names):
        out = [_psum_checked(leaf, names) for leaf in leaves]
    else:
        out = [psum_p.bind(leaf, axes=names, axis_index_groups=groups) for leaf in leaves]
    return tree.tree_unflatten(treedef, out)


def _constant_sum(x: Any, size: int, positional: tuple[int, ...]) -> Any:
    """``psum`` of a value that does not vary along the named axes: ``size`` times it."""
    if positional:
        x = reduce_sum(x, positional)
    if isinstance(x, (int, float, complex)):
        return size * x
    if isinstance(x, (np.ndarray, np.generic)):
        return np.array(size, x.dtype) * x
    return mul(np.array(size, dtypes.dtype(x)), x)


def pmean(x, axis_name, *, axis_index_groups=None):
    """Mean of ``x`` (a pytree) over the named axes; integer inputs give floating results."""
    names = axis_names(axis_name)
    total = psum(x, names, axis_index_groups=axis_index_groups)
    size = _group_size(split_axes(names)[0], _canonical_groups(axis_index_groups))

    def mean(s):
        if not dtypes.issubdtype(dtypes.dtype(s), np.inexact):
            s = convert_element_type(s, dtypes.default_float_dtype())
        return div(s, float(size))

    return tree.tree_map(mean, total)


def _extremum(primitive: Primitive, x, axis_name, axis_index_groups):
    names = axis_names(axis_name)
    _check_bound_for_pvary(names)
    groups = _reduction_groups(names, axis_index_groups)
    leaves, treedef = tree.tree_flatten(x)
    return tree.tree_unflatten(treedef, [primitive.bind(leaf, axes=names, axis_index_groups=groups)
                                         for leaf in leaves])


def pmax(x, axis_name, *, axis_index_groups=None):
    """Maximum of ``x`` (a pytree) over the named axes."""
    return _extremum(pmax_p, x, axis_name, axis_index_groups)


def pmin(x, axis_name, *, axis_index_groups=None):
    """Minimum of ``x`` (a pytree) over the named axes."""
    return _extremum(pmin_p, x, axis_name, axis_index_groups)


# ---------------------------------------------------------------- all_gather and psum_scatter


def _unbound_impl(function: str, name_param: str):
    def impl(*args, **params):
        raise unbound_axis_error(axis_names(params[name_param])[0], function)

    return impl


all_gather_p = Primitive("all_gather")


@all_gather_p.def_abstract_eval
def _all_gather_aval(x, *, all_gather_dimension, axis_name, axis_index_groups, axis_size, tiled):
    for n in axis_name:
        bound_axis_size(n)
    shape = list(x.shape)
    if tiled:
        shape[all_gather_dimension] *= axis_size
    else:
        shape.insert(all_gather_dimension, axis_size)
    return x.update(shape=tuple(shape))


all_gather_p.def_impl(_unbound_impl("all_gather", "axis_name"))


# all_gather(..., to="invarying"): the gathered value is the same on every member, so it no longer varies over
# the axes (``psum_invariant``'s counterpart for gathers).
all_gather_invariant_p = Primitive("all_gather_invariant")


@all_gather_invariant_p.def_abstract_eval
def _all_gather_invariant_aval(x, *, all_gather_dimension, axis_name, axis_size, tiled):
    gathered = _all_gather_aval(x, all_gather_dimension=all_gather_dimension, axis_name=axis_name,
                                axis_index_groups=None, axis_size=axis_size, tiled=tiled)
    return gathered.update(vma=x.vma - frozenset(axis_name))


all_gather_invariant_p.def_impl(_unbound_impl("all_gather", "axis_name"))
vma.vma_rules[all_gather_invariant_p] = _reducing_vma

_ALL_GATHER_TARGETS = ("varying", "invarying", "reduced")


def all_gather(x, axis_name, *, axis_index_groups=None, axis=0, tiled=False, to="varying"):
    """``x`` (a pytree) from every member of the named axes, stacked along ``axis`` (concatenated if ``tiled``);
    with ``to="invarying"`` the result is typed as the same on every member."""
    if to not in _ALL_GATHER_TARGETS:
        raise ValueError("Got unexpected `to` value for `jax.lax.all_gather`. Allowed `to` values are: "
                         f"{{{', '.join(repr(t) for t in _ALL_GATHER_TARGETS)}}}")
    names = axis_names(axis_name)
    if to == "reduced":
        tree.tree_map(lambda leaf: _check_reduced_gather(get_aval(leaf), names), x)
    groups = _canonical_groups(axis_index_groups)
    size = _group_size(names, groups)

    def gather(leaf):
        ndim = get_aval(leaf).ndim
        dim = _normalize_axis(axis, ndim if tiled else ndim + 1)
        if to == "reduced":
            return all_gather_reduced_p.bind(leaf, all_gather_dimension=dim, axis_name=names, axis_size=size,
                                             tiled=bool(tiled))
        if to == "invarying":
            return all_gather_invariant_p.bind(leaf, all_gather_dimension=dim, axis_name=names, axis_size=size,
                                               tiled=bool(tiled))
        return all_gather_p.bind(leaf, all_gather_dimension=dim, axis_name=names, axis_index_groups=groups,
                                 axis_size=size, tiled=bool(tiled))

    return tree.tree_map(gather, x)


def _check_reduced_gather(aval: Any, names: tuple) -> None:
    """JAX's refusals of ``all_gather(..., to="reduced")`` (its ``all_gather_reduced``), which gathers a value
    varying over the axes into one reduced over them (``f32[8]{R:i}``)."""
    if not aval.vma:
        raise ValueError(f"all_gather_reduced only accepts inputs that are varying. Got {aval.str_short(True)}")
    if not aval.vma & frozenset(names):
        raise ValueError("all_gather_reduced is a Varying -> Reduced collective. This means that the "
                         f"axis_name={names} passed to `all_gather_reduced` must be present in "
                         f"jax.typeof(x).mat.varying={aval.vma}")


# ---------------------------------------------------------------- unreduced and reduced values over manual axes

# Inside a shard_map checking types a value may be *reduced* over manual axes (the same on every member, its
# cotangent a partial sum) or *unreduced* (a partial sum per member awaiting its reduction). ``all_gather_reduced``
# gathers a varying value into a reduced one; ``preduced`` retypes an invariant value as reduced;
# ``reduced_vary_cast_p`` and ``vary_unreduced_cast_p`` change the type of a value only (reduced to varying, varying
# to unreduced); ``unreduced_psum`` and ``unreduced_reduce_scatter`` sum the partial sums. Each is linear and the
# transpose of another (see ad/parallel.py); unreduced_types.py types their results.
all_gather_reduced_p = Primitive("all_gather_reduced")


@all_gather_reduced_p.def_abstract_eval
def _all_gather_reduced_aval(x, *, all_gather_dimension, axis_name, axis_size, tiled):
    return _all_gather_aval(x, all_gather_dimension=all_gather_dimension, axis_name=axis_name,
                            axis_index_groups=None, axis_size=axis_size, tiled=tiled)


all_gather_reduced_p.def_impl(_unbound_impl("all_gather", "axis_name"))
unreduced_reduce_scatter_p = Primitive("unreduced_reduce_scatter")


@unreduced_reduce_scatter_p.def_abstract_eval
def _unreduced_reduce_scatter_aval(x, *, axis_name, scatter_dimension, axis_size, tiled):
    return _reduce_scatter_aval(x, axis_name=axis_name, scatter_dimension=scatter_dimension, axis_index_groups=None,
                                axis_size=axis_size, tiled=tiled)


unreduced_reduce_scatter_p.def_impl(_unbound_impl("reduce_scatter", "axis_name"))
preduced_p = Primitive("preduced")
reduced_vary_cast_p = Primitive("reduced_vary_cast_p")
vary_unreduced_cast_p = Primitive("vary_unreduced_cast_p")
unreduced_psum_p = Primitive("unreduced_psum")
for _primitive in (preduced_p, reduced_vary_cast_p, vary_unreduced_cast_p, unreduced_psum_p):
    _primitive.def_abstract_eval(lambda x, *, axes: x.update(weak_type=False))
    _primitive.def_impl(_unbound_impl(_primitive.name, "axes"))


def _gaining_vma(avals, params):
    """The operand as it is; the result varying over the named axes too."""
    return [avals[0].vma], avals[0].vma | _named_param(params)


def _losing_vma(avals, params):
    """The operand as it is; the result varying over the named axes no more."""
    return [avals[0].vma], avals[0].vma - _named_param(params)


vma.vma_rules.update({all_gather_reduced_p: _losing_vma, vary_unreduced_cast_p: _losing_vma,
                      reduced_vary_cast_p: _gaining_vma, unreduced_reduce_scatter_p: _gaining_vma,
                      preduced_p: _losing_vma, unreduced_psum_p: _losing_vma})


def _pvary_reduced_error(aval: Any, names: Sequence) -> ValueError:
    return ValueError(f"pvary cannot accept args which are reduced. Got {aval.str_short(True)} and "
                      f"axes={set(names)}")


reduce_scatter_p = Primitive("reduce_scatter")


@reduce_scatter_p.def_abstract_eval
def _reduce_scatter_aval(x, *, axis_name, scatter_dimension, axis_index_groups, axis_size, tiled):
    for n in axis_name:
        bound_axis_size(n)
    shape = list(x.shape)
    extent = shape[scatter_dimension]
    if tiled:
        if extent % axis_size:
            raise ValueError(f"tiled reduce_scatter operand scatter dimension size {extent} must be divisible by "
                             f"shard_count {axis_size}")
        shape[scatter_dimension] = extent // axis_size
    else:
        if extent != axis_size:
            raise ValueError(f"reduce_scatter operand scatter dimension size {extent} must match shard count "
                             f"{axis_size}")
        del shape[scatter_dimension]
    return x.update(shape=tuple(shape))


reduce_scatter_p.def_impl(_unbound_impl("reduce_scatter", "axis_name"))


def psum_scatter(x, axis_name, *, scatter_dimension=0, axis_index_groups=None, tiled=False):
    """``psum`` of ``x`` (a pytree) whose result is split along ``scatter_dimension`` among the members."""
    names = axis_names(axis_name)
    groups = _canonical_groups(axis_index_groups)
    size = _group_size(names, groups)

    def scatter(leaf):
        aval = get_aval(leaf)
        dim = _normalize_axis(scatter_dimension, aval.ndim)
        if groups is None and _checks_vma(names) and aval.unreduced & frozenset(names):  # partial sums: their sum
            return unreduced_reduce_scatter_p.bind(leaf, axis_name=names, scatter_dimension=dim, axis_size=size,
                                                   tiled=bool(tiled))
        return reduce_scatter_p.bind(leaf, axis_name=names, scatter_dimension=dim, axis_index_groups=groups,
                                     axis_size=size, tiled=bool(tiled))

    return tree.tree_map(scatter, x)


# ---------------------------------------------------------------- all_to_all


all_to_all_p = Primitive("all_to_all")


@all_to_all_p.def_abstract_eval
def _all_to_all_aval(x, *, split_axis, concat_axis, axis_name, axis_index_groups, tiled):
    size = _group_size(axis_names(axis_name), axis_index_groups)
    shape = list(x.shape)
    shape[split_axis] //= size
    shape[concat_axis] *= size
    return x.update(shape=tuple(shape))


all_to_all_p.def_impl(_unbound_impl("all_to_all", "axis_name"))


def all_to_all(x, axis_name, split_axis, concat_axis, *, axis_index_groups=None, tiled=False):
    """Splits ``x`` (a pytree) along ``split_axis`` into one chunk per member, sends chunk ``j`` to member ``j``
    and concatenates the received chunks along ``concat_axis`` (stacking them there unless ``tiled``)."""
    groups = _canonical_groups(axis_index_groups)
    size = _group_size(axis_names(axis_name), groups)

    def exchange(leaf):
        aval = get_aval(leaf)
        split = _normalize_axis(split_axis, aval.ndim)
        concat = _normalize_axis(concat_axis, aval.ndim if tiled else aval.ndim + 1)
        if tiled:
            if aval.shape[split] % size:
                raise ValueError(f"The size of all_to_all split_axis ({aval.shape[split]}) has to be divisible by "
                                 f"the size of the named axis {axis_name} ({size})")
            return all_to_all_p.bind(leaf, split_axis=split, concat_axis=concat, axis_name=axis_name,
                                     axis_index_groups=groups, tiled=True)
        if aval.shape[split] != size:
            raise ValueError("all_to_all requires the size of the mapped axis axis_name to equal x.shape[split_axis], "
                             f"but they are {size} and {aval.shape[split]} respectively.")
        if split == concat:  # chunks of size 1 exchanged in place: no axis to add and remove, as JAX binds it
            return all_to_all_p.bind(leaf, split_axis=split, concat_axis=concat, axis_name=axis_name,
                                     axis_index_groups=groups, tiled=False)
        new_dim = concat + (split <= concat)
        split += concat < split
        expanded = expand_dims(leaf, (new_dim,))
        out = all_to_all_p.bind(expanded, split_axis=split, concat_axis=new_dim, axis_name=axis_name,
                                axis_index_groups=groups, tiled=False)
        return squeeze(out, (split,))

    return tree.tree_map(exchange, x)


def pswapaxes(x, axis_name, axis, *, axis_index_groups=None):
    """Swaps the named axis with positional axis ``axis`` of ``x`` (a pytree), whose size must be the named
    axis's: an ``all_to_all`` splitting and concatenating along ``axis``."""
    groups = _canonical_groups(axis_index_groups)
    size = _group_size(axis_names(axis_name), groups)

    def swap(leaf):
        shape = get_aval(leaf).shape
        extent = shape[axis]  # an IndexError for an axis out of range, as JAX's
        if extent != size:
            raise ValueError("all_to_all requires the size of the mapped axis axis_name to equal x.shape[split_axis], "
                             f"but they are {size} and {extent} respectively.")
        return all_to_all_p.bind(leaf, split_axis=axis, concat_axis=axis, axis_name=axis_name,
                                 axis_index_groups=groups, tiled=False)

    return tree.tree_map(swap, x)


# ---------------------------------------------------------------- ppermute, pshuffle and axis_index


ppermute_p = Primitive("ppermute")


@ppermute_p.def_abstract_eval
def _ppermute_aval(x, *, axis_name, perm):
    for n in axis_name:
        bound_axis_size(n, "ppermute")
    return x


ppermute_p.def_impl(_unbound_impl("ppermute", "axis_name"))


def ppermute(x, axis_name, perm):
    """``x`` (a pytree) sent from member ``i`` to member ``j`` for each pair ``(i, j)`` of ``perm``."""
    names = axis_names(axis_name)
    _check_bound_for_pvary(names)
    pairs = tuple((int(i), int(j)) for i, j in perm)
    leaves, treedef = tree.tree_flatten(x)
    if core.evaluates_eagerly(leaves):
        raise _no_evaluation_rule("ppermute")
    return tree.tree_unflatten(treedef, [ppermute_p.bind(leaf, axis_name=names, perm=pairs) for leaf in leaves])


def pshuffle(x, axis_name, perm):
    """``ppermute`` with ``perm`` listing, for each member, the member it receives from."""
    if set(perm) != set(range(len(perm))):
        raise ValueError(f"`perm` does not represent a permutation: {perm}")
    return ppermute(x, axis_name, list(zip(perm, range(len(perm)))))


# ---------------------------------------------------------------- pbroadcast


pbroadcast_p = Primitive("pbroadcast")


@pbroadcast_p.def_abstract_eval
def _pbroadcast_aval(x, *, axis_name, source):
    for n in axis_names(axis_name):
        bound_axis_size(n, "ppermute")  # JAX names ppermute, of which pbroadcast is a special case
    return x


pbroadcast_p.def_impl(_no_impl("pbroadcast"))


def pbroadcast(x, axis_name, source):
    """``x`` (a pytree) of member ``source`` of the named axis, replicated to every member."""
    leaves, treedef = tree.tree_flatten(x)
    if core.evaluates_eagerly(leaves):
        raise _no_evaluation_rule("pbroadcast")
    return tree.tree_unflatten(treedef, [pbroadcast_p.bind(leaf, axis_name=axis_name, source=source)
                                         for leaf in leaves])


for _primitive in (all_gather_p, reduce_scatter_p, all_to_all_p, ppermute_p, pbroadcast_p):
    vma.vma_rules[_primitive] = _communicating_vma

# ---------------------------------------------------------------- psend and precv


psend_p = Primitive("psend")
psend_p.effectful = True  # the send happens whether or not its token is used


@psend_p.def_abstract_eval
def _psend_aval(x, *, axis_name, perm):
    for n in axis_name:
        bound_axis_size(n, "psend")
    return abstract_token


psend_p.def_impl(_unbound_impl("psend", "axis_name"))


def psend(x, axis_name, perm):
    """Sends ``x`` (a pytree) from member ``i`` to member ``j`` for each pair ``(i, j)`` of ``perm``; a token per
    leaf, for the matching ``precv``."""
    names = axis_names(axis_name)
    pairs = tuple((int(i), int(j)) for i, j in perm)
    return tree.tree_map(lambda leaf: psend_p.bind(leaf, axis_name=names, perm=pairs), x)


precv_p = Primitive("precv")
precv_p.effectful = True


@precv_p.def_abstract_eval
def _precv_aval(token, *, axis_name, out_shape, perm):
    # As JAX's, the receive is typed by out_shape alone; its axis names are only resolved when compiled.
    return ShapedArray(out_shape.shape, out_shape.dtype)


precv_p.def_impl(_no_impl("precv"))


def precv(token, out_shape, axis_name, perm):
    """Receives an array of ``out_shape``'s shape and dtype sent by ``psend`` over ``perm``, after ``token``."""
    if core.evaluates_eagerly([token]):
        raise _no_evaluation_rule("precv")
    aval = ShapedArray(out_shape.shape, dtypes.canonicalize_dtype(out_shape.dtype))
    return precv_p.bind(token, axis_name=axis_names(axis_name), out_shape=aval,
                        perm=tuple((int(i), int(j)) for i, j in perm))


axis_index_p = Primitive("axis_index")


@axis_index_p.def_abstract_eval
def _axis_index_aval(*, axis_name):
    bound_axis_size(axis_name, "axis_index")
    return ShapedArray((), np.dtype(np.int32))


axis_index_p.def_impl(_unbound_impl("axis_index", "axis_name"))
vma.vma_rules[axis_index_p] = lambda avals, params: ([], _named_param(params))


def axis_index(axis_name):
    """This member's index along the named axis (row-major over a tuple of names), an int32 scalar."""
    if not isinstance(axis_name, (tuple, list)):
        return axis_index_p.bind(axis_name=axis_name)
    names = axis_names(axis_name)  # as JAX's, even a 1-tuple is combined row-major (staged as mul/add)
    index, stride = 0, 1
    for name in reversed(names):
        index = add(index, mul(axis_index_p.bind(axis_name=name), stride))
        stride *= bound_axis_size(name, "axis_index")
    return index


# ---------------------------------------------------------------- pcast


_PCAST_TARGETS = ("unreduced", "reduced", "varying")


def pcast(x, axis_name, *, to: str):
    """Changes how ``x`` (a pytree) varies along the named axes (``to``: ``'varying'``, ``'reduced'``,
    ``'unreduced'``). That type only exists inside ``shard_map``: with no axis named it is the identity,
    otherwise it raises JAX's error for the setting (eager or ``vmap``, or staged)."""
    names = axis_names(axis_name)
    if not names:
        return x
    if to not in _PCAST_TARGETS:
        raise ValueError(f"Got unexpected `to` value. Allowed `to` values are: {set(_PCAST_TARGETS)}")
    if _checks_vma(names):
        return tree.tree_map(lambda leaf: _pcast_checked(leaf, frozenset(names), to), x)
    if to == "unreduced":
        raise ValueError("Unsupported pcast from=invarying, to='unreduced'")
    function = "pvary" if to == "varying" else "preduced"
    if _under_staging():
        for n in names:
            bound_axis_size(n, function)
        varying, reduced = (frozenset(names), frozenset()) if to == "varying" else (frozenset(), frozenset(names))
        raise AssertionError(f"ManualAxisType(varying={varying}, unreduced=frozenset(), reduced={reduced})")
    if to == "reduced" and not isinstance(core.current_trace(), core.EvalTrace):
        raise NotImplementedError()
    raise ValueError(f"{function} should be called under jax.shard_map.")


# (how the value relates to the named axes, the type asked for) -> the primitive changing the one into the other
_PCASTS = {("invarying", "varying"): pvary_p, ("invarying", "reduced"): preduced_p,
           ("varying", "unreduced"): vary_unreduced_cast_p, ("reduced", "varying"): reduced_vary_cast_p}


def _pcast_checked(x: Any, names: frozenset, to: str) -> Any:
    """``pcast`` of one leaf inside a shard_map checking types (JAX's error for a change it does not make)."""
    aval = get_aval(x)
    state = ("varying" if names <= aval.vma else "unreduced" if names <= aval.unreduced
             else "reduced" if names <= aval.reduced else "invarying")
    primitive = _PCASTS.get((state, to))
    if primitive is None:
        raise ValueError(f"Unsupported pcast from={state}, to={to!r}")
    return primitive.bind(x, axes=vma.ordered(names))


# ---------------------------------------------------------------- ragged_all_to_all


_RAGGED_INDEX_OPERANDS = ("input_offsets", "send_sizes", "output_offsets", "recv_sizes")

ragged_all_to_all_p = Primitive("ragged_all_to_all")


@ragged_all_to_all_p.def_abstract_eval
def _ragged_all_to_all_aval(operand, output, *index_avals, axis_name, axis_index_groups):
    for name, aval in zip(_RAGGED_INDEX_OPERANDS, index_avals):
        if not dtypes.issubdtype(aval.dtype, np.integer):
            raise ValueError(f"ragged_all_to_all {name} must be integer type.")
    for name, aval in zip(_RAGGED_INDEX_OPERANDS, index_avals):
        if aval.ndim != 1 or aval.shape[0] == 0:
            raise ValueError(f"ragged_all_to_all {name} must be rank 1 with positive dimension size, but got shape "
                             f"{aval.shape}")
    for n in axis_name:
        bound_axis_size(n, "ragged_all_to_all")
    return output


ragged_all_to_all_p.def_impl(_unbound_impl("ragged_all_to_all", "axis_name"))


def _as_jax_value(x: Any, function: str, position: int) -> Any:
    if not is_array_like(x):
        raise TypeError(f"Error interpreting argument to {function} as a JAX value. The problematic value is of type "
                        f"{type(x)} and was passed to {function} at position {position}.\n")
    return x


def ragged_all_to_all(operand, output, input_offsets, send_sizes, output_offsets, recv_sizes, *, axis_name,
                      axis_index_groups=None):
    """``all_to_all`` of ragged data: member ``i`` sends ``operand[input_offsets[j]:][:send_sizes[j]]`` to member
    ``j``, written into ``j``'s ``output`` at ``output_offsets[j]``; ``recv_sizes`` are the sizes received."""
    args = [_as_jax_value(x, "ragged_all_to_all", i)
            for i, x in enumerate((operand, output, input_offsets, send_sizes, output_offsets, recv_sizes))]
    if core.evaluates_eagerly(args):
        raise RuntimeError("ragged_all_to_all must be used within a mapped context like vmap or shard_map.")
    # Unlike the other collectives, groups of different sizes are accepted (as JAX's).
    groups = None if axis_index_groups is None else tuple(tuple(int(i) for i in g) for g in axis_index_groups)
    return ragged_all_to_all_p.bind(*args, axis_name=axis_names(axis_name), axis_index_groups=groups)
