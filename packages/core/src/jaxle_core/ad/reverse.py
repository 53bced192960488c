"""Reverse mode and the derivative functions built on linearization: ``linearize``, ``vjp``, ``grad``,
``value_and_grad`` and ``linear_transpose``.

The functions they return (``linearize``'s jvp function, ``vjp``'s pullback)
are ``Partial``s whose leaves are the residuals, so they can be passed through
``jit`` and returned from transformed functions as in JAX.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, dtypes
from jaxle_core.ad.jvp import Zero, as_output, tangent_aval
from jaxle_core.ad.linearize import Linearization, linearize_flat
from jaxle_core.ad.rule_helpers import const
from jaxle_core.ad.transpose import UndefinedPrimal, backward_pass
from jaxle_core.avals import InvalidInputException, ShapedArray, abstract_argument_aval, get_aval, not_a_jax_type
from jaxle_core.core import check_callable
from jaxle_core.lax.placement import reshard_p
from jaxle_core.lax.refs import Ref, addupdate
from jaxle_core.mesh import PartitionSpec, get_abstract_mesh, get_mesh
from jaxle_core.shard_map import shard_map_p
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import cotangent_sharding, no_context_mesh_error, spec_of
from jaxle_core.staging import DebugInfo, StagingTrace, flatten_fun, trace_to_jaxpr
from jaxle_tree.equality_errors import equality_errors


def _fun_name(fun: Callable) -> str:
    code = getattr(fun, "__code__", None)
    where = f" at {code.co_filename}:{code.co_firstlineno}" if code is not None else ""
    return f"{getattr(fun, '__name__', type(fun).__name__)}{where}"


def _split_aux(ans: Any, has_aux: bool) -> tuple[Any, Any]:
    if not has_aux:
        return ans, None
    if not (isinstance(ans, (tuple, list)) and len(ans) == 2):
        raise TypeError("expected function with aux output to return a two-element tuple, but got type "
                        f"{type(ans)} with value {ans!r}")
    return ans[0], ans[1]


def _materialize(ct: Any, aval: ShapedArray) -> Any:
    """A cotangent as an array: ``Zero``s become zeros (``float0`` ones for integer inputs)."""
    return as_output(Zero(tangent_aval(aval)) if type(ct) is Zero else ct)


def _linearize_pytree(fun: Callable, primals: Sequence[Any], has_aux: bool):
    flat_primals, in_tree = tree.tree_flatten(tuple(primals))
    for p in flat_primals:
        get_aval(p)  # rejects arguments that are not arrays
    flat_fun, out_tree = flatten_fun(lambda *args: _split_aux(fun(*args), has_aux), in_tree, returns_aux=True)
    primals_out, lin, aux = linearize_flat(flat_fun, flat_primals)
    return primals_out, lin, aux, in_tree, out_tree()


# ---------------------------------------------------------------- linearize


def _apply_linearization(lin: Linearization, in_tree: Any, out_tree: Any, residuals: list[Any], *tangents: Any):
    flat, tangent_tree = tree.tree_flatten(tangents)
    if tangent_tree != in_tree:
        raise TypeError(f"expected {in_tree}, got {tangent_tree}")
    for t, aval in zip(flat, lin.in_avals):
        got, expected = get_aval(t), tangent_aval(aval)
        if got.shape != expected.shape or got.dtype != expected.dtype:
            raise ValueError("linearized function called on tangent values inconsistent with the original primal "
                             f"values:\nGot tangent aval {got.str_short()} for primal aval {aval.str_short()} but "
                             f"expected {expected.str_short()}.")
    outs = lin.jvp(residuals, flat)
    return tree.tree_unflatten(out_tree, [as_output(t) for t in outs])


def linearize(fun: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """``(fun(*primals), f_jvp)``: ``f_jvp(*tangents)`` is the jvp at ``primals``, with the primal work done once."""
    check_callable(fun)
    primals_out, lin, aux, in_tree, out_tree = _linearize_pytree(fun, primals, has_aux)
    f_jvp = tree.Partial(functools.partial(_apply_linearization, lin, in_tree, out_tree), lin.residuals)
    out = tree.tree_unflatten(out_tree, primals_out)
    return (out, f_jvp, aux) if has_aux else (out, f_jvp)


# ---------------------------------------------------------------- vjp


def _layout_differs(got: Any, expected: ShapedArray) -> bool:
    """Whether a cotangent typed over a mesh is typed otherwise than ``expected`` (one over no mesh is resharded)."""
    sharding, auto_mesh = getattr(got, "explicit_sharding", None), getattr(got, "auto_mesh", None)
    if sharding is None and auto_mesh is None:
        return False
    wanted = expected.explicit_sharding
    if wanted is None and expected.auto_mesh is None and sharding is not None and sharding.spec == PartitionSpec(
            *[None] * got.ndim):
        return False  # replicated over the mesh set, as a value typed over none is
    return (sharding, auto_mesh) != (None if wanted is None else cotangent_sharding(wanted), expected.auto_mesh)


def _memory_differs(got: Any, expected: Any) -> bool:
    """Whether a cotangent lies in another memory (host, device) than ``expected`` says."""
    spaces = getattr(got, "memory_space", None), getattr(expected, "memory_space", None)
    return None not in spaces and spaces[0] != spaces[1]


def _check_cotangent(ct: Any, aval: ShapedArray) -> None:
    expected = tangent_aval(aval)
    float0 = isinstance(ct, np.ndarray) and ct.dtype == dtypes.float0
    got_aval = None if float0 else get_aval(ct)
    got_dtype = ct.dtype if float0 else got_aval.dtype
    if (np.shape(ct) != expected.shape or got_dtype != expected.dtype or _layout_differs(got_aval, expected)
            or _memory_differs(got_aval, expected)):
        got = ShapedArray(np.shape(ct), got_dtype) if got_aval is None else got_aval.strip_weak_type()
        if expected.explicit_sharding is not None:  # a cotangent's type: unreduced and reduced axes swapped
            expected = expected.update(sharding=cotangent_sharding(expected.explicit_sharding))
        raise ValueError("unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got "
                         f"{got.str_short(short_dtypes=False)}, but expected {expected.str_short(short_dtypes=False)} "
                         "because the corresponding output of the differentiated function had JAX type "
                         f"{aval.strip_weak_type().str_short(short_dtypes=False)}")


def _inputs_first(residuals: list[Any], primals: Sequence[Any]) -> tuple[list[Any], list[int]]:
    """The residuals as JAX's pullback holds them: first each primal input that is a residual (in input order, once
    per input), then the others in their order; and, for each residual, its position in that list."""
    forwarded = [p for p in primals if any(p is r for r in residuals)]
    others = [r for r in residuals if not any(r is p for p in primals)]
    held = forwarded + others
    return held, [next(i for i, h in enumerate(held) if h is r) for r in residuals]


def _laid_out_as(ct: Any, aval: Any) -> Any:
    """A cotangent typed over Explicit mesh axes resharded to the layout its output's type says (unreduced and
    reduced axes swapped), as JAX's pullback does; one typed over no mesh (a host value) is taken as it is, as
    JAX's (the transpositions retype it), also for an unreduced or reduced output."""
    wanted = getattr(aval, "explicit_sharding", None)
    if wanted is not None:
        wanted = cotangent_sharding(wanted)
    given = getattr(get_aval(ct), "explicit_sharding", None)
    if wanted is None or given == wanted or given is None:
        return ct
    if not isinstance(ct, core.Tracer) and get_mesh().empty:
        return ct  # evaluated now, outside set_mesh: no devices to read the abstract layout over (the rules retype)
    return reshard_p.bind(ct, dst_sharding=wanted)


