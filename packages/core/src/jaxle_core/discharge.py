"""Discharging mutable references: a program using references becomes one threading their arrays through it.

A jaxpr whose inputs include references (``Ref{f32[3]}``) is rewritten into one taking their arrays and also
returning the arrays they hold at the end; references it makes itself (``new_ref``) become plain values. Each
primitive that reads or writes a reference has a discharge rule, ``rule(in_avals, aliases, *values, **params) ->
(new_values, outs)``: ``values`` hold the referenced arrays where the operands are references, ``aliases[i]`` is
the position of the first operand that is the same reference as operand ``i`` (``i`` itself otherwise), and
``new_values`` says what each reference operand holds afterwards (None: unchanged). Control flow discharges the
jaxprs it carries (a loop's references become carries). Backends only ever see discharged programs:
``compile_with_refs`` wraps a jitted program so that its reference arguments (and the references it closes over)
are read before the call and written after it, their old buffers donated to the new ones; ``apply_eagerly`` runs
one primitive on eager ``Ref`` objects through the same rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import core
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.checkpoint import checkpoint_p, checkpoint_params, open_jaxpr
from jaxle_core.closed_call import bind_closed_call, closed_call_p
from jaxle_core.core import ClosedJaxpr, Jaxpr, Literal, Primitive, Var
from jaxle_core.jaxpr_util import sub_jaxprs
from jaxle_core.jit import jit_p, jit_params
from jaxle_core.lax import refs
from jaxle_core.lax.control_flow.conditionals import cond_p
from jaxle_core.lax.control_flow.scan import scan_p, split_scan_args
from jaxle_core.lax.control_flow.while_loops import while_p
from jaxle_core.lax.creation import full
from jaxle_core.lax.elementwise import add, lt, mul, sub
from jaxle_core.lax.identity import copy_p
from jaxle_core.lax.refs import IndexDim, Indexer, Ref, is_ref_aval, value_aval
from jaxle_core.lax.slicing import (
    GatherDimensionNumbers,
    ScatterDimensionNumbers,
    dynamic_index_in_dim,
    dynamic_slice_p,
    dynamic_update_index_in_dim,
    dynamic_update_slice_p,
    gather,
    scatter,
    scatter_add,
    slice,  # noqa: A004 - lax's name
)
from jaxle_core.lax.structural import (
    broadcast_in_dim,
    concatenate,
    convert_element_type,
    iota,
    reshape,
    select,
    squeeze,
)
from jaxle_core.staging import trace_to_jaxpr

__all__ = ["apply_eagerly", "compile_with_refs", "discharge_jaxpr", "discharge_rules", "jaxpr_uses_refs"]

DischargeRule = Callable[..., tuple[list[Any], list[Any]]]
discharge_rules: dict[Primitive, DischargeRule] = {}


# ---------------------------------------------------------------- reading and writing indexed parts


def _int32(x: Any) -> Any:
    return x if get_aval(x).dtype == np.int32 else convert_element_type(x, np.int32)


def _index_scalar(x: Any) -> Any:
    """A traced index as JAX's discharge takes it: a strong int32 scalar."""
    aval = get_aval(x)
    return x if aval.dtype == np.int32 and not aval.weak_type else convert_element_type(x, np.int32)


def _in_bounds(starts: Sequence[Any], shape: Sequence[int]) -> list[Any]:
    """Each window start counted from the end of its dimension where negative, as ``lax.dynamic_slice`` takes
    them (JAX stages the comparison even for static starts)."""
    return [select(lt(s, np.int32(0)), add(s, np.int32(n)), s) for s, n in zip(starts, shape)]


def _is_basic(indexer: Indexer) -> bool:
    return all(d.kind != "array" for d in indexer)


def _windows(indexer: tuple[IndexDim, ...], operands: Sequence[Any]):
    """Per dimension: the window's start (an int32 scalar, negative ones not yet counted from the end), its extent
    and stride; and the integer-indexed dimensions (squeezed from the result)."""
    starts, extents, strides, squeezed = [], [], [], []
    operands = iter(operands)
    for axis, d in enumerate(indexer):
        starts.append(_index_scalar(next(operands)) if d.start is None else np.int32(d.start))
        if d.kind == "int":
            extents.append(1)
            strides.append(1)
            squeezed.append(axis)
        else:
            extents.append((d.size - 1) * d.stride + 1 if d.size else 0)
            strides.append(d.stride)
    return starts, extents, strides, squeezed


