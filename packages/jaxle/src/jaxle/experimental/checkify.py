"""``jax.experimental.checkify``: runtime checks as values.

``checkify(f)`` returns a function computing ``(error, f(...))``: the checks that ``f`` makes with ``check`` (and,
as ``errors`` asks, checks jaxle adds after primitives: NaNs produced, division by zero, out-of-bounds indices)
are computed beside its result instead of raising, so ``f`` can be jitted and vmapped. ``error.get()`` is the
message of the first check that failed (per mapped index under vmap) or None; ``error.throw()`` raises it.

``f`` runs under a ``CheckifyTrace``, an interpreter that applies each primitive as the enclosing transformation
would and adds its checks (a ``check`` is the ``check`` primitive) as flags and message arguments; calls (``jit``)
are interpreted inline, as are functions with custom derivatives when no differentiation encloses ``checkify``.
Inside control flow (``cond``, ``while_loop``, ``scan``), ``checkpoint`` and ``shard_map`` the bodies are checked
too, and their checks carried out as extra outputs; checks inside other primitives carrying jaxprs (and inside
custom-derivative functions under a differentiation that encloses ``checkify``) raise a ValueError.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, lax
from jaxle_core.ad.jvp import JVPTrace, jvp_rules
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.batching.rule_helpers import batch_size
from jaxle_core.batching.trace import at_dim, batching_rules, move_dim
from jaxle_core.checkpoint import checkpoint_p, open_jaxpr
from jaxle_core.core import ClosedJaxpr, Jaxpr, Literal, Primitive, Tracer
from jaxle_core.custom_derivatives import custom_jvp_call_p, custom_vjp_call_p
from jaxle_core.dtypes import is_extended
from jaxle_core.jaxpr_util import sub_jaxprs
from jaxle_core.jit import jit_p
from jaxle_core.mesh import PartitionSpec
from jaxle_core.shard_map import body_context, shard_map_p
from jaxle_core.staging import trace_to_jaxpr
from jaxle_xla.api import device_put

__all__ = ["Error", "ErrorCategory", "JaxRuntimeError", "all_checks", "automatic_checks", "check", "check_error",
           "checkify", "debug_check", "div_checks", "float_checks", "index_checks", "init_error", "nan_checks",
           "user_checks"]


class JaxRuntimeError(ValueError):
    """A check that failed, raised by ``Error.throw`` (or by ``check`` applied to concrete values)."""


class JaxException(Exception):
    """The kinds of check (``ErrorCategory``): each subclass is one category."""


class FailedCheckError(JaxException):
    """A ``check`` whose predicate was false."""


class NaNError(JaxException):
    """A primitive produced a NaN."""


class DivisionByZeroError(JaxException):
    """A division by zero."""


class OOBError(JaxException):
    """An index out of bounds."""


ErrorCategory = type[JaxException]

user_checks: frozenset = frozenset({FailedCheckError})
nan_checks: frozenset = frozenset({NaNError})
div_checks: frozenset = frozenset({DivisionByZeroError})
index_checks: frozenset = frozenset({OOBError})
float_checks = nan_checks | div_checks
automatic_checks = float_checks | index_checks
all_checks = automatic_checks | user_checks


# ---------------------------------------------------------------- the check primitive

class _Functionalizing(threading.local):
    depth = 0


_functionalizing = _Functionalizing()


@contextmanager
def _tracing_for_checkify():
    _functionalizing.depth += 1
    try:
        yield
    finally:
        _functionalizing.depth -= 1


check_p = Primitive("check")
check_p.multiple_results = True
check_p.effectful = True


@check_p.def_abstract_eval
def _check_abstract_eval(pred, *fmt_args, **params):
    if not _functionalizing.depth:
        raise ValueError("Cannot abstractly evaluate a checkify.check which was not functionalized. This probably "
                         "means you tried to stage (jit/scan/pmap/...) a `check` without functionalizing it through "
                         "`checkify.checkify`.")
    return []


def _check_batcher(vals, dims, *, msg, fmt_tree):
    """A check of a batch holds when it holds for every element; the message's values are those of the last element
    it fails for (as JAX reports a batched check)."""
    pred, *fmt_leaves = vals
    pred_dim, *fmt_dims = dims
    size = batch_size(vals, dims)
    failed = lax.bitwise_not(at_dim(pred, pred_dim, size, 0))
    last = lax.sub(np.int32(size - 1), lax.argmax(lax.rev(failed, (0,)), 0, np.int32))
    fmt_leaves = [x if d is None else lax.dynamic_index_in_dim(move_dim(x, d, 0), last, 0, keepdims=False)
                  for x, d in zip(fmt_leaves, fmt_dims)]
    check_p.bind(lax.bitwise_not(lax.reduce_or(failed, (0,))), *fmt_leaves, msg=msg, fmt_tree=fmt_tree)
    return [], []


batching_rules[check_p] = _check_batcher


def _check_jvp(primals, tangents, **params):
    """A check reads primal values only: differentiation keeps it and adds no tangents."""
    return check_p.bind(*primals, **params), []


jvp_rules[check_p] = _check_jvp


def _user_message(msg: str, fmt_tree: Any, fmt_leaves: Sequence[Any]) -> str:
    # formatted as arrays, as JAX formats them (``Array(nan, dtype=float32)`` inside containers)
    args, kwargs = tree.tree_unflatten(fmt_tree, [x if isinstance(x, Array) else device_put(x) for x in fmt_leaves])
    return f"{msg.format(*args, **kwargs)} (`check` failed)"


def _check_format_arguments(fmt_leaves: Sequence[Any]) -> None:
    for x in fmt_leaves:
        if not isinstance(x, Tracer) and not hasattr(x, "shape"):
            raise TypeError(f"Formatting arguments to checkify.check need to be PyTrees of arrays, but got {x!r} of "
                            f"type {type(x)}.")


def _check_predicate(pred: Any) -> None:
    if isinstance(pred, bool):
        return
    if isinstance(pred, (Array, Tracer)) and get_aval(pred).shape == () and get_aval(pred).dtype == np.bool_:
        return
    raise TypeError(f"check takes a scalar pred as argument, got {pred}")


def check(pred: Any, msg: str, *fmt_args: Any, debug: bool = False, **fmt_kwargs: Any) -> None:
    """Check that ``pred`` (a Python bool or a boolean scalar array) is true; ``msg`` is formatted with
    ``fmt_args``/``fmt_kwargs`` (arrays) when it is not. Outside ``checkify`` a false concrete predicate raises
    JaxRuntimeError at once; a traced one must be functionalized by ``checkify``."""
    _check_predicate(pred)
    fmt_leaves, fmt_tree = tree.tree_flatten((fmt_args, fmt_kwargs))
    _check_format_arguments(fmt_leaves)
    if not _functionalizing.depth and not isinstance(pred, Tracer) and not any(
            isinstance(x, Tracer) for x in fmt_leaves):
        if debug:
            return
        if not pred:
            raise JaxRuntimeError(_user_message(msg, fmt_tree, fmt_leaves))
        return
    if debug and not _functionalizing.depth:
        return
    check_p.bind(pred, *fmt_leaves, msg=msg, fmt_tree=fmt_tree)


def debug_check(pred: Any, msg: str, *fmt_args: Any, **fmt_kwargs: Any) -> None:
    """A ``check`` that only ``checkify`` acts on: elsewhere it does nothing."""
    check(pred, msg, *fmt_args, debug=True, **fmt_kwargs)


# ---------------------------------------------------------------- errors as values

class _Found:
    """One check of a checkified function: the flag saying it failed and the values its message reads."""

    __slots__ = ("category", "describe", "failed", "payload")

    def __init__(self, category: type, describe: Callable[[Sequence[Any]], str], failed: Any, payload: Sequence):
        self.category, self.describe, self.failed, self.payload = category, describe, failed, list(payload)


class _Same:
    """A message value of a check made once, standing for every mapped index of an error made per index."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __getitem__(self, index: Any) -> _Same:
        return self


