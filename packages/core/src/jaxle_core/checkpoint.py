"""``checkpoint`` (``remat``): recompute a function's intermediates on the backward pass instead of storing them.

``checkpoint(f)`` stages ``f`` into a ``remat2`` equation carrying its jaxpr.
Evaluated, the equation just runs the jaxpr; differentiated in reverse mode,
only the values a *policy* allows are saved as residuals and the rest are
recomputed in the (co)tangent computation (see ``ad/checkpoint.py``).
``checkpoint_name`` tags a value with a name (the identity ``name`` primitive)
for the name-based policies of ``checkpoint_policies``.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.core import ClosedJaxpr, Jaxpr, JaxprEqn, Primitive
from jaxle_core.jaxpr_util import dce_jaxpr, dce_rules, dce_rules_with_effects, jaxpr_has_effects
from jaxle_core.staging import flatten_fun, trace_to_jaxpr

# ---------------------------------------------------------------- the primitives


class _CheckpointPrimitive(Primitive):
    """``remat2``. Evaluated eagerly, its jaxpr runs equation by equation, as JAX's eager checkpoint runs: each
    result laid out as its own operation lays it out, one the jaxpr writes as a literal is that constant (no array
    laid out anywhere), and the references it reads, writes or makes are eager ones."""

    def bind(self, *args, **params):
        if core.evaluates_eagerly(args):
            return core.eval_jaxpr(params["jaxpr"], (), *args)
        return super().bind(*args, **params)


checkpoint_p = _CheckpointPrimitive("remat2")
checkpoint_p.multiple_results = True


@checkpoint_p.def_abstract_eval
def _checkpoint_aval(*avals, jaxpr: Jaxpr, **params):
    return [v.aval for v in jaxpr.outvars]


@checkpoint_p.def_impl
def _checkpoint_impl(*args, jaxpr: Jaxpr, **params):
    return core.eval_jaxpr(jaxpr, (), *args)


def checkpoint_params(jaxpr: Jaxpr, prevent_cse: bool | tuple[bool, ...], differentiated: bool,
                      policy: Callable[..., bool] | None) -> dict:
    """The params of a ``remat2`` equation, in JAX 0.10.2's order."""
    return dict(jaxpr=jaxpr, prevent_cse=prevent_cse, differentiated=differentiated, policy=policy)


def open_jaxpr(closed: ClosedJaxpr) -> tuple[Jaxpr, list[Any]]:
    """``closed`` with every constant turned into a leading input, and those constants."""
    jaxpr = closed.jaxpr
    return jaxpr.replace(constvars=[], invars=[*jaxpr.constvars, *jaxpr.invars]), list(closed.consts)


def _dce_checkpoint(eqn: JaxprEqn, used_outputs: list[bool]) -> tuple[list[bool], JaxprEqn | None]:
    """The checkpoint without the outputs nobody uses (and what only they need); dropped when none is used, unless
    its jaxpr has effects (writes a reference)."""
    if not any(used_outputs) and not jaxpr_has_effects(eqn.params["jaxpr"]):
        return [False] * len(eqn.invars), None
    inner, used_inputs = dce_jaxpr(eqn.params["jaxpr"], used_outputs)
    prevent_cse = eqn.params["prevent_cse"]
    if isinstance(prevent_cse, tuple):
        prevent_cse = tuple(p for p, used in zip(prevent_cse, used_inputs) if used)
    params = dict(eqn.params, jaxpr=inner, prevent_cse=prevent_cse)
    return used_inputs, eqn.replace(invars=[x for x, used in zip(eqn.invars, used_inputs) if used],
                                    outvars=[v for v, used in zip(eqn.outvars, used_outputs) if used],
                                    params=params)


dce_rules[checkpoint_p] = _dce_checkpoint
dce_rules_with_effects.add(checkpoint_p)

name_p = Primitive("name")
name_p.def_abstract_eval(lambda aval, *, name: aval)
name_p.def_impl(lambda x, *, name: x)


def checkpoint_name(x: Any, name: Any) -> Any:
    """Tag every array of the pytree ``x`` with ``name``, for the name-based checkpoint policies."""
    return tree.tree_map(lambda leaf: name_p.bind(leaf, name=name), x)


# ---------------------------------------------------------------- policies
# A policy is called as policy(primitive, *operand_avals, **params) for each equation whose operands are
# all known when a checkpointed function is linearized; True means its outputs may be saved as residuals.


class Offloadable(NamedTuple):
    """A policy's answer: save the value, kept in memory ``dst`` (moved from ``src``) until the backward pass."""

    src: Any
    dst: Any