def _point_indices(shape: Sequence[int], indexer: tuple[IndexDim, ...], operands: Sequence[Any]) -> Any:
    """The coordinates (int32, last axis) of every element ``ref[indexer]`` reads, in the result's shape."""
    out_shape = refs.indexed_shape(tuple(shape), indexer, [get_aval(x) for x in operands])
    arrays = any(d.kind == "array" for d in indexer)
    advanced = [i for i, d in enumerate(indexer) if d.kind != "slice"] if arrays else []
    contiguous = bool(advanced) and advanced == list(range(advanced[0], advanced[-1] + 1))
    broadcast = np.broadcast_shapes(*refs._array_shapes(indexer, [get_aval(x) for x in operands])) if arrays else ()
    block = (sum(1 for d in indexer[:advanced[0]] if d.kind == "slice") if contiguous else 0) if arrays else 0
    operands = iter(operands)
    coordinates, position = [], 0
    for axis, (d, n) in enumerate(zip(indexer, shape)):
        start = _int32(next(operands)) if d.start is None else np.int32(d.start + n if d.start < 0 else d.start)
        if d.kind == "slice":
            at = position + (len(broadcast) if arrays and (not contiguous or axis > advanced[-1]) else 0)
            steps = mul(iota(np.int32, d.size), broadcast_in_dim(np.int32(d.stride), (d.size,), ()))
            line = add(broadcast_in_dim(start, (d.size,), ()), steps)
            coordinates.append(broadcast_in_dim(line, out_shape, (at,)))
            position += 1
        elif arrays:
            index = _int32(start)
            rank = len(get_aval(index).shape)
            dims = tuple(range(block + len(broadcast) - rank, block + len(broadcast)))
            coordinates.append(broadcast_in_dim(index, out_shape, dims))
        else:
            coordinates.append(broadcast_in_dim(start, out_shape, ()))
    expanded = [reshape(c, out_shape + (1,)) for c in coordinates]
    return concatenate(expanded, len(out_shape)), out_shape


def _all_dims(ndim: int) -> tuple[int, ...]:
    return tuple(range(ndim))


def read(x: Any, indexer: Indexer, operands: Sequence[Any], static_slices: bool = True) -> Any:
    """``x[indexer]`` as lax operations, as JAX's discharge writes them: a static slice where every dimension is
    sliced from a static start (unless not ``static_slices``), else a dynamic slice."""
    if indexer is None:
        return x
    shape = get_aval(x).shape
    if static_slices and all(d.kind == "slice" and d.start is not None for d in indexer):
        return slice(x, [d.start for d in indexer], [d.start + (d.size - 1) * d.stride + 1 if d.size else d.start
                                                     for d in indexer], [d.stride for d in indexer])
    if _is_basic(indexer):
        starts, extents, strides, squeezed = _windows(indexer, operands)
        window = dynamic_slice_p.bind(x, *_in_bounds(starts, shape), slice_sizes=tuple(extents))
        if any(s != 1 for s in strides):
            window = slice(window, (0,) * len(shape), extents, strides)
        return squeeze(window, squeezed) if squeezed else window
    indices, _ = _point_indices(shape, indexer, operands)
    dims = _all_dims(len(shape))
    return gather(x, indices, GatherDimensionNumbers((), dims, dims), (1,) * len(shape), mode="clip")


def write(x: Any, indexer: Indexer, operands: Sequence[Any], value: Any, accumulate: bool = False) -> Any:
    """``x`` with ``x[indexer]`` replaced by ``value`` (or ``value`` added to it)."""
    if indexer is None:
        return add(x, value) if accumulate else value
    shape = get_aval(x).shape
    if _is_basic(indexer):
        starts, extents, strides, squeezed = _windows(indexer, operands)
        if all(s == 1 for s in strides):
            # as JAX's: the old window read first where the value is added to it
            old = dynamic_slice_p.bind(x, *_in_bounds(starts, shape), slice_sizes=tuple(extents)) if accumulate \
                else None
            if get_aval(value).shape != tuple(extents):  # integer-indexed dimensions put back
                value = broadcast_in_dim(value, tuple(extents), tuple(i for i in range(len(shape))
                                                                      if i not in squeezed))
            if accumulate:
                value = add(old, value)
            return dynamic_update_slice_p.bind(x, value, *_in_bounds(starts, shape))
    indices, _ = _point_indices(shape, indexer, operands)
    dims = _all_dims(len(shape))
    numbers = ScatterDimensionNumbers((), dims, dims)
    return (scatter_add if accumulate else scatter)(x, indices, value, numbers, mode="clip")