def _per_index(payload: Any, mapped: bool) -> Any:
    """A message value indexable by mapped index: a check's own values when it was made per index (PRNG keys kept
    as arrays, NumPy otherwise), the value itself for every index when it was made once."""
    if not mapped:
        return _Same(payload)
    return payload if is_extended(get_aval(payload).dtype) else np.asarray(payload)


def _failures_by_index(shape: tuple, found: Sequence[_Found], failed: Sequence[np.ndarray],
                    payloads: Sequence[Sequence[Any]]) -> list[tuple[tuple, _Found, str]]:
    """Per index of ``shape`` where one of ``found`` failed (``failed`` and ``payloads`` cover every index): the
    index, the first check that failed there and its message."""
    failures = []
    for index in np.ndindex(*shape):
        first = next((k for k, flag in enumerate(failed) if flag[index]), None)
        if first is None:
            continue
        values = [p[index] for p in payloads[first]]
        failures.append((index, found[first],
                         found[first].describe([v.value if isinstance(v, _Same) else v for v in values])))
    return failures


def _joined(failures: Sequence[tuple[tuple, _Found, str]], mapped: bool) -> str | None:
    """One line per failure, prefixed by its index when the error is mapped; None when there is none."""
    if not failures:
        return None
    return "\n".join(f"at mapped index {', '.join(map(str, index))}: {text}" if mapped else text
                     for index, _, text in failures)


