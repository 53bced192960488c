"""``cond`` and ``switch``: choosing one of several traced functions at run time.

Both bind the ``cond`` primitive, whose operands are an ``int32`` branch index,
then the constants every branch closes over (joined across branches), then the
operands; its ``branches`` param holds one closed jaxpr per branch, each taking
all the joined constants and the operands. ``cond`` orders its branches
``(false_fun, true_fun)`` so that the predicate converted to an integer picks one.

``platform_dependent`` binds ``cond`` with a ``branches_platforms`` param naming the
platforms of each branch (``None``: the default branch), indexed by ``platform_index``,
which compilation resolves for the platform it compiles for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, dtypes, vma
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.config import disable_jit
from jaxle_core.core import ClosedJaxpr, JaxprEqn, Primitive, Tracer, Var
from jaxle_core.jaxpr_util import dce_jaxpr, dce_rules, dce_rules_with_effects, eqn_has_effects
from jaxle_core.lax.control_flow.common import (
    TracedFunction,
    check_effects,
    derived,
    flatten_avals,
    paragraphs,
    pcast_advice,
    same_type,
    trace_function,
)
from jaxle_core.lax.elementwise import ne
from jaxle_core.lax.structural import broadcast_in_dim, clamp, convert_element_type
from jaxle_core.sharding_types import spec_of

__all__ = ["cond", "switch", "cond_p", "platform_dependent"]

cond_p = Primitive("cond")
cond_p.multiple_results = True


def _joined_out_avals(branches: Sequence[ClosedJaxpr]) -> list[ShapedArray]:
    """The branches' common output types: the first branch's, weak types included (as JAX, which leaves each
    branch's weak types as they are and types the result by its first branch)."""
    return list(branches[0].out_avals)


@cond_p.def_abstract_eval
def _cond_aval(index_aval: ShapedArray, *avals: ShapedArray, branches: tuple[ClosedJaxpr, ...],
               branches_platforms: tuple | None = None):
    return _joined_out_avals(branches)


@cond_p.def_impl
def _cond_impl(index, *args, branches: tuple[ClosedJaxpr, ...], branches_platforms: tuple | None = None):
    chosen = branches[int(np.clip(np.asarray(index), 0, len(branches) - 1))]
    return core.eval_jaxpr(chosen.jaxpr, chosen.consts, *args)


def _cond_dce(eqn: JaxprEqn, used_outputs: list[bool]) -> tuple[list[bool], JaxprEqn | None]:
    """Prune the unused outputs of every branch, and the operands no branch then reads (never the index); as
    JAX's, a cond with effects (writing a reference) keeps them, whatever outputs are used."""
    if not any(used_outputs) and not eqn_has_effects(eqn):
        return [False] * len(eqn.invars), None
    branches: tuple[ClosedJaxpr, ...] = eqn.params["branches"]
    used = [any(flags) for flags in zip(*[dce_jaxpr(b.jaxpr, used_outputs)[1] for b in branches])]
    pruned = tuple(ClosedJaxpr(dce_jaxpr(b.jaxpr, used_outputs, instantiate=used)[0], b.consts) for b in branches)
    used_inputs = [True] + used
    return used_inputs, eqn.replace(invars=[v for v, u in zip(eqn.invars, used_inputs) if u],
                                    outvars=[v for v, u in zip(eqn.outvars, used_outputs) if u],
                                    params=dict(eqn.params, branches=pruned))


dce_rules[cond_p] = _cond_dce
dce_rules_with_effects.add(cond_p)


# ``empty2``: an uninitialised array of a dtype, the placeholder a branch returns for a residual
# that only another branch computes.
empty2_p = Primitive("empty2")
empty2_p.def_abstract_eval(lambda *, dtype, memory_space: ShapedArray((), dtype, memory_space=memory_space))
empty2_p.def_impl(lambda *, dtype, memory_space: np.zeros((), dtype))


def empty(aval: ShapedArray) -> Any:
    """A placeholder array of type ``aval`` (a scalar ``empty2`` in its memory space broadcast to the shape)."""
    value = empty2_p.bind(dtype=aval.dtype, memory_space=aval.memory_space)
    return broadcast_in_dim(value, aval.shape, ()) if aval.shape else value


# ---------------------------------------------------------------- tracing the branches


def _join_consts(traced: Sequence[TracedFunction]) -> list[Any]:
    """The constants of all branches, each once, in order of first appearance."""
    seen: dict[int, Any] = {}
    for t in traced:
        for c in t.consts:
            seen.setdefault(id(c), c)
    return list(seen.values())


def _common_branch(t: TracedFunction, consts: Sequence[Any]) -> ClosedJaxpr:
    """``t``'s jaxpr taking all joined ``consts`` first. As in JAX, a branch is its traced jaxpr itself when no
    branch has constants, and branches of one function without constants of its own share one padded jaxpr."""
    if not consts:
        return t.jaxpr
    if not t.consts:
        return derived(t, ("cond", tuple(get_aval(c) for c in consts)), lambda: _with_joined_consts(t, consts))
    return _with_joined_consts(t, consts)


def _with_joined_consts(t: TracedFunction, consts: Sequence[Any]) -> ClosedJaxpr:
    """``t``'s jaxpr with a fresh input per joined constant in place of its own constant inputs."""
    jaxpr = t.jaxpr.jaxpr
    n_own = len(t.consts)
    fresh = [Var(get_aval(c)) for c in consts]
    position = {id(c): i for i, c in enumerate(consts)}
    renamed = {v: fresh[position[id(c)]] for v, c in zip(jaxpr.invars[:n_own], t.consts)}

    def rename(atoms: Sequence[Any]) -> list[Any]:
        return [renamed.get(a, a) if isinstance(a, Var) else a for a in atoms]

    eqns = [eqn.replace(invars=rename(eqn.invars)) if any(a in renamed for a in eqn.invars if isinstance(a, Var))
            else eqn for eqn in jaxpr.eqns]
    return ClosedJaxpr(jaxpr.replace(invars=fresh + jaxpr.invars[n_own:], eqns=eqns,
                                     outvars=rename(jaxpr.outvars)), [])


def _describe(fun: Callable) -> str:
    code = getattr(fun, "__code__", None)
    name = getattr(fun, "__name__", type(fun).__name__)
    return f"{name} at {code.co_filename}:{code.co_firstlineno}" if code is not None else name


def _check_branch_outputs(traced: Sequence[TracedFunction], funs: Sequence[Callable], names: Sequence[str],
                          what: str) -> None:
    """Raise JAX's TypeError unless every branch returns the tree, then the types, of the first."""

    def header(k: int) -> str:
        return f"{names[0]} is {_describe(funs[0])}\n{names[k]} is {_describe(funs[k])}"

    for k in range(1, len(traced)):
        if traced[k].out_tree != traced[0].out_tree:
            raise TypeError(
                f"{what} branch outputs must have the same pytree structure, but they differ:\n\n{header(k)}\n\n"
                f"{_tree_difference(traced[0].out_tree, traced[k].out_tree, names[0], names[k])}\n\n"
                f"Revise {names[0]} and/or {names[k]} so that they have the same pytree structure.")
    for k in range(1, len(traced)):
        for a, b in zip(traced[0].out_avals, traced[k].out_avals):
            if not same_type(a, b):
                which = "shapes" if a.shape != b.shape else "dtypes"
                raise TypeError(
                    f"{what} branches must have equal output types but they differ.\n\n{header(k)}\n\n"
                    f"The output of {names[0]} has type {a.str_short()} but the corresponding output of "
                    f"{names[k]} has type {b.str_short()}, so the {which} do not match.\n\n"
                    f"Revise {names[0]} and/or {names[k]} so that all output types match.")
            if spec_of(a) != spec_of(b):  # laid out differently over Explicit mesh axes
                raise TypeError(
                    f"{what} branches must have equal output types but they differ.\n\n{header(k)}\n\n"
                    f"The output of {names[0]} has type {a.str_short()} but the corresponding output of "
                    f"{names[k]} has type {b.str_short()}.\n\n"
                    f"Revise {names[0]} and/or {names[k]} so that all output types match.")
    for k in range(1, len(traced)):
        _check_branch_vma(traced[0], traced[k], names[0], names[k], header(k), what)


def _check_branch_vma(first: TracedFunction, other: TracedFunction, name: str, other_name: str, header: str,
                      what: str) -> None:
    """JAX's TypeError for branch outputs varying over different manual axes."""
    shape = tree.tree_unflatten(first.out_tree, first.out_avals)
    paths = [tree.keystr(p) for p, _ in tree.tree_flatten_with_path(shape)[0]]
    problems, fixes = [], []
    for path, a, b in zip(paths, first.out_avals, other.out_avals):
        if a.vma == b.vma:
            continue
        at = f" at path {path}" if path else ""
        problems.append(f"the output of {name}{at} has type {a.str_short()} but the corresponding output of "
                        f"{other_name} has type {b.str_short()}, so the manual axis types do not match")
        # As JAX words it: the output varying over more axes is named, with the axes the other has beyond it.
        target, target_vma, rest = (name, a.vma, b.vma) if a.vma - b.vma else (other_name, b.vma, a.vma)
        fixes.append(f"applying `jax.lax.pcast(..., {vma.ordered(rest - target_vma)}, to='varying')` to the output "
                     f"of {target}{at}")
    if problems:
        raise TypeError(f"{what} branches must have equal output types but they differ.\n\n{header}\n\n"
                        f"{paragraphs(problems)}\n\n{pcast_advice(fixes)}Revise {name} and/or {other_name} so that "
                        "all output types match.")


def _tree_difference(a: Any, b: Any, name_a: str, name_b: str) -> str:
    def kind(t):
        if tree.treedef_is_leaf(t):
            return "a pytree leaf"
        return f"a {type(tree.tree_unflatten(t, [0] * t.num_leaves))}"

    if kind(a) != kind(b):
        return f"{name_a} output is {kind(a)} but {name_b} output is {kind(b)}, so their Python types differ."
    return f"{name_a} output has tree structure {a} but {name_b} output has tree structure {b}."


def _bind_branches(index: Any, funs: Sequence[Callable], operands: tuple, names: Sequence[str], what: str,
                   reverse: bool = False, **params: Any) -> Any:
    """Trace ``funs`` on ``operands`` and bind ``cond`` choosing among them (reversed if ``reverse``) by the
    int32 ``index``; the constants are joined in the order ``funs`` are traced."""
    leaves, in_tree, in_avals = flatten_avals(operands)
    traced = [trace_function(f, in_tree, in_avals, what) for f in funs]
    _check_branch_outputs(traced, funs, names, what)
    check_effects(what, *traced)
    consts = _join_consts(traced)
    branches = tuple(_common_branch(t, consts) for t in traced)
    branches = branches[::-1] if reverse else branches
    outs = cond_p.bind(index, *consts, *leaves, branches=branches, **params)
    return tree.tree_unflatten(traced[0].out_tree, outs)


# ---------------------------------------------------------------- the public functions

_NO_OPERAND = object()


def _concrete(x: Any) -> bool:
    return not isinstance(x, Tracer)


def _with_legacy_operand(operands: tuple, operand: Any) -> tuple:
    """The operands, given positionally or (legacy form) as the single ``operand=`` keyword."""
    if operand is _NO_OPERAND:
        return operands
    if operands:
        raise TypeError("if 'operand' keyword is passed then no positional operands can be passed, got "
                        f"operand={operand} and positional operands {operands}")
    return (operand,)


def cond(pred, true_fun: Callable, false_fun: Callable, *operands, operand=_NO_OPERAND):
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, chosen at run time.

    ``operand=`` is the legacy single-operand form; so is ``cond(pred, true_operand, true_fun, false_operand,
    false_fun)``, each branch given its own operand.
    """
    if (operand is _NO_OPERAND and len(operands) == 2 and not callable(true_fun) and callable(false_fun)
            and callable(operands[1])):
        (true_operand, true_branch), (false_operand, false_branch) = (true_fun, false_fun), operands
        return cond(pred, lambda t, _: true_branch(t), lambda _, f: false_branch(f), true_operand, false_operand)
    operands = _with_legacy_operand(operands, operand)
    if not (callable(true_fun) and callable(false_fun)):
        raise TypeError("lax.cond: true_fun and false_fun arguments should be callable.")
    if not (isinstance(pred, (bool, int, float, complex)) or hasattr(pred, "dtype")):
        raise TypeError(f"Pred must be a scalar, got {pred} of type {type(pred)}")
    if np.shape(pred) != ():
        raise TypeError(f"Pred must be a scalar, got {pred} of shape {np.shape(pred)}.")
    pred_dtype = dtypes.result_type(pred)
    if pred_dtype != np.bool_:
        if not dtypes.issubdtype(pred_dtype, np.number):
            raise TypeError(f"Pred type must be either boolean or number, got {pred_dtype}.")
        pred = ne(pred, np.zeros((), pred_dtype))
    if disable_jit.value and _concrete(pred):
        return true_fun(*operands) if bool(pred) else false_fun(*operands)
    index = convert_element_type(pred, np.int32)
    return _bind_branches(index, (true_fun, false_fun), operands, ("true_fun", "false_fun"), "cond", reverse=True)


def switch(index, branches: Sequence[Callable], *operands: Any, operand: Any = _NO_OPERAND):
    """``branches[index](*operands)``, with ``index`` clamped into range, chosen at run time."""
    operands = _with_legacy_operand(operands, operand)
    if np.shape(index) != ():
        raise TypeError(f"Branch index must be scalar, got {index} of shape {np.shape(index)}.")
    index_dtype = dtypes.result_type(index)
    if not dtypes.issubdtype(index_dtype, np.integer):
        raise TypeError(f"Index type must be an integer, got {index} as {index_dtype}")
    branches = tuple(branches)
    if not branches:
        raise ValueError("Empty branch sequence")
    if not all(callable(branch) for branch in branches):
        raise TypeError("lax.switch: branches argument should be a sequence of callables.")
    if len(branches) == 1:
        return branches[0](*operands)
    index = convert_element_type(index, np.int32)
    index = clamp(np.int32(0), index, np.int32(len(branches) - 1))
    if disable_jit.value and _concrete(index):
        return branches[int(np.asarray(index))](*operands)
    return _bind_branches(index, branches, operands, _branch_names(len(branches)), "switch")


def _branch_names(n: int) -> list[str]:
    return ["branch 0"] + [f"branch{i}" for i in range(1, n)]


# ---------------------------------------------------------------- platform_dependent

platform_index_p = Primitive("platform_index")
platform_index_p.def_abstract_eval(lambda *, platforms: ShapedArray((), np.int32))


def platform_branch(platforms: tuple, platform: str) -> int:
    """The branch of ``platforms`` (a tuple of platform-name tuples, ``None`` for the default) for ``platform``."""
    for i, names in enumerate(platforms):
        if names is not None and platform in names:
            return i
    if None in platforms:
        return platforms.index(None)
    raise NotImplementedError(f"MLIR translation rule for primitive 'platform_index(platforms={platforms})' not "
                              f"found for platform {platform}")


# The reference backend computes on the host CPU.
platform_index_p.def_impl(lambda *, platforms: np.int32(platform_branch(platforms, "cpu")))


def platform_dependent(*args: Any, default: Callable | None = None, **per_platform: Callable) -> Any:
    """``per_platform[p](*args)`` for the platform ``p`` the program is compiled for (``cpu``, ``cuda``,
    ``rocm``, ``tpu``), else ``default(*args)``. Under a transformation all branches are traced and must
    agree in type; evaluated eagerly, only the default device's branch runs."""
    groups: list[tuple[list[str], Callable]] = []
    for platform, fun in per_platform.items():
        if platform == "gpu":
            raise ValueError("Use 'cuda' or 'rocm' for lax.platform_dependent.")
        same = [names for names, f in groups if f is fun]
        if same:
            same[0].append(platform)
        else:
            groups.append(([platform], fun))
    platforms: tuple = tuple(tuple(names) for names, _ in groups)
    funs = [fun for _, fun in groups]
    if default is not None:
        platforms, funs = platforms + (None,), funs + [default]
    index = platform_index_p.bind(platforms=platforms)
    if _concrete(index):  # evaluated eagerly, for the default device's platform: run that branch alone
        return funs[int(np.asarray(index))](*args)
    return _bind_branches(index, funs, args, _branch_names(len(funs)), "switch", branches_platforms=platforms)
