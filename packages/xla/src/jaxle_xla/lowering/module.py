"""Lowering a closed jaxpr to a StableHLO module, one equation at a time.

Each primitive has a lowering rule registered with ``register_lowering``:
``rule(ctx, *operands, **params)`` emits ops through ``ctx`` (a
``LoweringContext``) and returns the result ``Value`` (a list of them for a
primitive with multiple results).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from jaxle_core import core
from jaxle_core.avals import ShapedArray
from jaxle_core.compute_types import computing_on
from jaxle_core.jaxpr_util import jaxpr_ordered_effects, sub_jaxprs
from jaxle_core.lax.placement import device_put_p
from jaxle_core.lax.tokens import abstract_token
from jaxle_core.layout import layout_mode
from jaxle_core.memory_spaces import MemorySpace
from jaxle_core.mesh import AbstractMesh
from jaxle_core.sharding import NamedSharding
from jaxle_xla import _jaxlib
from jaxle_xla.lowering.context import LoweringContext, Value, compute_attributes, tensor_type
from jaxle_xla.lowering.locations import UNKNOWN, Locations, named
from jaxle_xla.lowering.typed_layouts import constrain_results, constrains_types, typed_operand
from jaxle_xla.sharding import (
    HloNamedSharding,
    inspected_layout,
    mesh_text,
    one_device_of,
    program_placement,
    sdy_sharding_text,
)

LoweringRule = Callable[..., Any]
lowering_rules: dict[core.Primitive, LoweringRule] = {}


def register_lowering(*primitives: core.Primitive) -> Callable[[LoweringRule], LoweringRule]:
    """Decorator: ``rule`` lowers each of ``primitives``."""

    def register(rule: LoweringRule) -> LoweringRule:
        for primitive in primitives:
            lowering_rules[primitive] = rule
        return rule

    return register


def elementwise_op(primitive: core.Primitive, op_name: str) -> None:
    """Lower ``primitive`` to the elementwise op ``op_name``, broadcasting scalar operands to the result."""

    def rule(ctx: LoweringContext, *args: Value, **params) -> Value:
        shape = ctx.avals_out[0].shape
        operands = [typed_operand(ctx, a, i, ctx.broadcast_to(a, shape)) for i, a in enumerate(args)]
        return ctx.op1(op_name, operands, ctx.avals_out[0])

    lowering_rules[primitive] = rule


def constrain(ctx: LoweringContext, x: Value, sharding: Any, unconstrained_dims: frozenset = frozenset()) -> Value:
    """``x`` constrained to ``sharding`` in a partitioned program (unchanged on one device)."""
    sharding = program_placement(sharding)
    if not isinstance(sharding, NamedSharding) or ctx.module.mesh is None:
        return x
    text = ctx.module.sharding_text(sharding, x.aval, unconstrained_dims)
    return ctx.op1("sdy.sharding_constraint", [x], x.aval, {"sharding": text})


def on_one_device(ctx: LoweringContext, sharding: Any) -> bool:
    """Whether ``sharding`` names one device in a program on one device (no ``shard_map`` body being lowered): JAX
    keeps a constraint to it there, over the empty mesh (``constrain_to_device``)."""
    return ctx.module.mesh is None and not ctx.module.manual_regions and one_device_of(sharding) is not None


def constrain_to_device(ctx: LoweringContext, x: Value) -> Value:
    """``x`` constrained to the one device of the program (see ``on_one_device``), as JAX writes it."""
    return ctx.op1("sdy.sharding_constraint", [x], x.aval, {"sharding": ctx.module.whole_value(x.aval)})


def constrain_all(ctx: LoweringContext, values: Sequence[Value], shardings: Sequence[Any]) -> list[Value]:
    """Each of ``values`` constrained to the sharding at its position (None, or none given: left as it is): a
    function's boundary (a nested jit's in_shardings and out_shardings, one device's included)."""
    if not shardings:
        return list(values)
    return [value if sharding is None else constrain_to_device(ctx, value) if on_one_device(ctx, sharding)
            else constrain(ctx, value, sharding) for value, sharding in zip(values, shardings)]