def _cotangent_tree_differences(out_tree: Any, ct_tree: Any) -> list[str]:
    """Where a pullback's cotangent has another structure than the output, in JAX's words."""
    output, cotangent = (tree.tree_unflatten(t, [object()] * t.num_leaves) for t in (out_tree, ct_tree))
    lines = []
    for path, reason in equality_errors(output, cotangent):
        seen, given, why = re.fullmatch(r"seen (.*) but now given (.*), so (.*)", reason, re.S).groups()
        lines.append(f"  * out{tree.keystr(path)} was a {seen} in the original output, but a {given} here, so {why}.")
    return lines


def _pullback(lin: Linearization, in_tree: Any, out_tree: Any, name: str, positions: list[int], held: list[Any],
              cotangent: Any):
    residuals = [held[i] for i in positions]
    flat, ct_tree = tree.tree_flatten(cotangent)
    if ct_tree != out_tree:
        raise ValueError("unexpected tree structure.\n\nThe argument to a VJP function returned by `jax.vjp` must "
                         f"match the pytree\nstructure of the differentiated function {name}.\n\nBut the tree "
                         "structures differ:\n" + "\n".join(_cotangent_tree_differences(out_tree, ct_tree)))
    for ct, aval in zip(flat, lin.out_avals):
        _check_cotangent(ct, aval)
    if core.type_shardings is not None:
        flat = [_laid_out_as(ct, aval) for ct, aval in zip(flat, lin.out_avals)]
    cts = [ct if nz else Zero(tangent_aval(aval)) for ct, aval, nz in zip(flat, lin.out_avals, lin.out_nonzero)]
    cts_in = lin.vjp(residuals, cts)
    return tree.tree_unflatten(in_tree, [_materialize(ct, aval) for ct, aval in zip(cts_in, lin.in_avals)])