class BatchedError(JaxException):
    """The failures of a mapped error (``get_exception`` of an error from vmap or shard_map): ``error_mapping``
    holds each failing index's exception."""

    def __init__(self, error_mapping: dict[tuple, JaxException], message: str):
        super().__init__(message)
        self.error_mapping = error_mapping


class Error:
    """The outcome of a checkified function's checks: which failed first, and the message's values.

    A pytree (its leaves are arrays), so it can be returned from ``jit`` and batched by ``vmap``.
    """

    def __init__(self, found: Sequence[_Found] = ()):
        self._found = list(found)

    def _flags(self) -> tuple[list[np.ndarray], tuple]:
        """Each check's failed flag and the shape of the mapped indices (checks made once stand for every mapped
        index of those made per index, inside shard_map)."""
        flags = [np.asarray(f.failed) for f in self._found]
        return flags, np.broadcast_shapes(*(flag.shape for flag in flags)) if flags else ()

    def _failures(self) -> tuple[list[tuple[tuple, _Found, str]], bool]:
        """Each failing index's first failed check and message, and whether the error is mapped."""
        flags, shape = self._flags()
        failed = [np.broadcast_to(flag, shape) for flag in flags]
        payloads = [[_per_index(p, flag.ndim > 0) for p in f.payload] for f, flag in zip(self._found, flags)]
        return _failures_by_index(shape, self._found, failed, payloads), bool(shape)

    def _reduced_message(self) -> str | None:
        """What ``throw`` reports, as JAX reduces a mapped error before raising it: the checks are grouped by kind
        (category and the types of one index's message values); per index, a group holds its first failed check;
        each group keeps its last failing index along the mapped axis (over several mapped axes, JAX's indexing
        leaves several); then, per remaining index, the earliest check is reported."""
        flags, shape = self._flags()
        if not shape:
            return self.get()
        groups: dict[tuple, list[int]] = {}
        for k, (found, flag) in enumerate(zip(self._found, flags)):
            kinds = tuple((get_aval(p).shape[flag.ndim:], get_aval(p).dtype) for p in found.payload)
            groups.setdefault((found.category, kinds), []).append(k)
        reduced: dict[int, tuple[np.ndarray, list[Any]]] = {}  # check -> its failed flags and values, reduced
        for members in groups.values():
            failed = np.stack([np.broadcast_to(flags[k], shape) for k in members])
            any_failed = failed.any(axis=0)
            first = np.argmax(failed, axis=0)  # the group's earliest failed check, per index
            # JAX's choice: the last place of a stable sort of the flags along the last axis, taken in the first
            # axis's last row, indexes the first axis (one index for an error mapped over one axis; over several,
            # the indices are clamped to the first axis, as JAX's indexing clamps them)
            last = np.minimum(np.argsort(any_failed, axis=-1, kind="stable")[-1], shape[0] - 1)
            for position, k in enumerate(members):
                reduced[k] = ((any_failed & (first == position))[last],
                              [_per_index(p, flags[k].ndim > 0)[last] for p in self._found[k].payload])
        order = sorted(reduced)
        reduced_shape = np.shape(reduced[order[0]][0])
        failures = _failures_by_index(reduced_shape, [self._found[k] for k in order],
                                      [reduced[k][0] for k in order], [reduced[k][1] for k in order])
        return _joined(failures, bool(reduced_shape))

    def get(self) -> str | None:
        """The message of the first failed check (one line per failing mapped index under vmap), or None."""
        return _joined(*self._failures())

    def get_exception(self) -> JaxException | None:
        """The failure as an exception of its category (``FailedCheckError``, ``NaNError``, ...; a ``BatchedError``
        for an error mapped by vmap or shard_map), or None when every check held."""
        failures, mapped = self._failures()
        if not failures:
            return None
        if not mapped:
            _, found, text = failures[0]
            return found.category(text)
        return BatchedError({index: found.category(text) for index, found, text in failures},
                            _joined(failures, mapped))

    def throw(self) -> None:
        """Raise JaxRuntimeError with the first failure's message, if a check failed (for an error mapped by vmap
        or shard_map, the failure JAX picks: see ``_reduced_message``)."""
        message = self._reduced_message()
        if message is not None:
            raise JaxRuntimeError(message)

    def __repr__(self) -> str:
        return f"Error({self.get()})"