class ModuleBuilder:
    """The functions of one StableHLO module being written."""

    def __init__(self, name: str, mesh: Any = None, replica_region: Any = None, entry_name: str = "",
                 locations: bool = False):
        """With ``locations``, its ops are located (see locations.py), ``main``'s under the name stack
        ``entry_name`` (``jit(f)``)."""
        self.name = name
        self.mesh = mesh  # the Mesh a partitioned program runs over (None: one device)
        self._mesh_symbols: dict[Any, str] = {} if mesh is None else {mesh: "mesh"}
        self._named_meshes: dict[str, str] = {}  # sdy.mesh declarations by their own names (see named_mesh)
        self._used_meshes: dict[str, None] = {}  # the mesh symbols some sharding names, in the order first named
        # the shard_map bodies being lowered, innermost last; a replicated program's axes come first
        self.manual_regions: list[Any] = [] if replica_region is None else [replica_region]
        self.num_replicas = 1 if replica_region is None else replica_region.mesh.size
        self.locations = Locations() if locations else None
        self.entry_name = entry_name
        # the equation being lowered and the block it is in (what a nested function it calls is located after)
        self._calling: tuple[Any, LoweringContext] | None = None
        # the helper's call being written (its site, name, whether it calls the user's function) while a lowering
        # rule locates ops as JAX's helper's (see LoweringContext.located_in_helper)
        self.helper_call: tuple[Any, str, bool] | None = None
        self._counter = 0
        self._suffixes = 0  # the next suffix of a name taken (reserve_symbol)
        self._functions: list[str] = []
        self._function_names: dict[int, str] = {}
        self._taken: set[str] = {"main", *self._mesh_symbols.values()}
        self.host_callbacks: list[Callable[..., Any]] = []
        # inspect_array_sharding's callbacks in a program on one device, called once it is compiled (a partitioned
        # program's partitioner calls them itself)
        self.inspections: list[Callable[[Any], Any]] = []

    def add_host_callback(self, callback: Callable[..., Any]) -> int:
        """Register a Python function the compiled program calls on the host; returns its index, by which the
        program's custom call names it (compiled with the list, in this order)."""
        self.host_callbacks.append(callback)
        return len(self.host_callbacks) - 1

    def add_keepalive(self, keepalive: Any) -> None:
        """Keep ``keepalive`` for as long as the module (JAX's rules hand over what their callbacks need): the host
        callbacks it holds live with the compiled program."""
        if keepalive is not None:
            self.host_callbacks.append(keepalive)

    def fresh_name(self) -> str:
        self._counter = counter = self._counter + 1
        return f"%{counter}"

    def lower_jaxpr_into(self, ctx: LoweringContext, jaxpr: core.Jaxpr, consts: Sequence[Any],
                         args: Sequence[Value], located: bool = True) -> list[Value]:
        """Emit ``jaxpr``'s equations into ``ctx``'s block; returns its outputs' values. Where the module writes
        locations, each equation's ops are located at it (unless not ``located``: a helper of the equation being
        lowered, whose location its ops keep)."""
        located = located and self.locations is not None
        outer_location, outer_calling, outer_eqn = ctx.location, self._calling, ctx.eqn
        try:
            return self._lower_equations(ctx, jaxpr, consts, args, located)
        finally:
            ctx.location, self._calling, ctx.eqn = outer_location, outer_calling, outer_eqn

    def _lower_equations(self, ctx: LoweringContext, jaxpr: core.Jaxpr, consts: Sequence[Any],
                         args: Sequence[Value], located: bool) -> list[Value]:
        env: dict[core.Var, Value] = {}

        def read(atom: Any) -> Value:
            if type(atom) is core.Literal:
                return ctx.constant(np.asarray(atom.val, dtype=atom.aval.dtype), atom.aval.dtype, atom.aval.shape)
            return env[atom]

        for var, const in zip(jaxpr.constvars, consts):
            env[var] = ctx.constant(np.asarray(const, dtype=var.aval.dtype), var.aval.dtype, var.aval.shape)
        env.update(zip(jaxpr.invars, args))
        typed = constrains_types(ctx)  # only partitioned programs with sharding in types pay for it
        for eqn in jaxpr.eqns:
            rule = lowering_rules.get(eqn.primitive)
            if rule is None:
                raise NotImplementedError(
                    f"No XLA lowering for primitive '{eqn.primitive.name}'. Register one with "
                    "jaxle_xla.lowering.register_lowering (see docs/xla.md).")
            ctx.eqn = eqn
            if located:  # its literals are the block's constants, located with it
                ctx.location = ctx.base_location
                operands = list(map(read, eqn.invars))
                ctx.location = f" loc({self.locations.equation(eqn, ctx.block_name, ctx.caller, ctx.ambient)})"
                self._calling = (eqn, ctx)
            else:
                operands = list(map(read, eqn.invars))
                if ctx.helper_scope is not None:
                    site, scope, depth = ctx.helper_scope
                    ctx.location = f" loc({site.operation(scope + eqn.primitive.name, depth)})"
            if eqn.compute_type is None:
                outs = rule(ctx, *operands, **eqn.params)
            else:  # its ops marked, and those of the jaxprs its rule traces (staged on its compute type)
                outer, ctx.compute_mark = ctx.compute_mark, compute_attributes(eqn.compute_type)
                try:
                    with computing_on(eqn.compute_type):
                        outs = rule(ctx, *operands, **eqn.params)
                finally:
                    ctx.compute_mark = outer
            if not eqn.primitive.multiple_results:
                outs = [outs]
            if typed:
                outs = constrain_results(ctx, eqn, outs)
            env.update(zip(eqn.outvars, outs))
        return [read(v) for v in jaxpr.outvars]

    def function(self, closed: core.ClosedJaxpr, name: str, keep_name: bool = False, effects: tuple = (),
                 in_shardings: Sequence[Any] = (), out_shardings: Sequence[Any] = ()) -> str:
        """The symbol (as a reference writes it) of a private function computing ``closed`` (written once per
        jaxpr and shardings); ``keep_name`` keeps ``name`` as it is, quoted where it is not a bare symbol (as JAX
        names nested jits' functions, ``@"<lambda>"``, and composites' decompositions). It takes the caller's tokens
        of the ordered ``effects`` as first arguments and returns those of its own last calls of them first.
        In a partitioned program, its arguments and results are constrained to ``in_shardings`` and
        ``out_shardings`` inside it (a nested jit's, as JAX writes them)."""
        key = (id(closed), effects, tuple(in_shardings), tuple(out_shardings))
        known = self._function_names.get(key)
        if known is not None:
            return known
        unique = self.reserve_symbol(name if keep_name else symbol_name(name))
        if not _BARE_SYMBOL.fullmatch(unique):
            unique = _string_attribute(unique)
        self._function_names[key] = unique
        slot = self._slot()
        self._functions[slot] = self._function_text(closed, unique, "private", (), effects,
                                                    boundary_shardings=(in_shardings, out_shardings))
        return unique

    @contextmanager
    def _function_body(self) -> Iterator[None]:
        """While a nested function's body is lowered: the functions it calls are its own, not those of the helper
        call the function itself is (see ``helper_call``), which calls the next ones once it is written."""
        saved, self.helper_call = self.helper_call, None
        try:
            yield
        finally:
            self.helper_call = saved

    def _locate_function(self, ctx: LoweringContext) -> str:
        """Make ``ctx`` the block of a nested function called by the equation being lowered; returns the
        function's location (the text after it)."""
        if self.locations is None or self._calling is None:
            return ""
        eqn, calling = self._calling
        ctx.caller = self.locations.frames(None if eqn.source is None else eqn.source[0])
        ctx.base_location = ctx.location = f" loc({UNKNOWN})"
        if self.helper_call is not None:  # called by the helper traced to lower the equation (see HelperSite)
            site, name, user_function = self.helper_call
            if not user_function:
                ctx.ambient = site.own
            return f" loc({site.function(name)})"
        return f" loc({self.locations.function(eqn, calling.block_name, calling.caller)})"

    def _locate_main(self, ctx: LoweringContext, closed: core.ClosedJaxpr) -> str:
        """Make ``ctx`` the block of ``main``: its own ops located at its name stack over where it was traced."""
        if self.locations is None:
            return ""
        debug_info = closed.jaxpr.debug_info
        traceback = getattr(debug_info, "traceback", None)
        where = self.locations.stack(traceback)
        self.locations.entry = self.locations.frames(traceback)
        ctx.block_name = self.entry_name
        ctx.base_location = ctx.location = f" loc({named(self.entry_name, where)})"
        return f" loc({UNKNOWN})"

    def _slot(self) -> int:
        """The place of a function about to be written: after those begun before it, before those it calls (the
        functions of a module come in the order their writing begins, as JAX's)."""
        self._functions.append("")
        return len(self._functions) - 1

    def inspect_sharding(self, ctx: LoweringContext, value: Value, callback: Callable[[Any], Any]) -> None:
        """Call ``callback`` with ``value``'s layout once compiled: on one device, that device's; in a partitioned
        program, the one XLA's partitioner settles on, which it reports (wherever the value is, control flow and
        nested functions included) to jaxlib's ``InspectSharding`` custom call while compiling."""
        if self.mesh is None:
            self.inspections.append(callback)
            return
        mesh, ndim = self.mesh, len(value.aval.shape)

        def report(hlo: Any) -> None:
            callback(inspected_layout(hlo, mesh, ndim))

        self.add_keepalive(report)  # the custom call names it by address until the program is compiled
        ctx.op("stablehlo.custom_call", [value], [value.aval], {
            "call_target_name": '"InspectSharding"', "has_side_effect": "true",
            "backend_config": _bytes_attribute(_jaxlib.inspect_sharding_key(report))})

    def whole_value(self, aval: Any) -> str:
        """The Shardy sharding of a value that no mesh axis splits, over the program's mesh or the empty one."""
        symbol = self.named_mesh("empty_mesh") if self.mesh is None else self._used(self._mesh_symbols[self.mesh])
        return f"#sdy.sharding<@{symbol}, [{', '.join(['{}'] * len(aval.shape))}]>"

    def _used(self, symbol: str) -> str:
        self._used_meshes.setdefault(symbol)
        return symbol

    def sharding_text(self, sharding: NamedSharding, aval: Any, unconstrained_dims: frozenset = frozenset()) -> str:
        """The Shardy sharding of a value of ``aval`` laid out by ``sharding``: over its mesh, or for a
        GSPMDSharding's whole copies over the empty mesh, as JAX writes them."""
        if type(sharding) is HloNamedSharding and sharding.gspmd.is_fully_replicated:
            return f"#sdy.sharding<@{self.named_mesh('empty_mesh')}, [{', '.join(['{}'] * len(aval.shape))}]>"
        return sdy_sharding_text(sharding, aval.ndim, self.mesh_symbol(sharding.mesh), unconstrained_dims)

    def next_channel(self) -> int:
        """The channel handle of a collective between partitions: 1 for every one, as JAX writes them (XLA's SPMD
        partitioner assigns the channels of the partitioned program itself)."""
        return 1

    def mesh_symbol(self, mesh: Any) -> str:
        """The name of the ``sdy.mesh`` of ``mesh``'s axes (declared once), for Shardy sharding attributes; its
        devices must be the program's."""
        # an abstract mesh may type the axes otherwise (auto_axes, explicit_axes): its names and sizes must match
        if self.mesh is None or ((mesh.axis_names, mesh.axis_sizes) != (self.mesh.axis_names, self.mesh.axis_sizes)
                                 if isinstance(mesh, AbstractMesh) else
                                 mesh._flat_devices_tuple != self.mesh._flat_devices_tuple):
            raise ValueError(f"a sharding over {mesh} in a program that runs over "
                             f"{'one device' if self.mesh is None else self.mesh}")
        if isinstance(mesh, AbstractMesh):  # the program's own mesh, as tracing under set_mesh saw it
            symbol = self._mesh_symbols[self.mesh]
        else:
            symbol = self._mesh_symbols.get(mesh)
            if symbol is None:
                symbol = self._mesh_symbols[mesh] = self.reserve_symbol("mesh")
        return self._used(symbol)

    def named_mesh(self, name: str, device_id: int | None = None) -> str:
        """The symbol of an ``sdy.mesh`` of no axes (the empty mesh, or the maximal mesh of the device at
        ``device_id``), declared once under ``name``; returns ``name``."""
        if name not in self._named_meshes:
            self._taken.add(name)
            self._named_meshes[name] = mesh_text((), device_id)
        return self._used(name)

    def reserve_symbol(self, name: str) -> str:
        """A function name based on ``name`` that no other function of the module has, reserved: ``name``, or if
        taken ``name_N`` with N from one count shared by every name of the module (as MLIR's symbol tables name)."""
        unique = name
        while unique in self._taken:
            unique, self._suffixes = f"{name}_{self._suffixes}", self._suffixes + 1
        self._taken.add(unique)
        return unique

    def add_function_text(self, text: str) -> None:
        """Append a function written elsewhere (its name reserved with ``reserve_symbol``)."""
        self._functions.append(text)

    def written_function(self, name: str, arg_avals: Sequence[Any],
                         body: Callable[[LoweringContext, list[Value]], Sequence[Value]], key: Any = None) -> str:
        """The symbol of a private function of arguments ``arg_avals`` whose operations ``body(ctx, args)`` writes,
        returning its results; named after ``name``, written once per ``key`` (None: a new one at each call)."""
        known = None if key is None else self._function_names.get(key)
        if known is not None:
            return known
        unique = self.reserve_symbol(name)
        if key is not None:
            self._function_names[key] = unique
        slot = self._slot()
        ctx = LoweringContext(self)
        location = self._locate_function(ctx)
        args = [Value(f"%arg{i}", aval) for i, aval in enumerate(arg_avals)]
        with self._function_body():
            results = list(body(ctx, args))
        types = ", ".join(v.type for v in results)
        ctx.lines.append(f'{ctx.indent}"func.return"({", ".join(v.name for v in results)}) : ({types}) -> ()'
                         f"{ctx.base_location}")
        params = ", ".join(f"{a.name}: {a.type}" for a in args)
        self._functions[slot] = (f"  func.func private @{unique}({params}) -> ({types}) {{\n" + "\n".join(ctx.lines)
                                 + f"\n  }}{location}")
        return unique

    def _function_text(self, closed: core.ClosedJaxpr, name: str, visibility: str,
                       arg_attributes: Sequence[str], effects: Sequence[Any] = (),
                       result_attributes: Sequence[str] = (), placed: Sequence[str | None] = (),
                       boundary_shardings: tuple[Sequence[Any], Sequence[Any]] = ((), ()),
                       boundary_layouts: tuple[Sequence[str | None], Sequence[str | None]] = ((), ())) -> str:
        ctx = LoweringContext(self)
        location = self._locate_main(ctx, closed) if visibility == "public" else self._locate_function(ctx)
        with self._function_body():
            args = [Value(f"%arg{i}", v.aval) for i, v in enumerate(closed.jaxpr.invars)]
            if _is_polymorphic(closed.in_avals):
                from jaxle_xla.lowering.dimensions import bind_dimension_variables  # local: it registers rules here

                bind_dimension_variables(ctx, args)
            token_args = [Value(f"%token{i}", abstract_token) for i in range(len(effects))]
            ctx.ordered_tokens = dict(zip(effects, token_args))
            in_shardings, out_shardings = boundary_shardings
            in_layouts, out_layouts = boundary_layouts
            inputs = _constrained_to_texts(ctx, constrain_all(ctx, args, in_shardings), in_layouts)
            outs = ctx.lower_jaxpr(closed.jaxpr, closed.consts, inputs)
            outs = _constrained_to_texts(ctx, constrain_all(ctx, outs, out_shardings), out_layouts)
            outs = [placed_in(ctx, v, kind) if kind else v for v, kind in zip(outs, _padded(placed, len(outs)))]
            if effects:  # the tokens first, marked as JAX marks them
                args, outs = [*token_args, *args], [*ctx.tokens(effects), *outs]
                arg_attributes = [_TOKEN] * len(effects) + list(arg_attributes)
                result_attributes = [_TOKEN] * len(effects) + list(result_attributes)
        attributes = list(arg_attributes) + [""] * (len(args) - len(arg_attributes))
        params = ", ".join(f"{a.name}: {tensor_type(a.aval)}{attr}" for a, attr in zip(args, attributes))
        results = ", ".join(tensor_type(v.aval) for v in outs)
        ret = f'    "func.return"({", ".join(v.name for v in outs)}) : ({results}) -> (){ctx.base_location}'
        if result_attributes:
            attributes = list(result_attributes) + [""] * (len(outs) - len(result_attributes))
            results = ", ".join(f"{tensor_type(v.aval)}{attr}" for v, attr in zip(outs, attributes))
        return (f"  func.func {visibility} @{name}({params}) -> ({results}) {{\n"
                + "\n".join(ctx.lines + [ret]) + f"\n  }}{location}")

    def module_text(self, closed: core.ClosedJaxpr, donated: Sequence[bool], aliases: Sequence[int | None],
                    arg_shardings: Sequence[str | None] = (), result_shardings: Sequence[str | None] = (),
                    arg_kinds: Sequence[str | None] = (), result_kinds: Sequence[str | None] = (),
                    layout_modes: tuple = ((), ()), result_names: Sequence[str] = (),
                    boundary_layouts: tuple[Sequence[str | None], Sequence[str | None]] = ((), ()),
                    entry_tokens: bool = False) -> str:
        """The module with entry point ``main``; ``aliases`` the output each input must alias (None: the first
        unclaimed one of its type where it is ``donated``); ``arg_shardings`` and ``result_shardings`` are Shardy
        sharding attributes (None: left to the partitioner) of a program partitioned over ``mesh``; ``arg_kinds`` and
        ``result_kinds`` the memory kinds asked for (None: where their types say); ``layout_modes`` the memory
        layouts asked for of the arguments and of the results (XLA's ``mhlo.layout_mode``; None: the default);
        ``result_names`` the results' ``jax.result_info`` (results past them have none); ``boundary_layouts``
        the Shardy shardings the arguments (first thing) and the results (last thing) are constrained to inside
        ``main`` (None: not constrained). With ``entry_tokens``, ``main`` takes a token for each ordered effect
        of the program first and returns the token of its last call of each first (as JAX's: the caller threads
        them from one call to the next); else it makes its own."""
        n_in, n_out = len(closed.jaxpr.invars), len(closed.jaxpr.outvars)
        effects = jaxpr_ordered_effects(closed.jaxpr) if entry_tokens else []
        arg_entries = [[d] if d else [] for d in _donation_attributes(closed, donated, aliases, len(effects))]
        arg_shardings = list(arg_shardings) + [None] * (n_in - len(arg_shardings))
        result_shardings = list(result_shardings) + [None] * (n_out - len(result_shardings))
        in_kinds = [_kind_of(a, k) for a, k in zip(closed.in_avals, _padded(arg_kinds, n_in))]
        # results put in host memory by out_shardings, as JAX writes it: a placement annotation on the value
        # returned, and a sharding of the whole value
        placed = [kind if _host_kind(kind) else None for kind in _padded(result_kinds, n_out)]
        result_shardings = [self.whole_value(a) if p and s is None else s
                            for s, p, a in zip(result_shardings, placed, closed.out_avals)]
        out_kinds = [p or _kind_of(a, None) for a, p in zip(closed.out_avals, placed)]
        for i, (entries, sharding) in enumerate(zip(arg_entries, arg_shardings)):
            if in_kinds[i]:  # as JAX writes it: the memory, and a sharding of the whole value (over no axes)
                entries.append(f'mhlo.memory_kind = "{in_kinds[i]}"')
                sharding = sharding or self.whole_value(closed.in_avals[i])
            if sharding is not None:
                entries.append(f"sdy.sharding = {sharding}")
        for entries, mode in zip(arg_entries, layout_modes[0]):
            if mode is not None:
                entries.append(f'mhlo.layout_mode = "{mode}"')
        # once some value is outside device memory (or put there on the way), every result says where it lives
        memory_kinds = any(in_kinds) or any(out_kinds) or _puts_in_host_memory(closed.jaxpr)
        # a result a layout constraint computes takes the layout XLA chooses (which honours the constraint), as JAX's
        constrained = {id(eqn.outvars[0]) for eqn in closed.jaxpr.eqns if eqn.primitive.name == "layout_constraint"}
        result_modes = [mode if mode is not None or id(v) not in constrained else "auto"
                        for mode, v in zip(_padded(layout_modes[1], n_out), closed.jaxpr.outvars)]
        results = [([f'mhlo.memory_kind = "{kind or "device"}"'] if memory_kinds else [])
                   + ([f"sdy.sharding = {s}"] if s is not None else [])
                   + ([f'mhlo.layout_mode = "{mode}"'] if mode is not None else [])
                   for s, kind, mode in zip(result_shardings, out_kinds, result_modes)]
        for entries, result_name in zip(results, result_names):
            entries.append(f"jax.result_info = {_string_attribute(result_name)}")
        main = self._function_text(closed, "main", "public", [_attributes(e) for e in arg_entries[:n_in]],
                                   result_attributes=[_attributes(e) for e in results], placed=placed,
                                   boundary_layouts=boundary_layouts, effects=effects)
        # the meshes some sharding names, in the order first named (a GSPMDSharding's whole copies are written over
        # the empty mesh, and a program's mesh no sharding names is not declared), as JAX declares them
        texts = {**{symbol: mesh_text(mesh.shape_tuple) for mesh, symbol in self._mesh_symbols.items()},
                 **self._named_meshes}
        meshes = [f"  sdy.mesh @{symbol} = {texts[symbol]}" for symbol in self._used_meshes]
        body = "\n".join(meshes + [main] + self._functions)
        partitions = 1 if self.mesh is None else self.mesh.size
        polymorphic = "jax.uses_shape_polymorphism = true, " if _is_polymorphic(closed.in_avals) else ""
        return (f"module @{self.name} attributes {{{polymorphic}mhlo.num_partitions = {partitions} : i32, "
                f"mhlo.num_replicas = {self.num_replicas} : i32}} {{\n{body}\n}}\n")


