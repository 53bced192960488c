"""What every control-flow primitive shares: tracing a user function into a jaxpr whose
constants are leading inputs, and checking that branch/loop types agree.

Control-flow primitives carry closed jaxprs with no constants: every value a traced
function closes over (a tracer of an outer trace, or an array constant) becomes a
leading input of the jaxpr and a leading operand of the equation, as in JAX.

As in JAX, tracing is cached per user function: the same function traced again on
the same types in the same trace context gives the same jaxpr object (not traced
again), which a printout shows once as ``let jaxpr = { ... } in``.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import jaxle_tree as tree
from jaxle_core import core, vma
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.caches import LruCache
from jaxle_core.config import trace_context
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jaxpr_util import unlowerable_effects
from jaxle_core.lax.refs import is_ref_aval
from jaxle_core.staging import DebugInfo, flatten_outputs, trace_to_jaxpr


@dataclass(slots=True, eq=False)
class TracedFunction:
    """A user function traced for a control-flow primitive.

    ``jaxpr`` takes ``consts`` first, then the flattened arguments; ``out_tree``
    is the tree structure of what the function returned.
    """

    jaxpr: ClosedJaxpr
    consts: list[Any]
    out_tree: Any
    # Jaxprs a primitive derives from this one (forwarding, joined constants), kept so that a cached trace gives
    # the same derived jaxpr objects too.
    derived: dict[Any, Any] = field(default_factory=dict)

    @property
    def out_avals(self) -> list[ShapedArray]:
        return self.jaxpr.out_avals


# Per user function (held weakly, so an entry lives as long as its function), its traces by signature.
_traces: weakref.WeakKeyDictionary[Callable, LruCache] = weakref.WeakKeyDictionary()
_TRACES_PER_FUNCTION = 64


def cached_trace(fun: Callable, key: tuple, trace: Callable[[], Any]) -> Any:
    """``trace()``, cached for ``fun`` under ``key`` and the trace context (flags, named axes, name scopes);
    a function that cannot be held weakly is traced every time."""
    key = (key, trace_context(), core.scope_key())
    try:
        per_function = _traces.get(fun)
        if per_function is None:
            per_function = _traces[fun] = LruCache(_TRACES_PER_FUNCTION)
    except TypeError:  # not hashable or not weakly referenceable
        return trace()
    found = per_function.lookup(key)
    if found is None:
        found = per_function[key] = trace()
    return found


def derived(traced: TracedFunction, key: Any, make: Callable[[], Any]) -> Any:
    """``make()``, computed once per ``traced`` and ``key``."""
    found = traced.derived.get(key)
    if found is None:
        found = traced.derived[key] = make()
    return found


def check_returned(out: Any, fun: Callable, traced_for: str) -> None:
    """JAX's errors when ``fun``, traced for ``traced_for``, returned ``out`` holding a value of no JAX type
    (TypeError) or a mutable reference (ValueError), each named by its path in ``out`` unless ``out`` is that
    value."""
    info = DebugInfo(traced_for, fun, ())
    flatten_outputs(out, info)
    for path, leaf in tree.tree_flatten_with_path(out)[0]:
        aval = get_aval(leaf)
        if is_ref_aval(aval):
            where = f" at {info.source}" if info.source else ""
            at = f" at output tree path result{tree.keystr(path)}" if path else ""
            raise ValueError(f"function {info.func_name}{where} traced for {traced_for} returned a mutable array "
                             f"reference of type {aval}{at}, but mutable array references cannot be returned.")


def trace_function(fun: Callable, in_tree: Any, in_avals: Sequence[ShapedArray], traced_for: str,
                   arg_names: Sequence[str] = (), cached: bool = True) -> TracedFunction:
    """Trace ``fun`` on arguments of tree ``in_tree`` with leaves of ``in_avals``; constants become inputs.
    Cached per ``fun`` (see the module's docstring) unless ``cached`` is false. JAX's error if it returns a
    value of no JAX type or a mutable reference."""
    if cached:
        key = (in_tree, tuple(in_avals), traced_for, tuple(arg_names))
        return cached_trace(fun, key, lambda: trace_function(fun, in_tree, in_avals, traced_for, arg_names, False))
    out_trees = []

    def flat_fun(*leaves):
        args = tree.tree_unflatten(in_tree, leaves)
        out = fun(*args)
        check_returned(out, fun, traced_for)
        outs, out_tree = tree.tree_flatten(out)
        out_trees.append(out_tree)
        return outs

    closed = trace_to_jaxpr(flat_fun, in_avals, DebugInfo(traced_for, fun, arg_names))
    jaxpr = closed.jaxpr
    hoisted = jaxpr.replace(constvars=[], invars=jaxpr.constvars + jaxpr.invars)
    return TracedFunction(ClosedJaxpr(hoisted, []), list(closed.consts), out_trees[0])


def flatten_avals(values: Any) -> tuple[list[Any], Any, list[ShapedArray]]:
    """Leaves, tree and abstract values of a pytree of arrays."""
    leaves, treedef = tree.tree_flatten(values)
    return leaves, treedef, [get_aval(x) for x in leaves]


def same_type(a: ShapedArray, b: ShapedArray) -> bool:
    """Whether two avals agree in shape and dtype (weak types may differ)."""
    return a.shape == b.shape and a.dtype == b.dtype


# ---------------------------------------------------------------- loop carries (JAX's error messages)


def carry_name(f: Callable) -> str:
    """The name of the carry argument of a loop body, for error messages."""
    try:
        params = list(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        params = []
    return params[0] if params else "carry"


def _describe_node(x: Any) -> str:
    if type(x) in (tuple, list):
        return f"{type(x).__name__} of length {len(x)}"
    return str(type(x))


def _structure_differences(a: Any, b: Any, name: str) -> list[str]:
    """Why the pytrees ``a`` and ``b`` (of avals) differ, as JAX words it (nothing if they agree)."""
    a_def, b_def = tree.tree_structure(a), tree.tree_structure(b)
    if a_def == b_def:
        return []
    if type(a) is not type(b) or tree.treedef_is_leaf(a_def) or tree.treedef_is_leaf(b_def):
        return [f"the input carry {name} is a {type(a)} but the corresponding component of the carry output is a "
                f"{type(b)}, so their Python types differ"]
    if type(a) in (tuple, list) and len(a) != len(b):
        return [f"the input carry {name} is a {_describe_node(a)} but the corresponding component of the carry "
                f"output is a {_describe_node(b)}, so the lengths do not match"]
    a_meta, b_meta = a_def.node_data()[1], b_def.node_data()[1]
    if a_meta != b_meta:
        return [f"the input carry {name} is a {type(a)} with pytree metadata {tuple(a_meta)} but the corresponding "
                f"component of the carry output is a {type(b)} with pytree metadata {tuple(b_meta)}, so the pytree "
                "node metadata does not match"]
    children = lambda node: tree.tree_flatten_with_path(node, is_leaf=lambda n: n is not node)[0]  # noqa: E731
    base = name.removeprefix("component ")
    return [found for (path, x), (_, y) in zip(children(a), children(b))
            for found in _structure_differences(x, y, f"component {base}{tree.keystr(path)}")]


def paragraphs(items: list[str]) -> str:
    """Items as one sentence, or as a bulleted list of them."""
    if len(items) == 1:
        return items[0][0].upper() + items[0][1:] + "."
    return "\n".join(f"  * {item}{';' if i < len(items) - 1 else '.'}" for i, item in enumerate(items))


def check_effects(primitive: str, *traced: TracedFunction) -> None:
    """JAX's NotImplementedError for bodies or branches staging effects control flow does not take (those XLA
    cannot lower: the key-reuse checker's marks), raised while tracing."""
    effects: list[Any] = []
    for t in traced:
        effects += [e for e in unlowerable_effects(t.jaxpr.jaxpr) if all(e is not seen for seen in effects)]
    if effects:
        raise NotImplementedError(f"Effects not supported in `{primitive}`: {effects}")


def check_carry(loop: str, name: str, in_tree: Any, in_avals: list[ShapedArray], out_tree: Any,
                 out_avals: list[ShapedArray]) -> None:
    """JAX's errors for a body whose carry output differs in structure or type from its carry input."""
    if in_tree != out_tree:
        differences = _structure_differences(tree.tree_unflatten(in_tree, in_avals),
                                             tree.tree_unflatten(out_tree, out_avals), name)
        raise TypeError(f"{loop} body function carry input and carry output must have the same pytree structure, but "
                        f"they differ:\n\n{paragraphs(differences)}\n\nRevise the function so that the carry "
                        "output has the same pytree structure as the carry input.")
    paths = [tree.keystr(p) for p, _ in tree.tree_flatten_with_path(tree.tree_unflatten(in_tree, in_avals))[0]]
    problems, fixes = [], []
    for path, a, b in zip(paths, in_avals, out_avals):
        reasons = []
        if a.dtype != b.dtype:
            reasons.append("the dtypes do not match")
        if a.shape != b.shape:
            reasons.append("the shapes do not match")
        if a.vma != b.vma:
            reasons.append("the manual axis types do not match")
        if reasons:
            who = f"{name}" if tree.treedef_is_leaf(in_tree) else f"component {name}{path}"
            problems.append(f"the input carry {who} has type {a.str_short()} but the corresponding output carry "
                            f"component has type {b.str_short()}, so {', and '.join(reasons)}")
        if b.vma - a.vma:
            fixes.append(f"applying `jax.lax.pcast(..., {vma.ordered(b.vma - a.vma)}, to='varying')`, to the initial "
                         f"carry value corresponding to the input carry {who}")
    if problems:
        raise TypeError(f"{loop} body function carry input and carry output must have equal types, but they differ:"
                        f"\n\n{paragraphs(problems)}\n\n{pcast_advice(fixes)}Revise the function so that all output "
                        "types match the corresponding input types.")


def pcast_advice(fixes: list[str]) -> str:
    """JAX's advice to cast values that vary over too few manual axes (nothing when there are none)."""
    if not fixes:
        return ""
    if len(fixes) == 1:
        advice = f"This might be fixed by {fixes[0]}."
    else:
        advice = "This might be fixed by:\n" + "\n".join(
            f"  * {fix}{';' if i < len(fixes) - 1 else '.'}" for i, fix in enumerate(fixes))
    return f"{advice}\nSee https://docs.jax.dev/en/latest/notebooks/shard_map.html#scan-vma for more information.\n\n"