class _Marker:
    """A marker of ``VJP.with_refs`` (``jax.ad``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


class DontWant(_Marker):
    """Given to ``with_refs`` for an input whose cotangent is not wanted."""


class GradValue(_Marker):
    """Given to ``with_refs`` for an input whose cotangent is returned (the default)."""


class DidntWant(_Marker):
    """Returned by ``with_refs``' pullback for an input given ``DontWant``."""


class GradRef(_Marker):
    """Returned by ``with_refs``' pullback for an input whose cotangent was added into a reference."""


class VJP(tree.Partial):
    """The pullback ``vjp`` returns: called with an output cotangent, the inputs' cotangents."""

    def with_refs(self, *maybe_ct_refs: Any) -> Callable[[Any], Any]:
        """The pullback, each input's cotangent handled as ``maybe_ct_refs`` (one per primal, trees like them)
        says: a reference gets it added (``GradRef()`` returned), ``DontWant()`` drops it (``DidntWant()``
        returned), ``GradValue()`` returns it."""
        if not maybe_ct_refs:
            return self

        def is_marker(x: Any) -> bool:
            return isinstance(x, (_Marker, Ref))

        def pullback(out_ct: Any) -> Any:
            cts_flat, cts_tree = tree.tree_flatten(self(out_ct))
            markers, markers_tree = tree.tree_flatten(maybe_ct_refs, is_leaf=is_marker)
            if markers_tree != cts_tree:
                raise Exception("with_refs: one marker or reference per input leaf is needed")  # JAX's bare type
            results = []
            for marker, ct in zip(markers, cts_flat):
                if isinstance(marker, DontWant):
                    results.append(DidntWant())
                elif isinstance(marker, Ref):
                    addupdate(marker, (), ct)
                    results.append(GradRef())
                else:
                    results.append(ct)
            return tree.tree_unflatten(cts_tree, results)

        return pullback


tree.register_pytree_node(VJP, lambda p: ((p.args, p.keywords), p.func),
                          lambda func, children: VJP(func, *children[0], **children[1]))


def _vjp(fun: Callable, primals: Sequence[Any], has_aux: bool) -> tuple[Any, VJP, Any, Linearization]:
    primals_out, lin, aux, in_tree, out_tree = _linearize_pytree(fun, primals, has_aux)
    held, positions = _inputs_first(lin.residuals, tree.tree_leaves(primals))
    f_vjp = VJP(functools.partial(_pullback, lin, in_tree, out_tree, _fun_name(fun), positions), held)
    return tree.tree_unflatten(out_tree, primals_out), f_vjp, aux, lin


def _refuse_reduce_axes(reduce_axes: Sequence, name: str) -> None:
    """JAX's error for the ``reduce_axes`` argument it no longer supports."""
    if reduce_axes:
        raise NotImplementedError(f"reduce_axes argument to {name} is deprecated")


def vjp(fun: Callable, *primals: Any, has_aux: bool = False, reduce_axes: Sequence = ()) -> tuple:
    """``(fun(*primals), f_vjp)``: ``f_vjp(cotangent)`` pulls an output cotangent back to a tuple of input ones;
    ``f_vjp.with_refs(...)`` adds them into references instead (``VJP``)."""
    _refuse_reduce_axes(reduce_axes, "vjp")
    check_callable(fun)
    for x in tree.tree_leaves(primals):
        try:
            get_aval(x)
        except TypeError:
            raise not_a_jax_type(x, full_stop=True, exception=InvalidInputException) from None
    out, f_vjp, aux, _ = _vjp(fun, primals, has_aux)
    return (out, f_vjp, aux) if has_aux else (out, f_vjp)