def _error_flatten(error: Error):
    leaves = [(f.failed, *f.payload) for f in error._found]
    meta = tuple((f.category, f.describe, len(f.payload)) for f in error._found)
    return leaves, meta


def _error_unflatten(meta, leaves) -> Error:
    return Error([_Found(category, describe, entry[0], entry[1:]) for (category, describe, _), entry
                  in zip(meta, leaves)])


tree.register_pytree_node(Error, _error_flatten, _error_unflatten)

init_error = Error()


def check_error(error: Error) -> None:
    """Raise ``error``'s failure (a concrete Error); under ``checkify``, add its checks to the function's."""
    leaves = tree.tree_leaves(error)
    if not any(isinstance(x, Tracer) for x in leaves):
        error.throw()
        return
    for found in error._found:
        check_p.bind(lax.bitwise_not(found.failed), *found.payload, msg=found.describe, fmt_tree=found.category)


# ---------------------------------------------------------------- the checking interpreter

def _reduce_any(x: Any) -> Any:
    ndim = get_aval(x).ndim
    return lax.reduce_or(x, tuple(range(ndim))) if ndim else x


def _contains_checks(jaxpr: Jaxpr) -> bool:
    return any(eqn.primitive is check_p or any(map(_contains_checks, sub_jaxprs(eqn.params))) for eqn in jaxpr.eqns)


def _describe_check(msg: Any, fmt_tree: Any) -> Callable[[Sequence[Any]], str]:
    if callable(msg):  # a check re-inserted by check_error: its own description
        return msg
    return lambda payload: _user_message(msg, fmt_tree, payload)


def _division_checks(primitive: Primitive, args: Sequence[Any]) -> list[_Found]:
    if primitive is not lax.div_p:
        return []
    failed = _reduce_any(lax.eq(args[1], lax.full_like(args[1], 0)))
    return [_Found(DivisionByZeroError, lambda payload: "division by zero", failed, [])]


def _nan_checks(primitive: Primitive, outs: Sequence[Any]) -> list[_Found]:
    floats = [x for x in outs if np.issubdtype(get_aval(x).dtype, np.inexact)]
    if not floats:
        return []
    name = primitive.name
    failed = _reduce_any(lax.ne(floats[0], floats[0]))
    for x in floats[1:]:
        failed = lax.bitwise_or(failed, _reduce_any(lax.ne(x, x)))
    return [_Found(NaNError, lambda payload: f"nan generated by primitive: {name}.", failed, [])]


def _out_of_bounds(shape: tuple, starts: Sequence[tuple[int, Any, int]]) -> list[_Found]:
    """Checks that each ``(axis, start, window)`` keeps the window inside ``shape``: the first bad index reported."""
    found = []
    for axis, start, window in starts:
        start = lax.convert_element_type(start, np.int64 if get_aval(start).dtype.itemsize == 8 else np.int32)
        bad = lax.bitwise_or(lax.lt(start, lax.full_like(start, 0)),
                             lax.gt(start, lax.full_like(start, shape[axis] - window)))
        if get_aval(start).ndim:  # several indices: report the first bad one
            flat_bad = lax.reshape(bad, (int(np.prod(get_aval(bad).shape)),))
            first = lax.argmax(flat_bad, 0, np.int32)
            start = lax.dynamic_index_in_dim(lax.reshape(start, get_aval(flat_bad).shape), first, 0, keepdims=False)
            bad = _reduce_any(bad)

        def describe(payload, axis=axis):
            return (f"out-of-bounds indexing for array of shape {shape}: index {int(payload[0])} is out of bounds "
                    f"for axis {axis} with size {shape[axis]}. ")

        found.append(_Found(OOBError, describe, bad, [start]))
    return found


