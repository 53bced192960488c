"""Arrays of extended dtypes (PRNG keys): the physical representation every backend computes with.

An array of an extended dtype (``dtypes.ExtendedDType``) of shape ``s`` is stored as an ordinary array of
shape ``s + dtype.physical_shape`` and dtype ``dtype.physical_dtype``. Tracing, jaxprs and the transforms
see the extended aval (``key<fry>[3]``); only backends look through it:

- a *physical rule* says what a primitive does to physical arrays: ``rule(*physical_operands, avals_in,
  avals_out, **params)`` returns the physical results, written with lax on ordinary arrays. The reference
  backend evaluates it eagerly; jaxle_xla lowers it inline (the constants it makes first). Structural
  primitives (reshape, slice, ...) get theirs in ``jaxle_core.lax.physical``; the package defining an extended
  dtype registers the rules of its own primitives;
- a concrete array of an extended dtype is an ``ExtendedArray``: its aval and the backend Array holding its
  physical representation (``physical``). ``dtype.wrap(physical)`` builds one;
- ``physicalize`` rewrites a jaxpr into one on physical arrays only (what a compiler is given): equations
  with extended values are replaced by their physical rules, and primitives that carry jaxprs (jit, scan,
  cond, ...) get their jaxprs physicalized.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.array import Array
from jaxle_core.auto_mesh_types import traced_mesh
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.caches import LruCache
from jaxle_core.config import trace_context
from jaxle_core.core import ClosedJaxpr, Jaxpr, Literal, Primitive
from jaxle_core.mesh import PartitionSpec, get_abstract_mesh
from jaxle_core.staging import trace_to_jaxpr
from jaxle_tree.accelerator import register_dispatch_node

__all__ = ["ExtendedArray", "apply_physically", "evaluated_on_data", "has_extended", "jaxpr_has_extended",
           "logical_sharding", "physical_aval", "physical_call_p", "physical_rules", "physical_value", "physicalize",
           "wrap_physical"]

PhysicalRule = Callable[..., Any]
# primitive -> rule(*physical_operands, avals_in=..., avals_out=..., **params) -> physical result(s)
physical_rules: dict[Primitive, PhysicalRule] = {}
# The primitives making values of an extended dtype that JAX evaluates eagerly as their physical rule applied to the
# physical data, the result wrapped (seeding, splitting keys): a backend laying values out over several devices lays
# such a result's data out as a plain array's, where other results of an extended dtype are laid out as their
# elements are, each element's data whole.
evaluated_on_data: set[Primitive] = set()


class ExtendedArray(Array):
    """A concrete array of an extended dtype over the backend Array ``physical`` of its physical representation."""

    __slots__ = ("aval", "physical")

    def __init__(self, aval: ShapedArray, physical: Array):
        self.aval = aval
        self.physical = physical

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # jaxlib's C++ jit dispatch keys and passes such an array as its physical data under a node carrying the
        # dtype, so that a jitted function called with keys runs its cached calls without Python, as JAX's does
        register_dispatch_node(cls, _physical_and_dtype, _from_physical)

    @property
    def _value(self):
        raise TypeError(f"arrays of dtype {self.aval.dtype} have no NumPy value; read their physical data instead")

    def block_until_ready(self) -> ExtendedArray:
        self.physical.block_until_ready()
        return self

    def __repr__(self) -> str:
        return "E" + repr(self.physical)

    @property
    def sharding(self) -> Any:
        """The layout of the physical data's leading dimensions, which are this array's (a spec entry for each)."""
        return logical_sharding(self.physical.sharding, self.aval)

    def devices(self) -> set:
        return self.physical.devices()


def logical_sharding(sharding: Any, aval: Any) -> Any:
    """The layout of values of ``aval`` whose physical data is laid out as ``sharding``: a NamedSharding's spec
    entries for the leading dimensions, one for each (any other sharding as it is)."""
    spec = getattr(sharding, "spec", None)
    if spec is None or len(spec) == aval.ndim:
        return sharding
    entries = (*tuple(spec)[:aval.ndim], *[None] * (aval.ndim - len(spec)))
    return sharding.update(spec=spec.update(partitions=entries))


def physical_sharding(sharding: Any, aval: Any) -> Any:
    """The layout of the physical data of values of ``aval`` laid out as the NamedSharding ``sharding``: each
    element's block whole (its spec's entries, then a ``None`` for each dimension of an element, as JAX's)."""
    dtype = getattr(aval, "dtype", None)
    if not isinstance(dtype, dtypes.ExtendedDType):
        return sharding
    spec = tuple(sharding.spec) + (None,) * len(dtype.physical_shape)
    return sharding.update(spec=sharding.spec.update(partitions=spec))