def fwd_and_bwd(fun: Callable, argnums: int | Sequence[int], has_aux: bool = False,
                jitted: bool = True) -> tuple[Callable, Callable]:
    """``(fwd, bwd)``: ``fwd(*args)`` gives ``(fun(*args), residuals)`` (and ``aux`` last with ``has_aux``);
    ``bwd(residuals, cotangent)`` gives the cotangents of the arguments ``argnums`` names (one value for an int).

    Unlike ``vjp``'s pullback, ``bwd`` is one function for every forward pass, so with ``jitted`` it compiles once.
    """
    from jaxle_core.jit import jit  # local: jit's module imports the autodiff rules

    check_callable(fun)
    positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    def fwd(*args: Any) -> tuple:
        def of_chosen(*chosen: Any) -> Any:
            full = list(args)
            for position, value in zip(positions, chosen):
                full[position] = value
            return fun(*full)

        return vjp(of_chosen, *[args[i] for i in positions], has_aux=has_aux)

    def bwd(residuals: tree.Partial, cotangent: Any) -> Any:
        cotangents = residuals(cotangent)
        return cotangents[0] if isinstance(argnums, int) else cotangents

    return (jit(fwd), jit(bwd)) if jitted else (fwd, bwd)


# ---------------------------------------------------------------- grad


def argument_dtype(x: Any) -> np.dtype:
    """The dtype of an argument to differentiate; a non-array gets the TypeError JAX's grad, jacrev and jacfwd give
    (which, unlike the one for other uses, ends in a full stop)."""
    try:
        return get_aval(x).dtype
    except TypeError:
        raise not_a_jax_type(x, full_stop=True) from None


def check_input_dtype(transform: str, x: Any, holomorphic: bool, allow_int: bool) -> None:
    """The error JAX gives for an argument ``transform`` (grad, jacrev) cannot differentiate."""
    dtype = argument_dtype(x)
    if holomorphic:
        if not dtypes.issubdtype(dtype, np.complexfloating):
            raise TypeError(f"{transform} with holomorphic=True requires inputs with complex dtype, but got "
                            f"{dtype.name}.")
    elif not dtypes.issubdtype(dtype, np.inexact) and not allow_int:
        raise TypeError(f"{transform} requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
                        f"np.inexact), but got {dtype.name}. If you want to use Boolean- or integer-valued inputs, "
                        "use vjp or set allow_int to True.")


def check_output_dtype(transform: str, dtype: np.dtype, holomorphic: bool) -> None:
    """The error JAX gives for an output ``transform`` cannot differentiate."""
    if holomorphic:
        if not dtypes.issubdtype(dtype, np.complexfloating):
            raise TypeError(f"{transform} with holomorphic=True requires outputs with complex dtype, but got "
                            f"{dtype.name}.")
    elif dtypes.issubdtype(dtype, np.complexfloating):
        raise TypeError(f"{transform} requires real-valued outputs (output dtype that is a sub-dtype of "
                        f"np.floating), but got {dtype.name}. For holomorphic differentiation, pass "
                        "holomorphic=True. For differentiation of non-holomorphic functions involving complex "
                        "outputs, use jax.vjp directly.")
    elif not dtypes.issubdtype(dtype, np.floating):
        raise TypeError(f"{transform} requires real-valued outputs (output dtype that is a sub-dtype of "
                        f"np.floating), but got {dtype.name}. For differentiation of functions with integer "
                        "outputs, use jax.vjp directly.")


