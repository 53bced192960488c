"""Printing jaxprs in JAX 0.10.2's text format, character for character.

Two layers. A small document algebra (``text``, ``brk``, ``group``, ``nest``)
with a layout engine: a group is printed on one line when its own content fits
in what is left of the line (80 columns), otherwise each break directly in it
becomes a newline indented to the enclosing ``nest`` level. Then the jaxpr
printer, which builds a document for a jaxpr while naming variables ``a``,
``b``, ..., ``z``, ``ba``, ... in the order they are first printed.

Names are shared across nested jaxprs so that every variable in one printout
has its own name; a ``jit`` equation names its inner jaxpr's inputs and
outputs after the atoms it is applied to and binds, where it can. Jaxprs used
more than once (or long ones nested inside another) are printed once, first,
as ``let name = { ... } in``, and referred to by name.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from jaxle_core.core import ClosedJaxpr, DropVar, Jaxpr, JaxprEqn, Literal, Primitive, Var

# ---------------------------------------------------------------- documents


class Doc:
    """A document: text with optional line breaks, laid out by ``format``."""

    __slots__ = ("_flat_width",)

    def __add__(self, other: Doc) -> Doc:
        return concat([self, other])

    def flat_width(self) -> int:
        """Columns the document takes when every break prints as its text."""
        width = getattr(self, "_flat_width", None)
        if width is None:
            width = self._flat_width = self._measure()
        return width

    def _measure(self) -> int:
        raise NotImplementedError

    def format(self, width: int = 80) -> str:
        return _layout(self, width)

    __str__ = format


class _Text(Doc):
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def _measure(self) -> int:
        return len(self.text)


class _Concat(Doc):
    __slots__ = ("children",)

    def __init__(self, children: Sequence[Doc]):
        self.children = tuple(children)

    def _measure(self) -> int:
        return sum(c.flat_width() for c in self.children)


class _Break(Doc):
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def _measure(self) -> int:
        return len(self.text)


class _Group(Doc):
    __slots__ = ("child",)

    def __init__(self, child: Doc):
        self.child = child

    def _measure(self) -> int:
        return self.child.flat_width()


class _Nest(Doc):
    __slots__ = ("indent", "child")

    def __init__(self, indent: int, child: Doc):
        self.indent = indent
        self.child = child

    def _measure(self) -> int:
        return self.child.flat_width()


def text(s: str) -> Doc:
    return _Text(s)


def nil() -> Doc:
    return _Concat(())


def concat(docs: Sequence[Doc]) -> Doc:
    return _Concat(docs)


def brk(s: str = " ") -> Doc:
    """A break: ``s`` when its group is laid out flat, else a newline and indentation."""
    return _Break(s)


def group(doc: Doc) -> Doc:
    """Lay ``doc`` out on one line if it fits, else break its direct breaks."""
    return _Group(doc)


def nest(indent: int, doc: Doc) -> Doc:
    """Indent the lines that breaks inside ``doc`` start by ``indent`` more columns."""
    return _Nest(indent, doc)


def join(sep: Doc, docs: Sequence[Doc]) -> Doc:
    docs = list(docs)
    if len(docs) == 1:
        return docs[0]
    parts: list[Doc] = []
    for i, d in enumerate(docs):
        if i:
            parts.append(sep)
        parts.append(d)
    return concat(parts)


_FLAT, _BREAK = 0, 1


def _layout(doc: Doc, width: int) -> str:
    out: list[str] = []
    column = 0
    agenda: list[tuple[int, int, Doc]] = [(0, _BREAK, doc)]
    while agenda:
        indent, mode, d = agenda.pop()
        kind = type(d)
        if kind is _Text:
            out.append(d.text)
            column += len(d.text)
        elif kind is _Concat:
            agenda.extend((indent, mode, c) for c in reversed(d.children))
        elif kind is _Break:
            if mode == _BREAK:
                out.append("\n" + " " * indent)
                column = indent
            else:
                out.append(d.text)
                column += len(d.text)
        elif kind is _Nest:
            agenda.append((indent + d.indent, mode, d.child))
        else:  # a group: only its own content must fit, not what follows it
            flat = mode == _FLAT or d.child.flat_width() <= width - column
            agenda.append((indent, _FLAT if flat else _BREAK, d.child))
    return "".join(out)


# ---------------------------------------------------------------- naming


def var_name(n: int) -> str:
    """The ``n``-th variable name: a..z, then ba..bz, ca.., zz, baa, ... (base 26 with a as 0)."""
    digits = ""
    while not digits or n:
        n, d = divmod(n, 26)
        digits = chr(ord("a") + d) + digits
    return digits


class PpContext:
    """Names of the variables and shared jaxprs of one printout."""

    def __init__(self, var_names: dict[Var, str] | None = None):
        self.var_names: dict[Var, str] = dict(var_names or {})
        self.shared_jaxprs: dict[Jaxpr, str] = {}
        self._counter = 0

    def name(self, v: Var) -> str:
        if isinstance(v, DropVar):
            return "_"
        name = self.var_names.get(v)
        if name is None:
            name = self.var_names[v] = self._fresh()
        return name

    def _fresh(self) -> str:
        taken = set(self.shared_jaxprs.values())
        while True:
            name = var_name(self._counter)
            self._counter += 1
            if name not in taken:
                return name

    def suggest_names(self, inner: Sequence[Any], outer: Sequence[Any]) -> None:
        """Name each unnamed ``inner`` var after the ``outer`` var it stands for (each outer var once)."""
        if len(inner) != len(outer):
            return
        used: set[Var] = set()
        for inner_v, outer_v in zip(inner, outer):
            if isinstance(outer_v, Var) and outer_v not in used and isinstance(inner_v, Var) \
                    and inner_v not in self.var_names:
                used.add(outer_v)
                self.var_names[inner_v] = self.name(outer_v)


# ---------------------------------------------------------------- atoms and params


def literal_text(lit: Literal, with_dtype: bool = True) -> str:
    value = np.asarray(lit.val)
    s = str(value.item()) if value.shape == () else "[...]"
    return f"{s}:{lit.aval.str_short(short_dtypes=True)}" if with_dtype else s


def pp_atom(atom: Any, context: PpContext) -> Doc:
    return text(literal_text(atom) if isinstance(atom, Literal) else context.name(atom))


def pp_vars(atoms: Sequence[Any], context: PpContext, separator: str = "", with_types: bool = False) -> Doc:
    """Atoms separated by ``separator`` and a break of their own (so they fill lines)."""
    docs = [pp_atom(a, context) + text(":" + a.aval.str_short(short_dtypes=True)) if with_types
            else pp_atom(a, context) for a in atoms]
    if not docs:
        return nest(2, group(nil()))
    return nest(2, group(join(text(separator) + group(brk()), docs)))


_ADDRESS = re.compile(r" at 0x([0-9a-fA-F]+)")


def pp_param_value(value: Any, context: PpContext) -> Doc:
    if type(value) is tuple and all(isinstance(v, (Jaxpr, ClosedJaxpr)) for v in value):
        inner = [pp_jaxpr_doc(_open(v), context) for v in value]
        return group(concat([nest(2, concat([text("("), brk(""), join(brk(), inner)])), brk(""), text(")")]))
    if isinstance(value, (Jaxpr, ClosedJaxpr)):
        return pp_jaxpr_doc(_open(value), context)
    if isinstance(value, frozenset):
        return text(f"frozenset({{{', '.join(repr(e) for e in sorted(value))}}})")
    return text(_ADDRESS.sub(lambda m: " at 0x" + "X" * len(m.group(1)), str(value)))


def pp_params(params: dict, names: Sequence[str], context: PpContext) -> Doc:
    if not names:
        return nil()
    pairs = [text(f"{k}=") + pp_param_value(params[k], context) for k in names]
    return group(concat([nest(2, concat([text("["), brk(""), join(brk(), pairs)])), brk(""), text("]")]))


def _open(j: Jaxpr | ClosedJaxpr) -> Jaxpr:
    return j.jaxpr if isinstance(j, ClosedJaxpr) else j


# ---------------------------------------------------------------- equations

PpRule = Callable[[JaxprEqn, PpContext], Doc]

# Per-primitive printing rules, keyed by primitive and registered beside each
# primitive's definition; primitives without one print every param, sorted by name.
pp_eqn_rules: dict[Primitive, PpRule] = {}


def pp_eqn_generic(eqn: JaxprEqn, context: PpContext, params: dict | None = None,
                   names: Sequence[str] | None = None) -> Doc:
    """``outvars = name[params] invars``, printing ``names`` of ``params`` (default: all, sorted)."""
    params = eqn.params if params is None else params
    names = sorted(params) if names is None else names
    lhs = pp_vars(eqn.outvars, context, with_types=True)
    rhs = [text(eqn.primitive.name), pp_params(params, names, context), text(" ") + pp_vars(eqn.invars, context)]
    return concat([lhs, text(" = "), *rhs]) if eqn.outvars else concat(rhs)


def pp_eqn_doc(eqn: JaxprEqn, context: PpContext) -> Doc:
    rule = pp_eqn_rules.get(eqn.primitive, pp_eqn_generic)
    return rule(eqn, context)


def pp_hiding(hidden: Callable[[dict], Iterable[str]]) -> PpRule:
    """A rule printing the generic way, without the params ``hidden(params)`` names."""

    def rule(eqn: JaxprEqn, context: PpContext) -> Doc:
        params = dict(eqn.params)
        for k in list(hidden(params)):
            params.pop(k, None)
        return pp_eqn_generic(eqn, context, params)

    return rule


def pp_hiding_none(*names: str) -> PpRule:
    """A rule printing the generic way, without those of the params ``names`` that are None."""
    return pp_hiding(lambda params: [k for k in names if k in params and params[k] is None])


# ---------------------------------------------------------------- jaxprs


def pp_jaxpr_doc(jaxpr: Jaxpr, context: PpContext) -> Doc:
    """``{ lambda constvars; invars. let eqns in (outvars) }``, or the name of a shared jaxpr."""
    name = context.shared_jaxprs.get(jaxpr)
    if name is not None:
        return text(name)
    return _pp_jaxpr_body(jaxpr, context)


def _pp_jaxpr_body(jaxpr: Jaxpr, context: PpContext) -> Doc:
    constvars = pp_vars(jaxpr.constvars, context, with_types=True)
    invars = pp_vars(jaxpr.invars, context, with_types=True)
    eqns = join(brk("; "), [pp_eqn_doc(e, context) for e in jaxpr.eqns]) if jaxpr.eqns else nil()
    outvars = concat([text("("), pp_vars(jaxpr.outvars, context, separator=","),
                      text(")" if len(jaxpr.outvars) != 1 else ",)")])
    return group(nest(2, concat([
        text("{ lambda "), constvars, text("; "), invars, text(". let"),
        nest(2, brk() + eqns), brk(), text("in "), outvars,
    ])) + text(" }"))


def _jaxprs_in_params(params: dict) -> Iterator[Jaxpr]:
    for value in params.values():
        for v in value if isinstance(value, tuple) else (value,):
            if isinstance(v, (Jaxpr, ClosedJaxpr)):
                yield _open(v)


def _unused_outvars(jaxpr: Jaxpr) -> dict[Var, str]:
    """Equation outputs of ``jaxpr`` (not of nested jaxprs) that nothing reads: printed ``_``."""
    names: dict[Var, str] = {}
    used = {v for v in jaxpr.outvars if isinstance(v, Var)}
    for eqn in reversed(jaxpr.eqns):
        names.update((v, "_") for v in eqn.outvars if v not in used)
        used.update(v for v in eqn.invars if isinstance(v, Var))
    return names


def _shared_jaxprs(top: Jaxpr) -> list[tuple[str, Jaxpr]]:
    """Nested jaxprs printed once up front: those met twice, counting long ones (> 10 eqns) twice."""
    counts: Counter[Jaxpr] = Counter()
    names: dict[Jaxpr, str] = {}
    queue = deque([top])
    while queue:
        jaxpr = queue.popleft()
        counts[jaxpr] += 2 if jaxpr is not top and len(jaxpr.eqns) > 10 else 1
        for eqn in jaxpr.eqns:
            label = eqn.params.get("name")
            for sub in _jaxprs_in_params(eqn.params):
                queue.append(sub)
                if label is not None:
                    names.setdefault(sub, str(label).strip("<>"))
    uses: Counter[str] = Counter()
    shared = []
    for jaxpr, count in counts.items():
        if count == 1:
            continue
        name = names.get(jaxpr, "jaxpr")
        seen = uses[name]
        uses[name] += 1
        if seen:
            name += str(seen)
            uses[name] += 1
        shared.append((name, jaxpr))
    return shared


def pp_toplevel_doc(jaxpr: Jaxpr, context: PpContext) -> Doc:
    """The document of a whole printout: shared jaxprs first, then ``jaxpr``; names recorded in ``context``."""
    for v, name in _unused_outvars(jaxpr).items():
        context.var_names.setdefault(v, name)
    shared = _shared_jaxprs(jaxpr)
    context.shared_jaxprs.update((j, name) for name, j in shared)
    docs = [concat([text(f"let {name} = "), _pp_jaxpr_body(j, context), text(" in"), brk()]) for name, j in shared]
    docs.append(_pp_jaxpr_body(jaxpr, context))
    return concat(docs)


def pp_jaxpr(jaxpr: Jaxpr | ClosedJaxpr, width: int = 80) -> str:
    """The text of ``jaxpr`` exactly as JAX prints it."""
    return pp_toplevel_doc(_open(jaxpr), PpContext()).format(width)


def pp_eqn(eqn: JaxprEqn, width: int = 80) -> str:
    """The text of one equation, its variables named afresh (``JaxprEqn.__repr__``)."""
    return pp_eqn_doc(eqn, PpContext()).format(width).rstrip()


__all__ = ["Doc", "PpContext", "brk", "concat", "group", "join", "literal_text", "nest", "nil", "pp_atom",
           "pp_eqn", "pp_eqn_doc", "pp_eqn_generic", "pp_eqn_rules", "pp_hiding", "pp_hiding_none", "pp_jaxpr",
           "pp_jaxpr_doc", "pp_params", "pp_toplevel_doc", "pp_vars", "text", "var_name"]