def _constrained_to_texts(ctx: LoweringContext, values: Sequence[Value], texts: Sequence[str | None]
                          ) -> list[Value]:
    """Each of ``values`` constrained to the Shardy sharding at its position (None, or none given: as it is)."""
    return [value if text is None else ctx.op1("sdy.sharding_constraint", [value], value.aval, {"sharding": text})
            for value, text in zip(values, list(texts) + [None] * (len(values) - len(texts)))]


def _is_polymorphic(avals: Sequence[Any]) -> bool:
    """Whether some argument has a symbolic (dynamic) dimension."""
    return any(type(d) is not int for a in avals for d in getattr(a, "shape", ()))


def placed_in(ctx: LoweringContext, value: Value, kind: str) -> Value:
    """``value`` annotated for XLA as placed in the host memory of ``kind``."""
    return ctx.op1("stablehlo.custom_call", [value], value.aval, {
        "backend_config": '""', "call_target_name": '"annotate_device_placement"', "has_side_effect": "true",
        "mhlo.frontend_attributes": f'{{_xla_buffer_placement = "{kind}"}}'})


def _padded(kinds: Sequence[Any], n: int) -> list[Any]:
    return list(kinds) + [None] * (n - len(kinds))


def _host_kind(kind: str | None) -> bool:
    return kind not in (None, "device")