class RecomputeType:
    """The type of ``Recompute``, a policy's answer: recompute the value on the backward pass."""

    __slots__ = ()


class SaveableType:
    """The type of ``Saveable``, a policy's answer: save the value for the backward pass."""

    __slots__ = ()


Recompute = RecomputeType()
Saveable = SaveableType()


def policy_case(answer: Any) -> Any:
    """A policy's ``answer`` as ``Saveable``, ``Recompute`` or an ``Offloadable``: True saves the value, False
    recomputes it. JAX's TypeError for any other answer."""
    if answer is Recompute or answer is Saveable or isinstance(answer, Offloadable):
        return answer
    if isinstance(answer, bool):  # a NumPy bool too is refused, as JAX refuses it
        return Saveable if answer else Recompute
    raise TypeError("Value returned by a remat policy should be a bool or `ad_checkpoint.Recompute`, "
                    "`ad_checkpoint.Saveable` or `ad_checkpoint.Offloadable(...)`. "
                    f"Got {answer} of type {type(answer)}.")


def everything_saveable(*_, **__) -> bool:
    """Save every intermediate (checkpoint then changes nothing)."""
    return True


def nothing_saveable(*_, **__) -> bool:
    """Save only the inputs; recompute everything else (the default policy)."""
    return False


@dataclass(frozen=True)
class DotsSaveable:
    """Save the results of ``dot_general`` (only those without batch dimensions if ``only_if_no_batch_dims``)."""

    only_if_no_batch_dims: bool

    def __call__(self, prim: Primitive, *_, **params) -> bool:
        if prim.name != "dot_general":
            return False
        if not self.only_if_no_batch_dims:
            return True
        (_, _), (lhs_batch, rhs_batch) = params["dimension_numbers"]
        return not lhs_batch and not rhs_batch


dots_saveable = checkpoint_dots = DotsSaveable(False)
dots_with_no_batch_dims_saveable = checkpoint_dots_with_no_batch_dims = DotsSaveable(True)


def _names_repr(names: frozenset) -> str:
    return "frozenset({" + ", ".join(repr(n) for n in sorted(names, key=repr)) + "})"


@dataclass(frozen=True)
class SaveAnyNamesButThese:
    """Save the values tagged by ``checkpoint_name`` except those with one of ``names``."""

    names: frozenset

    def __call__(self, prim: Primitive, *_, **params) -> bool:
        return prim is name_p and params["name"] not in self.names

    def __repr__(self) -> str:
        return f"SaveAnyNamesButThese(names={_names_repr(self.names)})"


@dataclass(frozen=True)
class SaveOnlyTheseNames:
    """Save only the values tagged by ``checkpoint_name`` with one of ``saveable_names``."""

    saveable_names: frozenset

    def __call__(self, prim: Primitive, *_, **params) -> bool:
        return prim is name_p and params["name"] in self.saveable_names

    def __repr__(self) -> str:
        return f"SaveOnlyTheseNames(saveable_names={_names_repr(self.saveable_names)})"


def save_any_names_but_these(*names_not_to_save: Any) -> SaveAnyNamesButThese:
    """Policy saving named values except those named ``names_not_to_save``."""
    return SaveAnyNamesButThese(frozenset(names_not_to_save))


def save_only_these_names(*names_which_can_be_saved: Any) -> SaveOnlyTheseNames:
    """Policy saving only the values named ``names_which_can_be_saved``."""
    return SaveOnlyTheseNames(frozenset(names_which_can_be_saved))


def save_anything_except_these_names(*names_not_to_save: Any) -> Callable[..., bool]:
    """Policy saving every intermediate. As JAX 0.10.2's, it saves the values named ``names_not_to_save`` too
    (the names are ignored)."""
    return lambda *_, **__: True


def save_from_both_policies(policy_1: Callable[..., bool], policy_2: Callable[..., bool]) -> Callable[..., bool]:
    """Policy saving what either policy saves."""

    def policy(prim: Primitive, *avals: Any, **params: Any) -> bool:
        first, second = policy_1(prim, *avals, **params), policy_2(prim, *avals, **params)
        if not (isinstance(first, bool) and isinstance(second, bool)):
            raise ValueError(f"The return value of the policies should be a boolean. Got: {first} and {second}. "
                             "Please write a custom policy function directly, rather than using this helper "
                             "function.")
        return first or second

    return policy