# ---------------------------------------------------------------- rules of the reference primitives


def _new_ref_rule(in_avals, aliases, value, **params):
    return [None], [value]


def _empty_ref_rule(in_avals, aliases, *, ty: ShapedArray, memory_space: Any):
    return [], [full(ty.shape, 0, ty.dtype)]


def _staged_slice_ends(indexer: Indexer, operands: Sequence[Any]) -> None:
    """Stage what JAX's discharge of a read computes before it finds the index is not all static slices: the end of
    each slice up to the first one from a traced start (``start + (size - 1) * stride + 1``, left unused)."""
    operands = iter(operands)
    for d in indexer or ():
        if d.kind != "slice":
            return
        if d.start is None:
            start = next(operands)
            dtype = get_aval(start).dtype
            add(add(start, np.asarray((d.size - 1) * d.stride, dtype)), np.asarray(1, dtype))
            return


def _get_rule(in_avals, aliases, x, *operands, indexer):
    _staged_slice_ends(indexer, operands)
    return [None] * (1 + len(operands)), [read(x, indexer, operands)]


def _swap_rule(in_avals, aliases, x, value, *operands, indexer):
    old = read(x, indexer, operands, static_slices=False)
    return [write(x, indexer, operands, value)] + [None] * (1 + len(operands)), [old]


def _addupdate_rule(in_avals, aliases, x, value, *operands, indexer):
    return [write(x, indexer, operands, value, accumulate=True)] + [None] * (1 + len(operands)), []


discharge_rules[refs.new_ref_p] = _new_ref_rule
discharge_rules[refs.empty_ref_p] = _empty_ref_rule
discharge_rules[refs.get_p] = _get_rule
discharge_rules[refs.swap_p] = _swap_rule
discharge_rules[refs.addupdate_p] = _addupdate_rule
discharge_rules[refs.broadcast_to_p] = lambda in_avals, aliases, x, *, shape: (
    [None], [broadcast_in_dim(x, shape, tuple(range(len(shape) - len(in_avals[0].shape), len(shape))))])
discharge_rules[refs.freeze_p] = lambda in_avals, aliases, x: ([None], [x])
discharge_rules[refs.free_ref_p] = lambda in_avals, aliases, x: ([None], [])


# ---------------------------------------------------------------- discharging a jaxpr


def jaxpr_uses_refs(jaxpr: Jaxpr) -> bool:
    """Whether ``jaxpr`` (or a jaxpr it carries) takes, makes or reads a reference."""
    if any(is_ref_aval(v.aval) for v in (*jaxpr.constvars, *jaxpr.invars)):
        return True
    ref_primitives = refs.ref_primitives
    for eqn in jaxpr.eqns:
        if eqn.primitive in ref_primitives:
            return True
        if eqn.params:
            for sub in sub_jaxprs(eqn.params):
                if jaxpr_uses_refs(sub):
                    return True
    return False


def operand_aliases(operands: Sequence[Any]) -> list[int]:
    """Per operand, the position of the first operand that is the same reference (a cell or ``Ref``), else its
    own."""
    first: dict[int, int] = {}
    return [first.setdefault(id(x), i) if type(x) in (_Cell, Ref) else i for i, x in enumerate(operands)]