def split_argnums(fun: Callable, argnums: int | Sequence[int], args: tuple, kwargs: dict
                  ) -> tuple[Callable, tuple]:
    """``fun`` as a function of the ``argnums`` arguments alone (the others fixed), and those arguments."""
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    nums = tuple(operator.index(i) for i in nums)  # as JAX: a float or string is a TypeError
    if not nums:  # JAX fails on an empty argnums with Python's ValueError from ``max``
        raise ValueError(f"argnums={argnums} names no argument to differentiate with respect to.")
    if max(nums) >= len(args):
        raise TypeError(f"differentiating with respect to argnums={argnums} requires at least {max(nums) + 1} "
                        f"positional arguments to be passed by the caller, but got only {len(args)} positional "
                        "arguments.")
    for i in nums:
        if i < -len(args):
            raise ValueError("Positional argument indices, e.g. for `static_argnums`, must have value greater than "
                             f"or equal to -len(args) and less than len(args), but got value {i} for len(args) == "
                             f"{len(args)}.")
    nums = tuple(i % len(args) for i in nums)
    repeated = sorted({i for i in nums if nums.count(i) > 1})
    if repeated:  # JAX fails on such argnums with an unrelated TypeError from inside ``fun``
        raise TypeError(f"differentiating with respect to argnums={argnums} names positional argument "
                        f"{repeated[0]} more than once; each argument can be differentiated only once.")

    def partial_fun(*dyn):
        full = list(args)
        for i, value in zip(nums, dyn):
            full[i] = value
        return fun(*full, **kwargs)

    return partial_fun, tuple(args[i] for i in nums)


def _check_scalar(ans: Any) -> ShapedArray:
    try:
        aval = get_aval(ans)
    except TypeError:
        raise TypeError(f"Gradient only defined for scalar-output functions. Output was {ans!r}.") from None
    if aval.shape != ():
        raise TypeError(f"Gradient only defined for scalar-output functions. Output had shape: {aval.shape}.")
    return aval


def value_and_grad(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
                   holomorphic: bool = False, allow_int: bool = False, reduce_axes: Sequence = ()) -> Callable:
    """A function returning ``(fun(*args), gradient)`` of a scalar ``fun`` with respect to ``argnums``.

    With ``has_aux`` ``fun`` returns ``(value, aux)`` and the result is ``((value, aux), gradient)``.
    """
    _refuse_reduce_axes(reduce_axes, "grad")
    check_callable(fun)

    @functools.wraps(fun)
    def value_and_grad_fun(*args, **kwargs):
        partial_fun, dyn_args = split_argnums(fun, argnums, args, kwargs)
        for x in tree.tree_leaves(dyn_args):
            check_input_dtype("grad", x, holomorphic, allow_int)
        ans, f_vjp, aux, lin = _vjp(partial_fun, dyn_args, has_aux)
        check_output_dtype("grad", _check_scalar(ans).dtype, holomorphic)
        g = f_vjp(_seed(ans, lin))
        g = g[0] if isinstance(argnums, int) else g
        return ((ans, aux), g) if has_aux else (ans, g)

    return value_and_grad_fun


def _seed(ans: Any, lin: Linearization) -> Any:
    """The cotangent ``grad`` pulls back: one, resharded (while tracing) to the layout of an output typed over a
    mesh of Auto axes or computed by a ``shard_map`` (or ``pmap``), outside that mesh, as JAX's seed takes the
    output's type there."""
    seed = const(ans, 1.0)
    if core.evaluates_eagerly([seed]) or not lin.out_nonzero[0]:  # (eager gradients look no further)
        typed = getattr(get_aval(ans), "explicit_sharding", None)
        if typed is not None and typed.mesh.size > 1 and get_mesh().empty:  # JAX makes the seed on one device
            raise no_context_mesh_error(get_aval(ans))
        return seed
    typed = getattr(get_aval(ans), "explicit_sharding", None)
    if typed is not None:  # as JAX's: a replicated one of the output's cotangent type
        return reshard_p.bind(seed, dst_sharding=typed.update(spec=PartitionSpec(
            unreduced=typed.spec.reduced, reduced=typed.spec.unreduced)))
    mesh = getattr(get_aval(ans), "auto_mesh", None)  # the output's type names a mesh of Auto axes
    if mesh is None:
        found = _shard_map_mesh_of_output(lin.jaxpr.jaxpr)
        mesh = None if found is None else found.abstract_mesh
    if mesh is None or mesh == get_abstract_mesh():
        return seed
    return reshard_p.bind(seed, dst_sharding=NamedSharding(mesh, PartitionSpec()))


def _shard_map_mesh_of_output(jaxpr: core.Jaxpr) -> Any:
    """The mesh of a ``shard_map`` the first output of ``jaxpr`` is computed from, if any (None without one)."""
    meshes: dict[core.Var, Any] = {}
    for eqn in jaxpr.eqns:
        mesh = _shard_map_mesh(eqn) or next((meshes[v] for v in eqn.invars if type(v) is core.Var and v in meshes),
                                            None)
        if mesh is not None:
            meshes.update((v, mesh) for v in eqn.outvars)
    out = jaxpr.outvars[0] if jaxpr.outvars else None
    return meshes.get(out) if type(out) is core.Var else None