def _index_checks(primitive: Primitive, args: Sequence[Any], params: dict) -> list[_Found]:
    if primitive is lax.gather_p:
        operand, indices = args[0], args[1]
        shape = get_aval(operand).shape
        dnums = params["dimension_numbers"]
        return _out_of_bounds(shape, [(axis, lax.index_in_dim(indices, k, get_aval(indices).ndim - 1, False),
                                       params["slice_sizes"][axis])
                                      for k, axis in enumerate(dnums.start_index_map)])
    if primitive is lax.dynamic_slice_p:
        operand, *starts = args
        shape = get_aval(operand).shape
        return _out_of_bounds(shape, [(axis, s, size) for axis, (s, size)
                                      in enumerate(zip(starts, params["slice_sizes"]))])
    if primitive in (lax.scatter_p, lax.scatter_add_p, lax.scatter_mul_p, lax.scatter_min_p, lax.scatter_max_p):
        operand, indices, updates = args[0], args[1], args[2]
        shape = get_aval(operand).shape
        dnums = params["dimension_numbers"]
        window = [d for d in range(len(shape)) if d not in dnums.inserted_window_dims
                  and d not in dnums.operand_batching_dims]
        sizes = dict(zip(window, (get_aval(updates).shape[d] for d in dnums.update_window_dims)))
        return _out_of_bounds(shape, [(axis, lax.index_in_dim(indices, k, get_aval(indices).ndim - 1, False),
                                       sizes.get(axis, 1))
                                      for k, axis in enumerate(dnums.scatter_dims_to_operand_dims)])
    return []


def _checked_outputs(found: list[_Found], errors: frozenset, primitive: Primitive, invals: Sequence[Any],
                     params: dict) -> Any:
    """Apply ``primitive`` (under the current trace), adding the checks ``errors`` asks for to ``found``."""
    if primitive is check_p:
        category = params["fmt_tree"] if callable(params["msg"]) else FailedCheckError
        if category in errors:
            found.append(_Found(category, _describe_check(params["msg"], params["fmt_tree"]),
                                lax.bitwise_not(invals[0]), invals[1:]))
        return []
    if primitive is jit_p:  # a call: its body checked inline
        body: ClosedJaxpr = params["jaxpr"]
        return _eval_checked(body.jaxpr, body.consts, invals, errors, found)
    control_flow = _CONTROL_FLOW.get(primitive)
    outs = None if control_flow is None else control_flow(found, errors, invals, params)
    if outs is not None:
        return outs
    if (control_flow is None or primitive in (custom_jvp_call_p, custom_vjp_call_p)) and \
            any(map(_contains_checks, sub_jaxprs(params))):
        raise ValueError(f"checkify: jaxle does not support checks inside {primitive.name}; check before or after "
                         "it.")
    if DivisionByZeroError in errors:
        found += _division_checks(primitive, invals)
    if OOBError in errors:
        found += _index_checks(primitive, invals, params)
    outs = primitive.bind(*invals, **params)
    if NaNError in errors:
        found += _nan_checks(primitive, outs if primitive.multiple_results else [outs])
    return outs


def _eval_checked(jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any], errors: frozenset,
                  found: list[_Found]) -> list[Any]:
    env: dict = dict(zip(jaxpr.constvars, consts))
    env.update(zip(jaxpr.invars, args))

    def read(atom):
        return atom.val if type(atom) is Literal else env[atom]

    for eqn in jaxpr.eqns:
        outs = _checked_outputs(found, errors, eqn.primitive, [read(a) for a in eqn.invars], eqn.params)
        env.update(zip(eqn.outvars, outs if eqn.primitive.multiple_results else [outs]))
    return [read(v) for v in jaxpr.outvars]