def save_and_offload_only_these_names(*, names_which_can_be_saved: Iterable[Any],
                                      names_which_can_be_offloaded: Iterable[Any], offload_src: Any,
                                      offload_dst: Any) -> Callable[..., Any]:
    """Policy saving the values named ``names_which_can_be_saved``, offloading those named
    ``names_which_can_be_offloaded`` (from memory ``offload_src`` to ``offload_dst``), recomputing the rest."""
    saved, offloaded = frozenset(names_which_can_be_saved), frozenset(names_which_can_be_offloaded)
    if saved & offloaded:
        raise ValueError("The names should be exclusive and should not intersect in `names_which_can_be_saved` and "
                         f"`names_which_can_be_offloaded`. Got names_which_can_be_saved={set(saved)}, "
                         f"names_which_can_be_offloaded={set(offloaded)} and the intersection={set(saved & offloaded)}")

    def policy(prim: Primitive, *_, **params: Any) -> Any:
        if prim is name_p and params["name"] in saved:
            return Saveable
        if prim is name_p and params["name"] in offloaded:
            return Offloadable(offload_src, offload_dst)
        return Recompute

    return policy


def offload_dot_with_no_batch_dims(offload_src: Any, offload_dst: Any) -> Callable[..., Any]:
    """Policy offloading the results of ``dot_general`` without batch dimensions, recomputing the rest."""

    def policy(prim: Primitive, *_, **params: Any) -> Any:
        return Offloadable(offload_src, offload_dst) if dots_with_no_batch_dims_saveable(prim, **params) \
            else Recompute

    return policy


checkpoint_policies = types.SimpleNamespace(
    everything_saveable=everything_saveable, nothing_saveable=nothing_saveable,
    dots_saveable=dots_saveable, checkpoint_dots=checkpoint_dots,
    dots_with_no_batch_dims_saveable=dots_with_no_batch_dims_saveable,
    checkpoint_dots_with_no_batch_dims=checkpoint_dots_with_no_batch_dims,
    save_any_names_but_these=save_any_names_but_these, save_only_these_names=save_only_these_names,
    save_anything_except_these_names=save_anything_except_these_names,
    save_from_both_policies=save_from_both_policies,
    save_and_offload_only_these_names=save_and_offload_only_these_names,
    offload_dot_with_no_batch_dims=offload_dot_with_no_batch_dims)

# ---------------------------------------------------------------- the user-facing wrappers


def _static_positions(static_argnums: int | Iterable[int], n: int) -> set[int]:
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    positions = {i + n if i < 0 else i for i in nums}
    for i in positions:
        if not 0 <= i < n:
            raise ValueError(f"checkpointed function has static_argnums={nums} but was called with only {n} "
                             f"positional arguments")
    return positions


def checkpoint(fun: Callable, *, prevent_cse: bool | Sequence[bool] = True, policy: Callable[..., bool] | None = None,
               static_argnums: int | tuple[int, ...] = (), static_argnames: str | Iterable[str] = ()) -> Callable:
    """``fun``, but recomputing (rather than storing) the intermediates that ``policy`` does not save when
    differentiated. Arguments in ``static_argnums``/``static_argnames`` are passed to ``fun`` as Python values."""
    static_names = {static_argnames} if isinstance(static_argnames, str) else set(static_argnames)
    cse = tuple(prevent_cse) if not isinstance(prevent_cse, bool) else prevent_cse

    @functools.wraps(fun)
    def checkpointed(*args, **kwargs):
        static = _static_positions(static_argnums, len(args))
        dynamic = ([a for i, a in enumerate(args) if i not in static],
                   {k: v for k, v in kwargs.items() if k not in static_names})
        flat, in_tree = tree.tree_flatten(dynamic)

        def with_static_args(positional, keywords):
            it = iter(positional)
            full = [args[i] if i in static else next(it) for i in range(len(args))]
            return fun(*full, **keywords, **{k: v for k, v in kwargs.items() if k in static_names})

        flat_fun, out_tree = flatten_fun(with_static_args, in_tree)
        jaxpr, consts = open_jaxpr(trace_to_jaxpr(flat_fun, [get_aval(x) for x in flat]))
        outs = checkpoint_p.bind(*consts, *flat, **checkpoint_params(jaxpr, cse, False, policy))
        return tree.tree_unflatten(out_tree(), outs)

    return checkpointed


def remat(fun: Callable, *, prevent_cse: bool = True, policy: Callable[..., bool] | None = None,
          static_argnums: int | tuple[int, ...] = ()) -> Callable:
    """The older spelling of ``checkpoint`` (without ``static_argnames``)."""
    return checkpoint(fun, prevent_cse=prevent_cse, policy=policy, static_argnums=static_argnums)


__all__ = ["Offloadable", "Recompute", "Saveable", "checkpoint", "checkpoint_name", "checkpoint_p",
           "checkpoint_policies", "name_p", "policy_case", "remat"]
