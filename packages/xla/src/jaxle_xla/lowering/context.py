"""Writing StableHLO as text: SSA values, types, attributes, ops, regions.

Lowering rules emit ops in MLIR's generic form
(``%3 = "stablehlo.add"(%1, %2) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>``),
which is uniform for every op and parses as fast as XLA can read it.
``Lowered.as_text()`` re-prints the module through MLIR in its readable form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

from jaxle_core.auto_mesh_types import auto_meshes_ignored
from jaxle_core.avals import ShapedArray
from jaxle_core.caches import LruCache
from jaxle_core.config import trace_context
from jaxle_core.dtypes import float0
from jaxle_core.lax.tokens import AbstractToken, abstract_token
from jaxle_core.mesh import get_abstract_mesh, use_abstract_mesh
from jaxle_core.sharding_types import layouts_ignored, untyped
from jaxle_core.staging import trace_to_jaxpr
from jaxle_xla.lowering.locations import HelperSite

# ---------------------------------------------------------------- types

_ELEMENT_TYPES = {
    np.dtype(np.bool_): "i1",
    np.dtype(np.int8): "i8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32", np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "ui8", np.dtype(np.uint16): "ui16", np.dtype(np.uint32): "ui32",
    np.dtype(np.uint64): "ui64",
    np.dtype(np.float16): "f16", np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
    np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(np.complex64): "complex<f32>", np.dtype(np.complex128): "complex<f64>",
    np.dtype(ml_dtypes.int4): "i4", np.dtype(ml_dtypes.uint4): "ui4",
    np.dtype(ml_dtypes.float8_e4m3fn): "f8E4M3FN", np.dtype(ml_dtypes.float8_e5m2): "f8E5M2",
    np.dtype(ml_dtypes.float8_e4m3fnuz): "f8E4M3FNUZ", np.dtype(ml_dtypes.float8_e5m2fnuz): "f8E5M2FNUZ",
    np.dtype(ml_dtypes.float8_e4m3b11fnuz): "f8E4M3B11FNUZ", np.dtype(ml_dtypes.float8_e3m4): "f8E3M4",
    np.dtype(ml_dtypes.float8_e4m3): "f8E4M3", np.dtype(ml_dtypes.float8_e8m0fnu): "f8E8M0FNU",
    np.dtype(ml_dtypes.float4_e2m1fn): "f4E2M1FN",
    float0: "i1",  # the tangent type of integers and booleans holds no data: lowered as booleans, as in JAX
}


def element_type(dtype: Any) -> str:
    """The MLIR element type of a dtype (``f32``, ``ui8``, ``complex<f64>``, ...)."""
    try:
        return _ELEMENT_TYPES[np.dtype(dtype)]
    except KeyError:
        raise TypeError(f"dtype {np.dtype(dtype).name} has no XLA element type") from None


_tensor_types = LruCache()


def tensor_type(aval: ShapedArray) -> str:
    """``tensor<2x3xf32>`` for a ShapedArray (``tensor<f32>`` for a scalar), ``!stablehlo.token`` for a token."""
    if type(aval) is AbstractToken:
        return "!stablehlo.token"
    key = (aval.shape, aval.dtype)
    text = _tensor_types.lookup(key)
    if text is None:
        dims = "".join(f"{d}x" if type(d) is int else "?x" for d in aval.shape)  # symbolic sizes are dynamic
        text = _tensor_types[key] = f"tensor<{dims}{element_type(aval.dtype)}>"
    return text


def comparison_type(dtype: np.dtype) -> str:
    """The ``compare_type`` StableHLO uses for ``dtype``: FLOAT, SIGNED or UNSIGNED."""
    if dtype == np.bool_ or np.issubdtype(dtype, np.unsignedinteger) or dtype == ml_dtypes.uint4:
        return "UNSIGNED"
    if np.issubdtype(dtype, np.signedinteger) or dtype == ml_dtypes.int4:
        return "SIGNED"
    return "FLOAT"


# ---------------------------------------------------------------- attributes


def i64_array(values: Iterable[int]) -> str:
    """``array<i64: 1, 2>`` (a dense i64 array attribute)."""
    values = [int(v) for v in values]
    return f"array<i64: {', '.join(map(str, values))}>" if values else "array<i64>"


def i64(value: int) -> str:
    return f"{int(value)} : i64"


def default_layout(ndim: int) -> str:
    """The major-to-minor layout of an array of rank ``ndim`` (a token's is empty), as custom calls state it."""
    return layout_attribute(reversed(range(ndim)))


def layout_attribute(minor_to_major: Iterable[int]) -> str:
    """A layout as custom calls state it: its dimensions from the fastest-varying."""
    order = list(minor_to_major)
    if not order:
        return "dense<> : tensor<0xindex>"
    return f"dense<[{', '.join(map(str, order))}]> : tensor<{len(order)}xindex>"


def boolean(value: bool) -> str:
    return "true" if value else "false"


def dense_elements(value: np.ndarray, aval: ShapedArray) -> str:
    """``dense<...> : tensor<...>``: the elements of ``value`` (cast to the aval's dtype)."""
    if aval.dtype == float0:  # zero-width elements: all equal, written as the boolean they lower to
        return f"dense<false> : {tensor_type(aval)}"
    value = np.ascontiguousarray(value, dtype=aval.dtype)
    if value.size == 0:
        return f"dense<> : {tensor_type(aval)}"
    flat = value.reshape(-1)
    raw = flat.astype(flat.dtype.newbyteorder("<")).tobytes()
    width = len(raw) // flat.size
    splat = raw == raw[:width] * flat.size
    if value.dtype == np.bool_ or value.dtype in _SUB_BYTE:
        return f"dense<{_nested_literal(flat[0] if splat else value)}> : {tensor_type(aval)}"
    return f'dense<"0x{(raw[:width] if splat else raw).hex().upper()}"> : {tensor_type(aval)}'


# Element types narrower than a byte, whose hex form MLIR packs; written as numbers instead.
_SUB_BYTE = (np.dtype(ml_dtypes.int4), np.dtype(ml_dtypes.uint4), np.dtype(ml_dtypes.float4_e2m1fn))


def _nested_literal(value: np.ndarray) -> str:
    if value.ndim == 0:
        item = value.item()
        if value.dtype == np.bool_:
            return "true" if item else "false"
        return str(int(item)) if value.dtype in _SUB_BYTE[:2] else repr(float(item))
    return "[" + ", ".join(_nested_literal(v) for v in value) + "]"


# ---------------------------------------------------------------- values and the emitter


def _carrying_tokens(region_body: Callable, effects: Sequence[Any], returns_state: bool) -> Callable:
    """A loop region's body whose first arguments are the tokens of ``effects`` (ordered effects, one each), which
    it carries on when it returns the state."""

    def with_tokens(inner: LoweringContext, values: list[Value]) -> list[Value]:
        inner.ordered_tokens = dict(zip(effects, values))
        outs = list(region_body(inner, values[len(effects):]))
        return [*inner.tokens(effects), *outs] if returns_state else outs

    return with_tokens


@dataclass(slots=True, eq=False, repr=False)
class Value:
    """An SSA value of the module being written: its name (``%3``, ``%4#1``), aval and MLIR type."""

    name: str
    aval: ShapedArray
    type: str | None = None  # the MLIR type; from the aval when not given

    def __post_init__(self):
        self.type = self.type or tensor_type(self.aval)

    def __repr__(self) -> str:
        return f"Value({self.name}: {tensor_type(self.aval)})"


# XLA's name of each compute type (a GPU stream is marked by its number instead)
_XLA_COMPUTE_TYPES = {"device_host": "host", "device": "dense", "tpu_sparsecore": "sparseoffload"}


def _flat(fun: Callable[..., Any]) -> Callable[..., list[Any]]:
    """``fun`` returning a list of its results (its one result in a list)."""
    def flat_fun(*xs):
        out = fun(*xs)
        return list(out) if isinstance(out, (list, tuple)) else [out]

    return flat_fun


def _trace_helper(fun: Callable[..., Any], avals: tuple, mesh: Any) -> Any:
    """The closed jaxpr of a lowering's helper ``fun`` on ``avals``: untyped (no layout rule applies to the
    lowering's own values) or, given an Explicit ``mesh``, typed under it."""
    with (use_abstract_mesh(mesh) if mesh is not None else layouts_ignored()), auto_meshes_ignored():
        return trace_to_jaxpr(_flat(fun), list(avals), None)


def _helper_jaxpr(fun: Callable[..., Any], avals: tuple, mesh: Any) -> Any:
    """``_trace_helper``'s jaxpr, traced once per helper, avals, mesh, flags and current mesh (a scan's helpers
    are traced on every lowering of every scan otherwise)."""
    key = (fun, avals, mesh, trace_context(), get_abstract_mesh())
    closed = _helper_jaxprs.lookup(key)
    if closed is None:
        closed = _helper_jaxprs[key] = _trace_helper(fun, avals, mesh)
    return closed


_helper_jaxprs = LruCache()


def compute_attributes(compute_type: str, extra: str = "") -> str:
    """The frontend attributes marking an op for XLA as computed on ``compute_type`` (as JAX marks it), with
    ``extra`` attributes after the compute type's."""
    if compute_type.startswith("gpu_stream:"):
        entries = [f'_xla_stream_annotation = "{compute_type.removeprefix("gpu_stream:")}"', 'inlineable = "false"']
    else:
        entries = [f'_xla_compute_type = "{_XLA_COMPUTE_TYPES[compute_type]}"']
    return "{" + ", ".join(entries + ([extra] if extra else [])) + "}"


class LoweringContext:
    """Emits the ops of one block (a function body or a region) into ``lines``.

    Lowering rules receive the context of the block they write into, with
    ``avals_in`` and ``avals_out`` set to the avals of the equation being lowered.
    """

    def __init__(self, module: Any, indent: str = "    "):
        self.module = module
        self.indent = indent
        self.lines: list[str] = []
        self.eqn: Any = None  # the equation being lowered
        # XLA's frontend attributes marking the ops of equations staged in a ``compute_on`` block (``with_compute``)
        self.compute_mark: str | None = None
        # The tokens threading this block's ordered side effects (host callbacks), one for each ordered effect: the
        # block's arguments, or made by the first call of the effect.
        self.ordered_tokens: dict[Any, Value] = {}
        # The values of the symbolic dimensions' variables in this function (lowering/dimensions.py), by name.
        self.dimension_values: dict[str, Value] = {}
        # Where its ops are, when the module writes locations (else all empty; see locations.py): the block's name
        # stack (``jit(f)`` in main), the frames of the equation calling its function (left out of its own), the
        # location of the ops that are the block's own (its constants, its terminator) and of the ops written
        # now, each as the text that follows an op (`` loc(...)``).
        self.block_name = ""
        self.caller: tuple[Any, ...] = ()
        self.base_location = ""
        self.location = ""
        # the frames of an equation staged with none of the user's (in a helper's function, see HelperSite)
        self.ambient = "unknown"
        # where the ops of the helpers lowered now are located each by its primitive (see ``named_in_helper``)
        self.helper_scope: tuple[HelperSite, str, int] | None = None
        # in a region, the equation whose op it belongs to (its regions' arguments are located after it)
        self.region_owner: Any = None

    @property
    def avals_in(self) -> list[ShapedArray]:
        return [v.aval for v in self.eqn.invars]

    @property
    def avals_out(self) -> list[ShapedArray]:
        return [v.aval for v in self.eqn.outvars]

    @property
    def module_context(self) -> Any:
        """The module being written, under JAX's name for it (rules call its ``add_keepalive``)."""
        return self.module

    def fresh_name(self) -> str:
        return self.module.fresh_name()

    def op(self, name: str, operands: Sequence[Value], out_avals: Sequence[ShapedArray],
           attributes: dict[str, str] | None = None, regions: Sequence[str] = ()) -> list[Value]:
        """Emit ``name`` (``"stablehlo.add"``) and return its results."""
        if self.compute_mark is not None and name != "stablehlo.constant" and (
                not attributes or "mhlo.frontend_attributes" not in attributes):
            attributes = {**(attributes or {}), "mhlo.frontend_attributes": self.compute_mark}
        result = self.fresh_name()
        n = len(out_avals)
        result_types = [tensor_type(a) for a in out_avals]
        attrs = ""
        if attributes:
            attrs = " {" + ", ".join([f"{k} = {v}" for k, v in attributes.items()]) + "}"
        region_text = " (" + ", ".join(regions) + ")" if regions else ""
        operand_names = ", ".join([v.name for v in operands])
        operand_types = ", ".join([v.type for v in operands])
        if n == 1:
            self.lines.append(f'{self.indent}{result} = "{name}"({operand_names}){region_text}{attrs} : '
                              f"({operand_types}) -> {result_types[0]}{self.location}")
            return [Value(result, out_avals[0], result_types[0])]
        target = f"{result}:{n} = " if n else ""
        self.lines.append(f'{self.indent}{target}"{name}"({operand_names}){region_text}{attrs} : '
                          f"({operand_types}) -> ({', '.join(result_types)}){self.location}")
        return [Value(f"{result}#{i}", aval, t) for i, (aval, t) in enumerate(zip(out_avals, result_types))]

    def op1(self, name: str, operands: Sequence[Value], out_aval: ShapedArray,
            attributes: dict[str, str] | None = None, regions: Sequence[str] = ()) -> Value:
        """Emit a single-result op."""
        return self.op(name, operands, [out_aval], attributes, regions)[0]

    def constant(self, value: Any, dtype: Any = None, shape: Sequence[int] = ()) -> Value:
        """A constant (``value`` broadcast to ``shape`` if it is a scalar)."""
        value = np.asarray(value, dtype=dtype)
        if not all(type(d) is int for d in shape):  # a symbolic shape: the scalar broadcast when the program runs
            return self.broadcast_to(self.constant(value, dtype), shape)
        aval = ShapedArray(tuple(shape) or value.shape, value.dtype)
        if value.shape != aval.shape:
            value = np.broadcast_to(value, aval.shape)
        return self.op1("stablehlo.constant", [], aval, {"value": dense_elements(value, aval)})

    def full_like(self, value: Any, like: Value | ShapedArray) -> Value:
        """``value`` broadcast to the shape and dtype of ``like``."""
        aval = like.aval if isinstance(like, Value) else like
        return self.constant(np.array(value, dtype=aval.dtype), aval.dtype, aval.shape)

    def broadcast_constant(self, value: Any, like: Value | ShapedArray) -> Value:
        """``value`` in the shape and dtype of ``like`` as JAX writes such a fill: a scalar constant broadcast, even
        to a scalar's own shape."""
        aval = like.aval if isinstance(like, Value) else like
        scalar = self.constant(value, aval.dtype)
        if not all(type(d) is int for d in aval.shape):
            return self.broadcast_to(scalar, aval.shape)
        return self.op1("stablehlo.broadcast_in_dim", [scalar], scalar.aval.update(shape=tuple(aval.shape)),
                        {"broadcast_dimensions": i64_array(())})

    def broadcast_to(self, value: Value, shape: Sequence[int]) -> Value:
        """``value`` broadcast to ``shape`` (its dimensions aligned to the trailing ones)."""
        shape = tuple(shape)
        if value.aval.shape == shape:
            return value
        dims = range(len(shape) - value.aval.ndim, len(shape))
        if not all(type(d) is int for d in shape):
            from jaxle_xla.lowering import dimensions  # local: the dynamic forms build on this module

            return dimensions.broadcast(self, value, value.aval.update(shape=shape), dims)
        return self.op1("stablehlo.broadcast_in_dim", [value], value.aval.update(shape=shape),
                        {"broadcast_dimensions": i64_array(dims)})

    def compare(self, direction: str, x: Value, y: Value, total_order: bool = False) -> Value:
        """``x <direction> y`` elementwise (EQ, NE, LT, LE, GT, GE), as their dtype compares (IEEE for floats, or
        with ``total_order`` -NaN < -inf < -0.0 < 0.0 < inf < NaN)."""
        compare_type = comparison_type(x.aval.dtype)
        if total_order and compare_type == "FLOAT":
            compare_type = "TOTALORDER"
        return self.op1("stablehlo.compare", [x, y], x.aval.update(dtype=np.dtype(np.bool_), weak_type=False), {
            "comparison_direction": f"#stablehlo<comparison_direction {direction}>",
            "compare_type": f"#stablehlo<comparison_type {compare_type}>"})

    def select(self, predicate: Value, on_true: Value, on_false: Value) -> Value:
        """``on_true`` where ``predicate`` holds, else ``on_false``."""
        return self.op1("stablehlo.select", [predicate, on_true, on_false], on_true.aval)

    def token(self, effect: Any) -> Value:
        """The token ordering this block's calls of the ordered ``effect``: the last one's, or a new one."""
        token = self.ordered_tokens.get(effect)
        if token is None:
            token = self.ordered_tokens[effect] = self.op1("stablehlo.create_token", [], abstract_token)
        return token

    def tokens(self, effects: Sequence[Any]) -> list[Value]:
        """The tokens of ``effects`` (see ``token``), in their order."""
        return [self.token(effect) for effect in effects]

    def continue_tokens(self, effects: Sequence[Any], values: Sequence[Value]) -> list[Value]:
        """Take the first of ``values`` as the tokens ``effects`` continue with (an op threading them returned
        them, first, as JAX's); returns the other values."""
        self.ordered_tokens.update(zip(effects, values))
        return list(values[len(effects):])

    def while_loop(self, state: Sequence[Value], cond: Callable[[LoweringContext, list[Value]], Sequence[Value]],
                   body: Callable[[LoweringContext, list[Value]], Sequence[Value]],
                   ordered_effects: Sequence[Any] = ()) -> list[Value]:
        """A ``stablehlo.while`` over ``state``: ``cond`` gives the predicate, ``body`` the next state. The tokens of
        ``ordered_effects`` (those the body has) are carried too, first, as JAX's, so the body's calls of each come
        after this block's earlier ones and before its later ones."""
        if ordered_effects:
            state = [*self.tokens(ordered_effects), *state]
            cond = _carrying_tokens(cond, ordered_effects, False)
            body = _carrying_tokens(body, ordered_effects, True)
        avals = [v.aval for v in state]
        # a loop's own ops are its equation's: marked as computed where the equation is
        regions = [self.region(avals, cond, marked=True, name="cond"),
                   self.region(avals, body, marked=True, name="body")]
        outs = self.op("stablehlo.while", state, avals, regions=regions)
        return self.continue_tokens(ordered_effects, outs)

    def region(self, arg_avals: Sequence[ShapedArray],
               body: Callable[[LoweringContext, list[Value]], Sequence[Value]],
               terminator: str = "stablehlo.return", marked: bool = False, name: str = "") -> str:
        """The text of a one-block region whose block takes ``arg_avals``; ``body`` returns its results (passed
        to the ``terminator`` op). With ``marked``, its ops are marked with this block's compute type. Its ops
        are located at the equation being lowered, the equations it lowers under that equation's name stack
        followed by ``name`` (``branch_0_fun``)."""
        inner = LoweringContext(self.module, self.indent + "  ")
        if marked:
            inner.compute_mark = self.compute_mark
        inner.dimension_values = self.dimension_values  # regions see their function's values
        owner = inner.region_owner = self.eqn or self.region_owner
        if self.location:
            inner.block_name = self.module.locations.name_stack(self.eqn, self.block_name, name)
            inner.caller, inner.base_location, inner.location = self.caller, self.location, self.location
            inner.ambient = self.ambient
        args = [Value(self.fresh_name(), aval) for aval in arg_avals]
        results = list(body(inner, args))
        inner.lines.append(f'{inner.indent}"{terminator}"({", ".join(v.name for v in results)}) : '
                           f"({', '.join([v.type for v in results])}) -> (){inner.base_location}")
        arg_location = f" loc({self.module.locations.region_argument(owner)})" if self.location and owner else ""
        header = ", ".join(f"{a.name}: {tensor_type(a.aval)}{arg_location}" for a in args)
        return "{\n" + f"{self.indent}^bb0({header}):\n" + "\n".join(inner.lines) + f"\n{self.indent}}}"

    def helper_site(self) -> HelperSite | None:
        """Where JAX locates the operations of the helper it traces to lower the equation being lowered (None
        where the module writes no locations)."""
        if not self.location:
            return None
        return self.module.locations.helper_site(self.eqn, self.block_name, self.caller)

    @contextmanager
    def located_in_helper(self, site: HelperSite | None, name: str, depth: int = 1,
                          user_function: bool = False) -> Iterator[None]:
        """Locate the ops written meanwhile (and the function a call among them calls) as JAX locates the
        operation at ``name`` of the helper of ``site``, ``depth`` levels of tracing down. The function called
        is the helper's own (its equations at the equation's frames) unless ``user_function`` (the user's
        body, its equations where the user staged them)."""
        if site is None:
            yield
            return
        saved = self.location, self.module.helper_call
        self.location = f" loc({site.operation(name, depth)})"
        self.module.helper_call = (site, name, user_function)
        try:
            yield
        finally:
            self.location, self.module.helper_call = saved

    @contextmanager
    def named_in_helper(self, site: HelperSite | None, scope: str, depth: int = 1) -> Iterator[None]:
        """Locate the ops of the helpers lowered meanwhile (``lower_fun``) each as JAX locates the operation of
        the helper of ``site`` that its equation's primitive names under ``scope`` (``while/body/`` + ``slice``),
        ``depth`` levels of tracing down."""
        if site is None:
            yield
            return
        saved, self.helper_scope = self.helper_scope, (site, scope, depth)
        try:
            yield
        finally:
            self.helper_scope = saved

    def lower_jaxpr(self, jaxpr: Any, consts: Sequence[Any], args: Sequence[Value]) -> list[Value]:
        """Emit the equations of ``jaxpr`` inline; returns the values of its outputs."""
        return self.module.lower_jaxpr_into(self, jaxpr, consts, args)

    def lower_call(self, jaxpr: Any, consts: Sequence[Any], args: Sequence[Value], name: str = "") -> list[Value]:
        """Emit inline the equations of ``jaxpr``, which the equation being lowered calls: located, as JAX locates
        a call's equations, under that equation's name stack followed by ``name`` (``checkpoint``)."""
        saved = self.block_name
        if self.location:
            self.block_name = self.module.locations.scope(self.eqn, self.block_name, name)
        try:
            return self.lower_jaxpr(jaxpr, consts, args)
        finally:
            self.block_name = saved

    def lower_fun(self, fun: Callable[..., Any], *args: Value, reuse: bool = False) -> list[Value]:
        """Trace ``fun`` (written with lax) on the avals of ``args`` and emit it inline. With ``reuse``, the trace
        is kept for the next lowering of ``fun`` on the same avals (``fun`` must be one object whose trace depends
        on nothing but its avals and the flags: a module-level function, not a closure made per call)."""
        avals = tuple(untyped(a.aval) for a in args)
        closed = _helper_jaxpr(fun, avals, None) if reuse else _trace_helper(fun, avals, None)
        # its ops are the equation's being lowered, and located there
        return self.module.lower_jaxpr_into(self, closed.jaxpr, closed.consts, args, located=False)

    def lower_typed_fun(self, fun: Callable[..., Any], mesh: Any, *args: Value, reuse: bool = False) -> list[Value]:
        """``lower_fun`` traced on the avals of ``args`` as they are typed, under ``mesh`` (of Explicit axes): each
        value the helper computes is typed by the sharding rules and, in a partitioned program, constrained to its
        type, as JAX lowers its helpers inside a program over such a mesh."""
        avals = tuple(a.aval for a in args)
        closed = _helper_jaxpr(fun, avals, mesh) if reuse else _trace_helper(fun, avals, mesh)
        # its ops are the equation's being lowered, and located there
        return self.module.lower_jaxpr_into(self, closed.jaxpr, closed.consts, args, located=False)