# ---------------------------------------------------------------- checks inside control flow
# A body's checks are computed as extra outputs (a failed flag and the message's values per check), so each
# control-flow primitive carries them out: ``cond`` returns those of the branch taken (the others' flags false),
# and loops carry each check's first failure. As in JAX, the error reported is that of the first check, in
# program order, that failed in any iteration.


class _Slot(NamedTuple):
    """One check inside a body: its category, how its message reads, and the avals of its message's values."""

    category: type
    describe: Callable[[Sequence[Any]], str]
    payload_avals: tuple[ShapedArray, ...]


def _strong(x: Any) -> Any:
    """``x`` without a weak type, so that a loop's carried values keep one type."""
    aval = get_aval(x)
    return lax.convert_element_type_p.bind(x, new_dtype=aval.dtype, weak_type=False, sharding=None)


def _flat(found: Sequence[_Found]) -> list[Any]:
    return [v for f in found for v in (_strong(f.failed), *map(_strong, f.payload))]


def _checked_jaxpr(closed: ClosedJaxpr, errors: frozenset) -> tuple[ClosedJaxpr, list[_Slot]]:
    """``closed`` returning its outputs, then each of its checks' flag and message values (``_flat``)."""
    slots: list[_Slot] = []

    def fun(*args: Any) -> list[Any]:
        found: list[_Found] = []
        outs = _eval_checked(closed.jaxpr, closed.consts, args, errors, found)
        slots[:] = [_Slot(f.category, f.describe, tuple(get_aval(_strong(p)) for p in f.payload)) for f in found]
        return [*outs, *_flat(found)]

    return trace_to_jaxpr(fun, closed.in_avals), slots


def _no_failures(slots: Sequence[_Slot]) -> list[Any]:
    """The flat state of ``slots`` where no check failed: false flags, zero message values."""
    return [v for slot in slots for v in (lax.full((), False, np.bool_),
                                          *(lax.full(a.shape, 0, a.dtype) for a in slot.payload_avals))]


def _split(flat: Sequence[Any], slots: Sequence[_Slot]) -> list[tuple[Any, list[Any]]]:
    """Flat check state as ``(flag, message values)`` per slot."""
    out, at = [], 0
    for slot in slots:
        n = len(slot.payload_avals)
        out.append((flat[at], list(flat[at + 1:at + 1 + n])))
        at += 1 + n
    return out


def _first_failures(state: Sequence[Any], new: Sequence[Any], slots: Sequence[_Slot]) -> list[Any]:
    """``state`` updated with the failures of ``new`` (same slots): each check keeps its first failure."""
    out = []
    for (old_flag, old_payload), (flag, payload) in zip(_split(state, slots), _split(new, slots)):
        takes = lax.bitwise_and(flag, lax.bitwise_not(old_flag))
        out += [lax.bitwise_or(old_flag, takes), *(lax.select_n(takes, o, p) for o, p in zip(old_payload, payload))]
    return out


def _found_from(flat: Sequence[Any], slots: Sequence[_Slot]) -> list[_Found]:
    return [_Found(slot.category, slot.describe, flag, payload) for slot, (flag, payload) in zip(slots, _split(
        flat, slots))]


def _checked_cond(found: list[_Found], errors: frozenset, invals: Sequence[Any], params: dict) -> Any:
    checked = [_checked_jaxpr(branch, errors) for branch in params["branches"]]
    if not any(slots for _, slots in checked):
        return None
    all_slots = [slot for _, slots in checked for slot in slots]
    n_outs = len(params["branches"][0].out_avals)
    branches = []
    for i, (branch, _) in enumerate(checked):
        def fun(*args: Any, branch=branch, i=i) -> list[Any]:
            outs = core.eval_jaxpr(branch.jaxpr, branch.consts, *args)
            before = [s for _, other in checked[:i] for s in other]
            after = [s for _, other in checked[i + 1:] for s in other]
            return [*outs[:n_outs], *_no_failures(before), *outs[n_outs:], *_no_failures(after)]

        branches.append(trace_to_jaxpr(fun, branch.in_avals))
    outs = lax.cond_p.bind(*invals, branches=tuple(branches))
    found += _found_from(outs[n_outs:], all_slots)
    return outs[:n_outs]