def _shard_map_mesh(eqn: core.JaxprEqn) -> Any:
    """The mesh of ``eqn`` when it is a ``shard_map``, or of the first one inside the jaxprs it calls."""
    if eqn.primitive is shard_map_p:
        return eqn.params["mesh"]
    for value in eqn.params.values():
        for inner in value if isinstance(value, tuple) else (value,):
            jaxpr = inner.jaxpr if isinstance(inner, core.ClosedJaxpr) else inner
            if isinstance(jaxpr, core.Jaxpr):
                mesh = next(filter(None, map(_shard_map_mesh, jaxpr.eqns)), None)
                if mesh is not None:
                    return mesh
    return None


def grad(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False, holomorphic: bool = False,
         allow_int: bool = False, reduce_axes: Sequence = ()) -> Callable:
    """The gradient of scalar-valued ``fun`` with respect to its ``argnums`` arguments (pytrees allowed)."""
    _refuse_reduce_axes(reduce_axes, "grad")
    value_and_grad_fun = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def grad_fun(*args, **kwargs):
        value, g = value_and_grad_fun(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return grad_fun


# ---------------------------------------------------------------- linear_transpose


def _linear_dtype_kind(dtype: np.dtype) -> str:
    return "inexact" if dtypes.issubdtype(dtype, np.inexact) else "integer"


def _same_type(value: ShapedArray, expected: ShapedArray) -> bool:
    """Whether a cotangent's type is the output's, weak types aside; an untyped value matches a replicated type
    (the values of a function traced under vmap are untyped where its output, traced under the mesh, is not), and
    types naming no mesh axis match whatever mesh they name (a host operand's, none; a value's under set_mesh of
    Auto axes, that mesh)."""
    if value.strip_weak_type() == expected.strip_weak_type():
        return True
    return not any(spec_of(value)) and not any(spec_of(expected)) and (
        value.update(sharding=None, auto_mesh=None).strip_weak_type()
        == expected.update(sharding=None, auto_mesh=None).strip_weak_type())


def linear_transpose(fun: Callable, *primals: Any, reduce_axes: Sequence = ()) -> Callable:
    """The transpose of the linear function ``fun``, whose inputs have the shapes and dtypes of ``primals``."""
    _refuse_reduce_axes(reduce_axes, "transpose")
    check_callable(fun)
    flat, in_tree = tree.tree_flatten(primals)
    in_avals = [abstract_argument_aval(x) for x in flat]
    flat_fun, out_tree_thunk = flatten_fun(fun, in_tree)
    # traced as JAX's partial evaluation traces it: identity broadcasts are recorded, so transposed
    closed = trace_to_jaxpr(flat_fun, in_avals, DebugInfo("linear_transpose", fun, ()), forwarding=False)
    out_tree = out_tree_thunk()
    in_kinds = {_linear_dtype_kind(a.dtype) for a in in_avals}
    out_kinds = {_linear_dtype_kind(a.dtype) for a in closed.out_avals}
    if len(in_kinds | out_kinds) > 1:
        raise TypeError("linear_transpose only supports [float or complex] -> [float or complex], and integer -> "
                        f"integer functions, but got {[a.dtype for a in in_avals]} -> "
                        f"{[a.dtype for a in closed.out_avals]}.")

    def transposed(cotangent: Any) -> tuple:
        cts, ct_tree = tree.tree_flatten(cotangent)
        if ct_tree != out_tree or any(not _same_type(get_aval(c), a) for c, a in zip(cts, closed.out_avals)):
            raise TypeError(f"cotangent type does not match function output, expected {tuple(closed.out_avals)} "
                            f"but got {cts}")
        trace = core.current_trace()
        if isinstance(trace, StagingTrace):  # JAX's takes its traced constants into the trace before the cotangents
            for value in closed.consts:
                if isinstance(value, core.Tracer):
                    trace.to_atom(value)
        cts_in = backward_pass(closed.jaxpr, closed.consts, [UndefinedPrimal(a) for a in in_avals], cts,
                               transform_stack=True)
        return tree.tree_unflatten(in_tree, [as_output(Zero(a) if type(ct) is Zero else ct)
                                             for ct, a in zip(cts_in, in_avals)])

    return transposed