def _kind_of(aval: Any, kind: str | None) -> str | None:
    """The host memory a value lives in: the ``kind`` asked for, else pinned host memory when its type says
    so; None for device memory."""
    if _host_kind(kind):
        return kind
    return "pinned_host" if getattr(aval, "memory_space", MemorySpace.Device) is MemorySpace.Host else None


def _puts_in_host_memory(jaxpr: core.Jaxpr) -> bool:
    """Whether a ``device_put`` of ``jaxpr`` (or of a jaxpr inside) moves a value to a host memory."""
    for eqn in jaxpr.eqns:
        if eqn.primitive is device_put_p and any(
                d is MemorySpace.Host or _host_kind(getattr(d, "memory_kind", None)) for d in eqn.params["devices"]):
            return True
        if any(_puts_in_host_memory(inner) for inner in sub_jaxprs(eqn.params)):
            return True
    return False


def _bytes_attribute(data: bytes) -> str:
    """``data`` as an MLIR string attribute, every byte escaped."""
    return '"' + "".join(f"\\{b:02X}" for b in data) + '"'


def _string_attribute(text: str) -> str:
    """``text`` as an MLIR string attribute (quotes and backslashes escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_TOKEN = " {jax.token = true}"  # the attribute of a function's token argument and result


def _attributes(entries: Sequence[str]) -> str:
    return f" {{{', '.join(entries)}}}" if entries else ""


def donation_key(aval: ShapedArray) -> ShapedArray:
    """What a donated input and the output reusing its buffer share: the type, whatever its weak type and the mesh
    of Auto axes it is typed over (a partitioned program's arguments carry it, the results of its manual
    computations not)."""
    stripped = aval.strip_weak_type()
    return stripped.update(auto_mesh=None) if type(stripped) is ShapedArray else stripped


def _donation_attributes(closed: core.ClosedJaxpr, donated: Sequence[bool],
                         aliases: Sequence[int | None] = (), leading_results: int = 0) -> list[str]:
    """Alias each input given an output in ``aliases`` to that output, and each other donated input to an
    unclaimed output of the same type, as JAX does; the function returns ``leading_results`` values (tokens)
    before the outputs."""
    aliases = _padded(aliases, len(closed.jaxpr.invars))
    claimed = set(aliases)
    free_outputs: dict[ShapedArray, list[int]] = {}
    for i, aval in enumerate(closed.out_avals):
        if i not in claimed:
            free_outputs.setdefault(donation_key(aval), []).append(i)
    attributes = []
    for var, is_donated, alias in zip(closed.jaxpr.invars, donated, aliases):
        if alias is None and is_donated:
            candidates = free_outputs.get(donation_key(var.aval))
            alias = candidates.pop(0) if candidates else None
            if alias is None:
                attributes.append("jax.buffer_donor = true")
                continue
        attributes.append("" if alias is None else f"tf.aliasing_output = {alias + leading_results} : i32")
    return attributes


class LoweredModule(NamedTuple):
    """A StableHLO module's text and the host callbacks its custom calls name by index."""

    text: str
    host_callbacks: list[Callable[..., Any]]
    inspections: list[Callable[[Any], Any]]  # inspect_array_sharding's callbacks of a program on one device