class _Cell:
    """What a reference variable holds while a jaxpr is interpreted with its references discharged."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value


def run_discharged(jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any]) -> list[Any]:
    """Interpret ``jaxpr`` under the current trace with its references as values: ``args`` hold the arrays of the
    reference inputs; the result is the outputs, then what each reference input holds at the end."""
    env: dict[Var, Any] = {}

    def read_atom(atom):
        return atom.val if type(atom) is Literal else env[atom]

    cells = []
    for var, value in zip((*jaxpr.constvars, *jaxpr.invars), (*consts, *args)):
        if is_ref_aval(var.aval):
            value = _Cell(value)
            cells.append(value) if var in jaxpr.invars else None
        env[var] = value
    for eqn in jaxpr.eqns:
        with core.located_at(eqn):  # what it stages again is located where it was staged
            values = [read_atom(a) for a in eqn.invars]
            rule = discharge_rules.get(eqn.primitive)
            has_cells = any(type(v) is _Cell for v in values)
            if rule is None or not (has_cells or eqn.primitive in refs.ref_primitives
                                    or any(jaxpr_uses_refs(s) for s in sub_jaxprs(eqn.params))):
                if has_cells or rule is None and any(jaxpr_uses_refs(s) for s in sub_jaxprs(eqn.params)):
                    raise NotImplementedError(f"mutable array references are not supported by `{eqn.primitive}`")
                outs = eqn.primitive.bind(*values, **eqn.params)
                outs = outs if eqn.primitive.multiple_results else [outs]
            else:
                in_avals = [a.aval for a in eqn.invars]
                plain = [v.value if type(v) is _Cell else v for v in values]
                new_values, outs = rule(in_avals, operand_aliases(values), *plain, **eqn.params)
                for cell, new in zip(values, new_values):
                    if type(cell) is _Cell and new is not None:
                        cell.value = new
            for var, out in zip(eqn.outvars, outs):
                env[var] = _Cell(out) if is_ref_aval(var.aval) else out
    outs = []
    for atom in jaxpr.outvars:
        value = read_atom(atom)
        if type(value) is _Cell:
            raise ValueError(f"a jaxpr returning a mutable array reference of type {atom.aval} cannot be "
                             "discharged: mutable array references cannot be returned.")
        outs.append(value)
    return outs + [cell.value for cell in cells]


def discharge_jaxpr(jaxpr: Jaxpr, consts: Sequence[Any] = ()) -> ClosedJaxpr:
    """``jaxpr`` with its references discharged: reference inputs take their arrays, and the arrays they hold at
    the end follow the outputs (in the order of those inputs)."""
    in_avals = [value_aval(v.aval) for v in jaxpr.invars]
    return trace_to_jaxpr(lambda *args: run_discharged(jaxpr, consts, args), in_avals)


# ---------------------------------------------------------------- rules of the primitives carrying jaxprs


def _ref_positions(avals: Sequence[Any]) -> list[int]:
    return [i for i, a in enumerate(avals) if is_ref_aval(a)]


def _closed_discharged(closed: ClosedJaxpr) -> ClosedJaxpr:
    return discharge_jaxpr(closed.jaxpr, closed.consts)


def _jit_rule(in_avals, aliases, *args, jaxpr: ClosedJaxpr, name: str, keep_unused: bool = False, inline: bool = False,
              **params):
    discharged = _closed_discharged(jaxpr)
    n_out = len(jaxpr.jaxpr.outvars)
    outs = jit_p.bind(*args, **jit_params(discharged, name, keep_unused=keep_unused, inline=inline))
    finals = iter(outs[n_out:])
    return [next(finals) if is_ref_aval(a) else None for a in in_avals], outs[:n_out]


def _closed_call_rule(in_avals, aliases, *args, call_jaxpr: ClosedJaxpr, name: str | None = None):
    n_out = len(call_jaxpr.jaxpr.outvars)
    outs = bind_closed_call(_closed_discharged(call_jaxpr), args, name)
    finals = iter(outs[n_out:])
    return [next(finals) if is_ref_aval(a) else None for a in in_avals], outs[:n_out]


def _checkpoint_rule(in_avals, aliases, *args, jaxpr: Jaxpr, prevent_cse, differentiated: bool, policy):
    discharged, consts = open_jaxpr(discharge_jaxpr(jaxpr))
    if isinstance(prevent_cse, tuple):
        prevent_cse = (True,) * len(consts) + prevent_cse
    outs = checkpoint_p.bind(*consts, *args, **checkpoint_params(discharged, prevent_cse, differentiated, policy))
    finals = iter(outs[len(jaxpr.outvars):])
    return [next(finals) if is_ref_aval(a) else None for a in in_avals], outs[:len(jaxpr.outvars)]


def _cond_rule(in_avals, aliases, index, *args, branches: tuple[ClosedJaxpr, ...], **params):
    discharged = tuple(_closed_discharged(b) for b in branches)
    n_out = len(branches[0].jaxpr.outvars)
    outs = cond_p.bind(index, *args, branches=discharged, **params)
    finals = iter(outs[n_out:])
    return [None] + [next(finals) if is_ref_aval(a) else None for a in in_avals[1:]], outs[:n_out]


def _scan_rule(in_avals, aliases, *args, jaxpr: ClosedJaxpr, num_consts: int, num_carry: int, length: int,
               reverse: bool, unroll: int):
    """A scan closing over or scanning over references, as JAX discharges it: the arrays of every reference are
    carried, after an iteration counter; each iteration reads its slice of the scanned ones, calls the discharged
    body (a ``closed_call``) and writes the slices back."""
    if any(is_ref_aval(a) for a in in_avals[num_consts:num_consts + num_carry]):
        raise TypeError("scan: mutable array references may only be closed over or scanned over, not carried")
    is_ref = [is_ref_aval(a) for a in in_avals]
    const_ref, _, xs_ref = split_scan_args(is_ref, num_consts, num_carry)
    consts, carry, xs = split_scan_args(args, num_consts, num_carry)
    pure_consts = [c for c, r in zip(consts, const_ref) if not r]
    const_vals = [c for c, r in zip(consts, const_ref) if r]
    xs_vals = [x for x, r in zip(xs, xs_ref) if r]
    pure_xs = [x for x, r in zip(xs, xs_ref) if not r]
    n_pure, n_cref, n_xref, n_ys = len(pure_consts), len(const_vals), len(xs_vals), len(jaxpr.out_avals) - num_carry
    discharged = _closed_discharged(jaxpr)  # inputs: consts, carry, xs; outputs: carry, ys, ref finals

    def body(*values):
        given = iter(values)
        pure = [next(given) for _ in range(n_pure)]
        step = next(given)
        crefs, state, xrefs = ([next(given) for _ in range(n)] for n in (n_cref, num_carry, n_xref))
        pure_x = list(given)
        i = sub(sub(np.int32(length), step), np.int32(1)) if reverse else step  # as JAX computes it
        slices = [dynamic_index_in_dim(x, i, keepdims=False, allow_negative_indices=False) for x in xrefs]
        pure_it, cref_it, slice_it, x_it = iter(pure), iter(crefs), iter(slices), iter(pure_x)
        outs = bind_closed_call(discharged, [*[next(cref_it) if r else next(pure_it) for r in const_ref], *state,
                                             *[next(slice_it) if r else next(x_it) for r in xs_ref]])
        new_crefs = outs[num_carry + n_ys:num_carry + n_ys + n_cref]
        new_xrefs = [dynamic_update_index_in_dim(x, u, i, 0, allow_negative_indices=False)
                     for x, u in zip(xrefs, outs[num_carry + n_ys + n_cref:])]
        return [add(step, np.int32(1)), *new_crefs, *outs[:num_carry], *new_xrefs, *outs[num_carry:num_carry + n_ys]]

    avals = [get_aval(x) for x in [*pure_consts, np.int32(0), *const_vals, *carry, *xs_vals]]
    avals += [get_aval(x).update(shape=get_aval(x).shape[1:]) for x in pure_xs]
    closed = trace_to_jaxpr(body, avals)
    outs = scan_p.bind(*pure_consts, np.int32(0), *const_vals, *carry, *xs_vals, *pure_xs, jaxpr=closed,
                       num_consts=n_pure, num_carry=1 + n_cref + num_carry + n_xref, length=length, reverse=reverse,
                       unroll=unroll)
    finals = iter([*outs[1:1 + n_cref], *outs[1 + n_cref + num_carry:1 + n_cref + num_carry + n_xref]])
    new_values = [next(finals) if r else None for r in is_ref]
    return new_values, [*outs[1 + n_cref:1 + n_cref + num_carry], *outs[1 + n_cref + num_carry + n_xref:]]


def _while_rule(in_avals, aliases, *args, cond_nconsts: int, cond_jaxpr: ClosedJaxpr, body_nconsts: int,
                body_jaxpr: ClosedJaxpr):
    n_consts = cond_nconsts + body_nconsts
    if any(is_ref_aval(a) for a in in_avals[n_consts:]):
        raise TypeError("while_loop: mutable array references may only be closed over, not carried")
    # Every reference the condition or the body reads becomes a leading carry (one per reference, however many
    # of the two jaxprs' consts it is).
    carried = [i for i in _ref_positions(in_avals[:n_consts]) if aliases[i] == i]
    slot = {i: carried.index(aliases[i]) for i in _ref_positions(in_avals[:n_consts])}
    n_refs, n_carry = len(carried), len(args) - n_consts
    kept = [i for i in range(n_consts) if i not in slot]
    cond_kept = [i for i in kept if i < cond_nconsts]
    body_kept = [i for i in kept if i >= cond_nconsts]
    body_d, cond_d = _closed_discharged(body_jaxpr), _closed_discharged(cond_jaxpr)

    def consts_of(positions: range, kept_values: Sequence[Any], refs_in: Sequence[Any]) -> list[Any]:
        given = dict(zip([i for i in kept if i in positions], kept_values))
        return [refs_in[slot[i]] if i in slot else given[i] for i in positions]

    def new_body(*values):
        consts, refs_in, state = values[:len(body_kept)], values[len(body_kept):-n_carry or None], \
            values[len(values) - n_carry:]
        positions = range(cond_nconsts, n_consts)
        outs = core.eval_jaxpr(body_d.jaxpr, body_d.consts, *consts_of(positions, consts, refs_in), *state)
        refs_out = list(refs_in)
        for i, final in zip([i for i in positions if i in slot], outs[n_carry:]):
            refs_out[slot[i]] = final
        return refs_out + outs[:n_carry]

    def new_cond(*values):
        consts, refs_in, state = values[:len(cond_kept)], values[len(cond_kept):-n_carry or None], \
            values[len(values) - n_carry:]
        return core.eval_jaxpr(cond_d.jaxpr, cond_d.consts, *consts_of(range(cond_nconsts), consts, refs_in),
                               *state)[:1]

    carry_avals = [get_aval(c) for c in args[n_consts:]]
    ref_avals = [value_aval(in_avals[i]) for i in carried]
    body_closed = trace_to_jaxpr(new_body, [get_aval(args[i]) for i in body_kept] + ref_avals + carry_avals)
    cond_closed = trace_to_jaxpr(new_cond, [get_aval(args[i]) for i in cond_kept] + ref_avals + carry_avals)
    outs = while_p.bind(*[args[i] for i in cond_kept], *[args[i] for i in body_kept], *[args[i] for i in carried],
                        *args[n_consts:], cond_nconsts=len(cond_kept), cond_jaxpr=cond_closed,
                        body_nconsts=len(body_kept), body_jaxpr=body_closed)
    new_values: list[Any] = [None] * len(in_avals)
    for i, final in zip(carried, outs[:n_refs]):
        new_values[i] = final
    return new_values, outs[n_refs:]


discharge_rules[jit_p] = _jit_rule
discharge_rules[checkpoint_p] = _checkpoint_rule
discharge_rules[closed_call_p] = _closed_call_rule
discharge_rules[cond_p] = _cond_rule
discharge_rules[scan_p] = _scan_rule
discharge_rules[while_p] = _while_rule


# ---------------------------------------------------------------- running references


def apply_eagerly(primitive: Primitive, args: Sequence[Any], params: dict) -> Any:
    """Apply ``primitive`` outside any transformation to operands among which are eager ``Ref`` objects (or, for
    ``new_ref``, that make one): its discharge rule runs on the arrays they hold, and what it writes is stored
    back."""
    rule = discharge_rules.get(primitive)
    if rule is None:
        raise TypeError(f"mutable array references are not supported by `{primitive}`")
    in_avals = [get_aval(x) for x in args]
    values = [x._value if type(x) is Ref else x for x in args]
    if primitive is refs.new_ref_p or primitive is refs.empty_ref_p:
        aval = core.abstract_eval(primitive, in_avals, params)
        _, (value,) = rule(in_avals, [0] * len(args), *values, **params)
        return Ref(copy_p.bind(value), aval)
    core.abstract_eval(primitive, in_avals, params)  # JAX's errors for bad operands
    _check_static_bounds(in_avals, params)
    new_values, outs = rule(in_avals, operand_aliases(args), *values, **params)
    for ref, new in zip(args, new_values):
        if type(ref) is Ref and new is not None:
            ref._value = new
    outs = [copy_p.bind(o) if any(o is v for v in values) else o for o in outs]
    return outs if primitive.multiple_results else outs[0]


def _check_static_bounds(in_avals: Sequence[Any], params: dict) -> None:
    indexer = params.get("indexer")
    if not indexer or not is_ref_aval(in_avals[0]):
        return
    for d, n in zip(indexer, in_avals[0].shape):
        if d.kind == "int" and d.start is not None and not -n <= d.start < n:
            raise ValueError(f"Out of bound indexer: idx={d.start}, dim={n}.")


def _check_distinct(args: Sequence[Any], describe: Callable[[int], str], where: str) -> None:
    """JAX's error for one reference passed as two arguments of a jitted function."""
    seen: dict[int, int] = {}
    for i, x in enumerate(args):
        if type(x) is Ref:
            if id(x) in seen:
                raise ValueError("only one reference to a mutable array may be passed as an argument to a function, "
                                 f"but when tracing {where} the mutable array reference of type {x.aval} appeared at "
                                 f"both {describe(seen[id(x)])} and {describe(i)}.")
            seen[id(x)] = i