def _checked_scan(found: list[_Found], errors: frozenset, invals: Sequence[Any], params: dict) -> Any:
    body, slots = _checked_jaxpr(params["jaxpr"], errors)
    if not slots:
        return None
    num_consts, num_carry = params["num_consts"], params["num_carry"]
    n_state, n_outs = sum(1 + len(s.payload_avals) for s in slots), len(params["jaxpr"].out_avals)

    def step(*args: Any) -> list[Any]:
        consts, state, rest = args[:num_consts], args[num_consts:num_consts + n_state], args[num_consts + n_state:]
        outs = core.eval_jaxpr(body.jaxpr, body.consts, *consts, *rest)
        return [*_first_failures(state, outs[n_outs:], slots), *outs[:n_outs]]

    avals = list(body.in_avals)
    state_avals = [get_aval(x) for x in _no_failures(slots)]
    new_body = trace_to_jaxpr(step, [*avals[:num_consts], *state_avals, *avals[num_consts:]])
    consts, rest = invals[:num_consts], invals[num_consts:]
    outs = lax.scan_p.bind(*consts, *_no_failures(slots), *rest, **dict(params, jaxpr=new_body,
                                                                      num_carry=n_state + num_carry))
    found += _found_from(outs[:n_state], slots)
    return outs[n_state:]


def _checked_while(found: list[_Found], errors: frozenset, invals: Sequence[Any], params: dict) -> Any:
    cond, cond_slots = _checked_jaxpr(params["cond_jaxpr"], errors)
    body, body_slots = _checked_jaxpr(params["body_jaxpr"], errors)
    if not cond_slots and not body_slots:
        return None
    cond_nconsts, body_nconsts = params["cond_nconsts"], params["body_nconsts"]
    cond_consts, body_consts = invals[:cond_nconsts], invals[cond_nconsts:cond_nconsts + body_nconsts]
    init = invals[cond_nconsts + body_nconsts:]
    n_carry = len(init)
    # the condition's checks on the initial carry (before the loop) come first, then the body's, then those of
    # the condition on each new carry, each check keeping its first failure
    first_cond = core.eval_jaxpr(cond.jaxpr, cond.consts, *cond_consts, *init)[1:]
    loop_slots = [*body_slots, *cond_slots]
    state = _no_failures(loop_slots)
    n_state, n_body_state = len(state), len(_no_failures(body_slots))

    def new_cond(*args: Any) -> Any:
        consts, carry = args[:cond_nconsts], args[cond_nconsts + n_state:]
        return core.eval_jaxpr(cond.jaxpr, cond.consts, *consts, *carry)[:1]

    def new_body(*args: Any) -> list[Any]:
        b_consts, c_consts = args[:body_nconsts], args[body_nconsts:body_nconsts + cond_nconsts]
        state, carry = args[body_nconsts + cond_nconsts:len(args) - n_carry], args[len(args) - n_carry:]
        outs = core.eval_jaxpr(body.jaxpr, body.consts, *b_consts, *carry)
        new_carry = outs[:n_carry]
        cond_found = core.eval_jaxpr(cond.jaxpr, cond.consts, *c_consts, *new_carry)[1:]
        body_state = _first_failures(state[:n_body_state], outs[n_carry:], body_slots)
        return [*body_state, *_first_failures(state[n_body_state:], cond_found, cond_slots), *new_carry]

    carry_avals = [get_aval(x) for x in init]
    state_avals = [get_aval(x) for x in state]
    cond_jaxpr = trace_to_jaxpr(new_cond, [*cond.in_avals[:cond_nconsts], *state_avals, *carry_avals])
    body_jaxpr = trace_to_jaxpr(new_body, [*body.in_avals[:body_nconsts], *cond.in_avals[:cond_nconsts],
                                           *state_avals, *carry_avals])
    outs = lax.while_p.bind(*cond_consts, *body_consts, *cond_consts, *state, *init, cond_jaxpr=cond_jaxpr,
                            body_jaxpr=body_jaxpr, cond_nconsts=cond_nconsts,
                            body_nconsts=body_nconsts + cond_nconsts)
    found += _found_from(first_cond, cond_slots) + _found_from(outs[:n_state], loop_slots)
    return outs[n_state:]