def physical_aval(aval: Any) -> Any:
    """The aval of the physical representation of values of ``aval`` (``aval`` itself for NumPy dtypes)."""
    dtype = getattr(aval, "dtype", None)
    if not isinstance(dtype, dtypes.ExtendedDType):
        return aval
    physical = ShapedArray(aval.shape + dtype.physical_shape, dtype.physical_dtype,
                           auto_mesh=getattr(aval, "auto_mesh", None))  # over the keys' mesh of Auto axes
    sharding = getattr(aval, "explicit_sharding", None)
    if sharding is None:
        return physical
    # laid out as the elements are, each element's block whole
    return physical.update(sharding=sharding.update(
        spec=PartitionSpec(*sharding.spec, *[None] * len(dtype.physical_shape))))


def has_extended(avals: Sequence[Any]) -> bool:
    """Whether any of ``avals`` has an extended dtype."""
    return any(_is_extended(a) for a in avals)


def _is_extended(aval: Any) -> bool:
    dtype = getattr(aval, "dtype", None)
    # NumPy's dtypes first: one C-level check, where the ABC's isinstance costs a Python call per value
    return not isinstance(dtype, np.dtype) and isinstance(dtype, dtypes.ExtendedDType)


def physical_value(x: Any) -> Any:
    """The physical Array of a concrete ``ExtendedArray``; any other value as it is."""
    return x.physical if isinstance(x, ExtendedArray) else x


def _physical_and_dtype(array: ExtendedArray) -> tuple[tuple[Array], dtypes.ExtendedDType]:
    return (array.physical,), array.aval.dtype


def _from_physical(dtype: dtypes.ExtendedDType, children: Sequence[Array]) -> Any:
    return dtype.wrap(*children)


def wrap_physical(physical: Any, aval: Any) -> Any:
    """The concrete array of ``aval`` over ``physical`` (``physical`` itself for NumPy dtypes)."""
    dtype = getattr(aval, "dtype", None)
    if not isinstance(dtype, dtypes.ExtendedDType):
        return physical
    array = dtype.wrap(physical)
    sharding = getattr(getattr(physical, "aval", None), "explicit_sharding", None)
    if sharding is not None:  # typed as its elements are laid out (the physical data's leading dimensions)
        array.aval = array.aval.update(sharding=sharding.update(
            spec=PartitionSpec(*tuple(sharding.spec)[:array.aval.ndim])))
    return array


def physical_rule(primitive: Primitive, avals_in: Sequence[Any]) -> PhysicalRule:
    """The physical rule of ``primitive``, or JAX's TypeError when it has none for these operands."""
    rule = physical_rules.get(primitive)
    if rule is None:
        dtype = next(a.dtype for a in avals_in if isinstance(getattr(a, "dtype", None), dtypes.ExtendedDType))
        raise TypeError(f"{primitive.name} does not accept dtype {dtype}.")
    return rule


def _jaxprs_of(value: Any) -> list[Any]:
    if isinstance(value, (ClosedJaxpr, Jaxpr)):
        return [value]
    if isinstance(value, tuple):
        return [v for v in value if isinstance(v, (ClosedJaxpr, Jaxpr))]
    return []


def _carries_jaxprs(params: dict) -> bool:
    return any(_jaxprs_of(value) for value in params.values())


def jaxpr_has_extended(jaxpr: Jaxpr | ClosedJaxpr) -> bool:
    """Whether any value of ``jaxpr`` (or of the jaxprs its equations carry) has an extended dtype."""
    jaxpr = jaxpr.jaxpr if isinstance(jaxpr, ClosedJaxpr) else jaxpr
    if has_extended([v.aval for v in jaxpr.invars + jaxpr.constvars + jaxpr.outvars]):
        return True
    for eqn in jaxpr.eqns:  # plain loops: this walks every equation of every program lowered
        for v in eqn.outvars:
            if _is_extended(v.aval):
                return True
        # an operand is an input, a constant or an earlier equation's result, all checked, or a literal
        for v in eqn.invars:
            if type(v) is Literal and _is_extended(v.aval):
                return True
        if eqn.params:
            for value in eqn.params.values():
                for j in _jaxprs_of(value):
                    if jaxpr_has_extended(j):
                        return True
    return False


def _physicalize_param(value: Any) -> Any:
    if isinstance(value, ClosedJaxpr):
        return physicalize(value)
    if isinstance(value, Jaxpr):
        if not jaxpr_has_extended(value):
            return value
        # its constvars are rewritten as leading inputs, then made constvars again
        n = len(value.constvars)
        opened = physicalize(ClosedJaxpr(value.replace(constvars=[], invars=value.constvars + value.invars), []))
        if opened.consts:  # a bare jaxpr has nowhere to keep the values of new constants
            raise TypeError(f"cannot physicalize an open jaxpr whose rewrite needs constants: {value}")
        jaxpr = opened.jaxpr
        return jaxpr.replace(constvars=jaxpr.invars[:n], invars=jaxpr.invars[n:])
    if isinstance(value, tuple) and _jaxprs_of(value):
        return type(value)(*map(_physicalize_param, value)) if hasattr(value, "_fields") else \
            tuple(map(_physicalize_param, value))
    return value