def discharged_program(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list[int]]:
    """``closed`` as a program a backend can run: the references it closes over become its last inputs, after its
    arguments, as in JAX (their positions among ``closed.consts`` returned), every reference input takes its array,
    and the arrays the references hold at the end follow the outputs. JAX's error when it returns a reference."""
    jaxpr = closed.jaxpr
    for aval in jaxpr.out_avals:
        if is_ref_aval(aval):
            info = jaxpr.debug_info
            what = f"function {info.func_name} at {info.source} traced for {info.traced_for}" if info else "function"
            raise ValueError(f"{what} returned a mutable array reference of type {aval}, but mutable array "
                             "references cannot be returned.")
    ref_consts = [i for i, c in enumerate(closed.consts) if type(c) is Ref]
    kept = [i for i in range(len(closed.consts)) if i not in ref_consts]
    hoisted = jaxpr.replace(constvars=[jaxpr.constvars[i] for i in kept],
                            invars=jaxpr.invars + [jaxpr.constvars[i] for i in ref_consts])
    return discharge_jaxpr(hoisted, [closed.consts[i] for i in kept]), ref_consts


def untouched_references_as_arrays(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with the reference arguments no equation reads or writes taken as arrays: JAX's lowering prunes
    those before it discharges references, so they have no final value (and go as unused arguments do)."""
    used = {id(v) for eqn in closed.jaxpr.eqns for v in eqn.invars}
    invars = [Var(value_aval(v.aval)) if is_ref_aval(v.aval) and id(v) not in used else v
              for v in closed.jaxpr.invars]
    return ClosedJaxpr(closed.jaxpr.replace(invars=invars), closed.consts)


def reference_inputs(closed: ClosedJaxpr, ref_consts: Sequence[int]) -> list[bool]:
    """Which inputs of ``closed``'s ``discharged_program`` (given the ``ref_consts`` it returned) are the arrays of
    references: its reference arguments, and the references it closes over."""
    return [is_ref_aval(v.aval) for v in closed.jaxpr.invars] + [True] * len(ref_consts)


def compile_with_refs(compile: Callable[..., Any], closed: ClosedJaxpr, name: str, donated: Sequence[bool],
                      keep_unused: bool, device: Any) -> Callable[..., list[Any]]:
    """``compile`` (a backend's) applied to ``closed`` with its references discharged. The executable returned
    takes ``closed``'s arguments, ``Ref`` objects included: it passes the arrays of those (and of the references
    ``closed`` closes over), donating them, and stores the arrays they hold afterwards."""
    discharged, ref_consts = discharged_program(closed)
    closed_refs = [closed.consts[i] for i in ref_consts]
    is_ref = reference_inputs(closed, ref_consts)
    donate = [d or r for d, r in zip(donated, is_ref)] + [True] * len(closed_refs)
    executable = compile(discharged, name, tuple(donate), keep_unused, device)
    n_out = len(closed.jaxpr.outvars)
    info = closed.jaxpr.debug_info
    arg_names = list(info.arg_names) if info else []
    where = f"{info.func_name} at {info.source} for {info.traced_for}" if info else "a function"

    def describe(i: int) -> str:
        return arg_names[i] if i < len(arg_names) else f"argument {i}"

    def run(*args):
        _check_distinct(args, describe, where)
        all_args = (*args, *closed_refs)
        outs = executable(*[x._value if type(x) is Ref else x for x in all_args])
        finals = iter(outs[n_out:])
        for x, ref in zip(all_args, is_ref):
            if ref:
                x._value = next(finals)
        return outs[:n_out]

    run.as_text = getattr(executable, "as_text", None)
    # what a Compiled reports: the discharged program's, the references' arrays among its arguments and results
    run.shardings = getattr(executable, "shardings", None)
    run.layouts = getattr(executable, "layouts", None)
    run.runtime_executable = getattr(executable, "runtime_executable", None)
    return run