def _checked_checkpoint(found: list[_Found], errors: frozenset, invals: Sequence[Any], params: dict) -> Any:
    body, slots = _checked_jaxpr(ClosedJaxpr(params["jaxpr"], []), errors)
    if not slots:
        return None
    jaxpr, consts = open_jaxpr(body)
    prevent_cse = params["prevent_cse"]
    if isinstance(prevent_cse, tuple):
        prevent_cse = (True,) * len(consts) + prevent_cse
    outs = checkpoint_p.bind(*consts, *invals, **dict(params, jaxpr=jaxpr, prevent_cse=prevent_cse))
    n_outs = len(params["jaxpr"].outvars)
    found += _found_from(outs[n_outs:], slots)
    return outs[:n_outs]


def _checked_shard_map(found: list[_Found], errors: frozenset, invals: Sequence[Any], params: dict) -> Any:
    """Each shard's checks come out stacked, one row per shard (mesh order): an error per shard, reported at its
    mapped index, as JAX reports it."""
    with body_context(params["mesh"], params["check_vma"], params["newly_manual_axes"]):
        body, slots = _checked_jaxpr(params["jaxpr"], errors)
    if not slots:
        return None
    axes = tuple(name for name in params["mesh"].axis_names if name in params["newly_manual_axes"])
    n_outs = len(params["jaxpr"].out_avals)

    def stacked(*args: Any) -> list[Any]:
        outs = core.eval_jaxpr(body.jaxpr, body.consts, *args)
        return [*outs[:n_outs], *(lax.reshape(x, (1, *get_aval(x).shape)) for x in outs[n_outs:])]

    with body_context(params["mesh"], params["check_vma"], params["newly_manual_axes"]):
        new_body = trace_to_jaxpr(stacked, body.in_avals)
    per_shard = PartitionSpec(axes[0] if len(axes) == 1 else axes)  # one row per shard, in mesh order
    out_specs = tuple(params["out_specs"]) + (per_shard,) * (len(new_body.out_avals) - n_outs)
    outs = shard_map_p.bind(*invals, **dict(params, jaxpr=new_body, out_specs=out_specs))
    found += _found_from(outs[n_outs:], slots)
    return outs[:n_outs]


def _under_differentiation() -> bool:
    return core.within_trace_of(JVPTrace)


def _checked_custom_call(found: list[_Found], errors: frozenset, invals: Sequence[Any], params: dict) -> Any:
    """A function with custom derivatives whose body checks, outside any differentiation: its primal function is
    what runs, so it is checked inline. Under differentiation its rules must stay: checks inside are refused."""
    call: ClosedJaxpr = params["call_jaxpr"]
    if not _contains_checks(call.jaxpr) or _under_differentiation():
        return None
    return _eval_checked(call.jaxpr, call.consts, invals, errors, found)


_CONTROL_FLOW = {custom_jvp_call_p: _checked_custom_call, custom_vjp_call_p: _checked_custom_call,
                 lax.cond_p: _checked_cond, lax.scan_p: _checked_scan, lax.while_p: _checked_while,
                 checkpoint_p: _checked_checkpoint, shard_map_p: _checked_shard_map}


class CheckifyTrace(core.Trace):
    """Applies each primitive with the parent trace and adds its checks to ``found``: values are not wrapped (the
    function sees its arguments as given), only the primitives it applies are intercepted."""

    def __init__(self, errors: frozenset):
        self.errors = errors
        self.found: list[_Found] = []

    def process_primitive(self, primitive, args, params):
        with core.set_current_trace(self.parent):
            return _checked_outputs(self.found, self.errors, primitive, args, params)


def checkify(f: Callable[..., Any], errors: frozenset = user_checks) -> Callable[..., tuple[Error, Any]]:
    """``f`` returning ``(error, output)``: its checks of the ``errors`` categories (``user_checks``,
    ``nan_checks``, ``div_checks``, ``index_checks`` or their unions) computed as values."""
    core.check_callable(f)

    def checked(*args: Any, **kwargs: Any) -> tuple[Error, Any]:
        trace = CheckifyTrace(frozenset(errors))
        with _tracing_for_checkify(), core.new_trace(trace):
            out = f(*args, **kwargs)
        return Error(trace.found), out

    return checked