def lower_module(closed: core.ClosedJaxpr, name: str, donated: Sequence[bool] = (), mesh: Any = None,
                 arg_shardings: Sequence[Any] = (), result_shardings: Sequence[Any] = (),
                 replica_region: Any = None, kind: str = "jit", layouts: tuple = ((), ()),
                 result_names: Sequence[str] = (), annotate_devices: bool = False,
                 key_data: tuple[Sequence[int | None], Sequence[int | None]] = ((), ()),
                 aliases: Sequence[int | None] = (), locations: bool = False, entry_tokens: bool = False
                 ) -> LoweredModule:
    """The StableHLO module (generic-form text) named ``{kind}_{name}`` computing ``closed``, entry point
    ``@main``, with its host callbacks; each input donated, or given an output in ``aliases``, aliases an output
    (see ``module_text``). With a ``mesh`` it is partitioned over the mesh's devices: ``arg_shardings``
    and ``result_shardings`` (NamedShardings, or None where the partitioner chooses) annotate its boundary. With a
    ``replica_region`` (a ``ManualRegion`` over replicas) it runs replicated, its collectives over that region's
    axes communicating between replicas. ``layouts``: the memory layouts asked for of the arguments and of the
    results (``Layout``, ``Layout.AUTO`` or None for the default). ``result_names`` are the results'
    ``jax.result_info``; with ``annotate_devices`` one-device shardings are annotated over the empty mesh (as JAX's
    lowered text shows them; the compiled program has no need of them), and so are, inside ``main``, the arguments
    that hold keys and are placed nowhere (in a partitioned program, a single key's instead at the boundary, as a
    scalar's), and the results that hold keys: ``key_data``
    gives for each argument and result the number of dimensions of one key's data (None: it holds no keys), which
    the annotation keeps whole (the others left open). With ``locations`` its ops are located where their
    equations were staged (as JAX's, see locations.py). With ``entry_tokens`` ``main`` takes and returns the tokens
    of the ordered effects (see ``module_text``)."""
    donated = list(donated) + [False] * (len(closed.jaxpr.invars) - len(donated))
    builder = ModuleBuilder(f"{kind}_{symbol_name(name)}", mesh, replica_region, f"{kind}({name})", locations)

    def attributes(shardings: Sequence[Any], avals: Sequence[Any], arguments: bool) -> list[str | None]:
        key_dims = list(key_data[0]) + [None] * (len(avals) - len(key_data[0]))
        return [builder.sharding_text(s, a) if isinstance(s, NamedSharding)
                else builder.whole_value(a) if annotate_devices and one_device_of(s) is not None
                else _unplaced_scalar(a, d or 0) if annotate_devices and arguments and s is None else None
                for s, a, d in zip(list(shardings) + [None] * (len(avals) - len(shardings)), avals, key_dims)]

    def _unplaced_scalar(aval: Any, key_dims: int) -> str | None:
        # JAX's partitioned programs annotate a scalar argument laid out nowhere over the empty mesh (a key's data
        # whole)
        if mesh is None or getattr(aval, "ndim", None) != key_dims:
            return None
        return f"#sdy.sharding<@{builder.named_mesh('empty_mesh')}, [{', '.join(['{}'] * key_dims)}]>"

    arg_attributes = attributes(arg_shardings, closed.in_avals, True)
    result_attributes = attributes(result_shardings, closed.out_avals, False)

    def key_layouts(key_dims: Sequence[int | None], avals: Sequence[Any], placed: Sequence[str | None]
                    ) -> list[str | None]:
        if not annotate_devices:
            return []
        # keys typed over Explicit axes but left to the partitioner (beside Auto axes) are not constrained, as JAX's
        return [None if d is None or p is not None or _names_explicit_axes(a) else
                f"#sdy.sharding<@{builder.named_mesh('empty_mesh')}, "
                f"[{', '.join(['{?}'] * (a.ndim - d) + ['{}'] * d)}]>"
                for d, a, p in zip(key_dims, avals, placed)]

    text = builder.module_text(closed, donated, aliases, arg_attributes, result_attributes,
                               [getattr(s, "memory_kind", None) for s in arg_shardings],
                               [getattr(s, "memory_kind", None) for s in result_shardings],
                               tuple([layout_mode(layout) for layout in side] for side in layouts), result_names,
                               (key_layouts(key_data[0], closed.in_avals, arg_attributes),
                                key_layouts(key_data[1], closed.out_avals, result_attributes)), entry_tokens)
    return LoweredModule(text, builder.host_callbacks, builder.inspections)


def _names_explicit_axes(aval: Any) -> bool:
    sharding = getattr(aval, "explicit_sharding", None)
    return sharding is not None and any(entry is not None for entry in sharding.spec)


def lower_to_text(closed: core.ClosedJaxpr, name: str, donated: Sequence[bool] = ()) -> str:
    """The StableHLO module (generic-form text) computing ``closed``; its entry point is ``@main``."""
    return lower_module(closed, name, donated).text


# MLIR's bare identifiers: what a symbol may be without quotes.
_BARE_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def symbol_name(name: str) -> str:
    """``name`` as an MLIR symbol, as JAX spells them: ``<lambda>`` becomes ``_lambda``."""
    cleaned = "".join(c if c.isalnum() or c == "_" else "_" for c in name.replace(">", ""))
    return cleaned if cleaned[:1].isalpha() or cleaned[:1] == "_" else f"_{cleaned}"