def _eval_physically(jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any]) -> list[Any]:
    """Interpret ``jaxpr`` on the physical representations of its values (under the current trace)."""
    env: dict[Any, Any] = {}

    def read(atom: Any) -> Any:
        return atom.val if type(atom) is Literal else env[atom]

    env.update(zip(jaxpr.constvars, map(physical_value, consts)))
    env.update(zip(jaxpr.invars, args))
    for eqn in jaxpr.eqns:
        avals_out = [v.aval for v in eqn.outvars]
        with traced_mesh(avals_out), core.located_at(eqn):  # what it stages again is located where it was staged
            env.update(zip(eqn.outvars, _eval_equation_physically(eqn, list(map(read, eqn.invars)), avals_out)))
    return [read(v) for v in jaxpr.outvars]


def _eval_equation_physically(eqn: Any, invals: list[Any], avals_out: list[Any]) -> list[Any]:
    avals_in = [v.aval for v in eqn.invars]
    extended = has_extended(avals_in) or has_extended(avals_out)
    if extended and eqn.primitive in physical_rules:
        return _staged_rule(physical_rules[eqn.primitive], invals, avals_in, avals_out, eqn.params)
    params = eqn.params
    if _carries_jaxprs(params):
        params = {name: _physicalize_param(value) for name, value in params.items()}
    elif extended:
        physical_rule(eqn.primitive, avals_in)  # no rule and no jaxpr to rewrite: JAX's TypeError
    outs = eqn.primitive.bind(*invals, **params)
    return outs if eqn.primitive.multiple_results else [outs]


def _staged_rule(rule: PhysicalRule, invals: list[Any], avals_in: list[Any], avals_out: list[Any],
                 params: dict) -> list[Any]:
    """A physical rule's operations on ``invals``, staged where the equation was; a rule that makes constants (the
    zero padding an odd count of counters) is staged as one ``physical_call`` of its operations, so that its
    constants are written where they begin, as JAX lowers a key operation: its rule traced there, constants first."""
    def apply(*args: Any) -> list[Any]:
        return list(rule(*args, avals_in=avals_in, avals_out=avals_out, **params))

    closed = trace_to_jaxpr(apply, [get_aval(v) for v in invals], None)
    if not closed.consts:
        return core.eval_jaxpr(closed.jaxpr, (), *invals)
    return physical_call_p.bind(*invals, jaxpr=closed)


# a physical rule's operations with the constants they make (see ``_staged_rule``): evaluated as its jaxpr, lowered
# inline with the constants first
physical_call_p = Primitive("physical_call")
physical_call_p.multiple_results = True
physical_call_p.def_abstract_eval(lambda *avals, jaxpr: jaxpr.out_avals)
physical_call_p.def_impl(lambda *args, jaxpr: core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args))


def physicalize(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` computing on the physical representations of its extended values (itself when it has none).

    A physical rule may itself use extended values (a sampler's rule drawing from wrapped keys), so the
    rewrite repeats until none is left. The same jaxpr is rewritten once per flags and mesh, so that the calls
    of a jaxpr (a jitted function's, called in several places) still share one after the rewrite, as JAX's
    lowering writes them once."""
    if not jaxpr_has_extended(closed):
        return closed
    reusable = not any(isinstance(c, core.Tracer) for c in closed.consts)  # no values of a live trace kept alive
    key = (closed, trace_context(), get_abstract_mesh())
    rewritten = _physical_jaxprs.lookup(key) if reusable else None
    if rewritten is None:
        rewritten = _rewritten(closed)
        if reusable:
            _physical_jaxprs[key] = rewritten
    return rewritten


_physical_jaxprs = LruCache()


def _rewritten(closed: ClosedJaxpr) -> ClosedJaxpr:
    while jaxpr_has_extended(closed):
        jaxpr, consts = closed.jaxpr, closed.consts
        in_avals = [physical_aval(v.aval) for v in jaxpr.invars]
        closed = trace_to_jaxpr(lambda *args, j=jaxpr, c=consts: _eval_physically(j, c, args), in_avals, None)
    return closed


def apply_physically(primitive: Primitive, args: Sequence[Any], avals_in: Sequence[Any], avals_out: Any,
                     params: dict) -> Any:
    """Evaluate ``primitive`` on concrete ``args`` some of which (or of whose results) have an extended dtype:
    its physical rule, or its physicalized jaxpr (a primitive carrying jaxprs), applied to the physical
    arrays; the results wrapped again."""
    out_list = list(avals_out) if primitive.multiple_results else [avals_out]
    physical_args = list(map(physical_value, args))
    rule = physical_rules.get(primitive)
    if rule is not None:
        outs = rule(*physical_args, avals_in=list(avals_in), avals_out=out_list, **params)
    else:
        if not _carries_jaxprs(params):
            physical_rule(primitive, avals_in)  # JAX's TypeError

        def apply(*xs):
            out = primitive.bind(*xs, **params)
            return list(out) if primitive.multiple_results else [out]

        closed = physicalize(trace_to_jaxpr(apply, avals_in, None))
        outs = core.eval_jaxpr(closed.jaxpr, closed.consts, *physical_args)
    outs = [wrap_physical(out, aval) for out, aval in zip(outs, out_list)]
    return outs if primitive.multiple_results else outs[0]
