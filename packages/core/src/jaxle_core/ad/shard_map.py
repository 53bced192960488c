"""AD of ``shard_map``: every derivative of a body stays inside a ``shard_map`` over the same mesh.

The JVP differentiates the body (tangents split like their primals);
linearization splits the body into a known ``shard_map`` (run now) and an
unknown one, the residuals computed per device travelling between them one row
per device (split over every mesh axis); transposition maps the transposed body.
As JAX's transpose with ``check_vma=False``: a cotangent of an output replicated
over mesh axes is divided among those axes' devices, and the cotangent of an
input replicated over mesh axes is summed (``psum``) over them.
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np

from jaxle_core import core, vma
from jaxle_core.ad.jit import jvp_jaxpr
from jaxle_core.ad.jvp import Zero, jvp_rules, tangent_aval
from jaxle_core.ad.partial_eval import PartialStagingTrace, partial_eval_jaxpr, partial_eval_rules
from jaxle_core.ad.transpose import UndefinedPrimal, backward_pass, is_undefined, transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jaxpr_util import dce_jaxpr
from jaxle_core.lax.elementwise import div
from jaxle_core.lax.parallel import psum
from jaxle_core.lax.structural import broadcast_in_dim, squeeze
from jaxle_core.mesh import PartitionSpec
from jaxle_core.shard_map import (
    all_axes_spec,
    bind_shard_map,
    body_aval,
    body_context,
    check_in_type,
    manual_names,
    shard_map_p,
    shard_map_params,
    spec_axes,
    with_consts_as_inputs,
)
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import cotangent_spec
from jaxle_core.staging import trace_to_jaxpr

# ---------------------------------------------------------------- forward mode


def _shard_map_jvp(primals, tangents, *, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs, check_vma,
                   newly_manual_axes, **params):
    manual = newly_manual_axes
    nonzero = [type(t) is not Zero for t in tangents]
    with body_context(mesh, check_vma, manual):
        new_jaxpr, out_nonzero = jvp_jaxpr(jaxpr, nonzero)
    given = [t for t in tangents if type(t) is not Zero]
    tangent_specs = [s for s, nz in zip(in_specs, nonzero) if nz]
    out_tangent_specs = [s for s, nz in zip(out_specs, out_nonzero) if nz]
    outs = bind_shard_map(new_jaxpr, [*primals, *given], mesh, [*in_specs, *tangent_specs],
                          [*out_specs, *out_tangent_specs], check_vma, manual)
    n_out = len(out_specs)
    primals_out, nonzero_out = outs[:n_out], iter(outs[n_out:])
    full_avals = [get_aval(x) for x in primals_out]
    return primals_out, [next(nonzero_out) if nz else Zero(tangent_aval(aval))
                         for nz, aval in zip(out_nonzero, full_avals)]


jvp_rules[shard_map_p] = _shard_map_jvp

# ---------------------------------------------------------------- partial evaluation


def _one_row(x: Any) -> Any:
    """A per-device value as its device's row of a value split over every mesh axis."""
    shape = get_aval(x).shape
    return broadcast_in_dim(x, (1, *shape), tuple(range(1, len(shape) + 1)))


def _varying_spec(axes: frozenset) -> PartitionSpec:
    """The spec joining blocks along dimension 0 over ``axes`` (in mesh order)."""
    names = vma.ordered(axes)
    return PartitionSpec(*([names[0] if len(names) == 1 else names] if names else []))


class _EagerSplit(threading.local):
    manual: tuple = ()  # the manual axes of the eager shard_maps whose bodies are being split, in mesh order


_eager_split = _EagerSplit()


def _check_eager_residuals(avals: list, as_rows: list, mesh) -> None:
    """JAX 0.10.2's eager ``grad`` of a shard_map nested in an eager one: the inner's residuals are joined over every
    axis they vary over (the enclosing body's manual axes too), and its eager evaluation stacks them along a leading
    dimension split over those manual axes, which its ``NamedSharding`` refuses (``DuplicateSpecError``)."""
    outer = _eager_split.manual
    stacked = outer[0] if len(outer) == 1 else outer
    for aval, row in zip(avals, as_rows):
        names = vma.ordered(aval.vma)
        if set(names) & set(outer):
            entries = [names[0] if len(names) == 1 else names] + [None] * (aval.ndim - (not row))
            NamedSharding(mesh, PartitionSpec(stacked, *entries))


def _shard_map_partial_eval(trace: PartialStagingTrace, args, params):
    jaxpr, mesh, check_vma = params["jaxpr"], params["mesh"], params["check_vma"]
    in_specs, out_specs, manual = params["in_specs"], params["out_specs"], params["newly_manual_axes"]
    unknowns = [trace.is_unknown(x) for x in args]
    row_spec = all_axes_spec(mesh, manual)
    eager_outer = _eager_split.manual
    if isinstance(trace.parent, core.EvalTrace) and not mesh.manual_axes:  # its known part runs eagerly
        _eager_split.manual = manual_names(mesh, manual)
    try:
        with body_context(mesh, check_vma, manual):
            split = partial_eval_jaxpr(jaxpr, unknowns)
    finally:
        _eager_split.manual = eager_outer
    with body_context(mesh, check_vma, manual):
        known = ClosedJaxpr(dce_jaxpr(split.known.jaxpr, instantiate=True)[0], split.known.consts)
        n_known = split.out_unknowns.count(False)
        from_outputs = [j for source, j in split.residual_sources if source == "output"]

        # A residual travels as JAX passes it: its blocks joined along dimension 0 (a scalar's made a row), with
        # types checked over the manual axes it varies over (an enclosing body's axes are its own), otherwise over
        # every manual axis.
        as_rows = [not known.out_avals[j].ndim for j in from_outputs]
        res_out_specs = [_varying_spec(known.out_avals[j].vma & manual) if check_vma else row_spec
                         for j in from_outputs]
        if eager_outer and check_vma and mesh.manual_axes:
            _check_eager_residuals([known.out_avals[j] for j in from_outputs], as_rows, mesh)

        def known_body(*xs):  # the residuals first, as JAX orders them
            outs = core.eval_jaxpr(known.jaxpr, known.consts, *xs)
            return [*(_one_row(outs[j]) if row else outs[j] for j, row in zip(from_outputs, as_rows)),
                    *outs[:n_known]]

        known_closed = trace_to_jaxpr(known_body, known.in_avals, jaxpr.jaxpr.debug_info)
    known_args = [x for x, u in zip(args, unknowns) if not u]
    known_in_specs = [s for s, u in zip(in_specs, unknowns) if not u]
    known_out_specs = res_out_specs + [s for s, u in zip(out_specs, split.out_unknowns) if not u]
    with core.set_current_trace(trace.parent):
        known_outs = bind_shard_map(known_closed, known_args, mesh, known_in_specs, known_out_specs, check_vma,
                                    manual)
    rows, known_outs = iter(zip(known_outs[:len(from_outputs)], res_out_specs, as_rows)), known_outs[len(from_outputs):]
    residuals, residual_specs, is_row = [], [], []
    for source, j in split.residual_sources:
        value, spec, row = (known_args[j], known_in_specs[j], False) if source == "input" else next(rows)
        residuals.append(value)
        residual_specs.append(spec)
        is_row.append(row)
    n_res = len(residuals)
    unknown = split.unknown

    def unknown_body(*xs):
        res = [squeeze(x, (0,)) if row else x for x, row in zip(xs[:n_res], is_row)]
        return core.eval_jaxpr(unknown.jaxpr, unknown.consts, *res, *xs[n_res:])

    res_avals = [body_aval(get_aval(x), s, mesh, check_vma, manual) for x, s in zip(residuals, residual_specs)]
    with body_context(mesh, check_vma, manual):
        unknown_closed = trace_to_jaxpr(unknown_body, [*res_avals, *unknown.in_avals[n_res:]],
                                        jaxpr.jaxpr.debug_info)
    unknown_args = [x for x, u in zip(args, unknowns) if u]
    unknown_in_specs = [*residual_specs, *(s for s, u in zip(in_specs, unknowns) if u)]
    unknown_out_specs = [s for s, u in zip(out_specs, split.out_unknowns) if u]
    unknown_closed, inputs, unknown_in_specs = with_consts_as_inputs(unknown_closed, [*residuals, *unknown_args],
                                                                     unknown_in_specs)
    staged = iter(trace.stage(shard_map_p, inputs, shard_map_params(unknown_closed, mesh, unknown_in_specs,
                                                                    unknown_out_specs, check_vma, manual)))
    known_iter = iter(known_outs)
    return [next(staged) if u else next(known_iter) for u in split.out_unknowns]


partial_eval_rules[shard_map_p] = _shard_map_partial_eval

# ---------------------------------------------------------------- transposition


def _unmentioned(mesh, spec, manual: frozenset) -> tuple:
    named = spec_axes(spec)
    return tuple(n for n in manual_names(mesh, manual) if n not in named)


def _shard_map_transpose(cts, *args, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs, check_vma, newly_manual_axes,
                         **params):
    manual = newly_manual_axes
    linear = [is_undefined(a) for a in args]
    nonzero_cts = [type(ct) is not Zero for ct in cts]
    ct_nonzero: list[bool] = []

    n_cts = nonzero_cts.count(True)
    if len(mesh.explicit_axes) == len(manual) == len(mesh.axis_names):
        # as the shard_map it becomes, an eager one, takes cotangents typed as its specs (JAX's ValueError)
        for ct, spec in zip(cts, out_specs):
            if type(ct) is not Zero and not isinstance(ct, core.Tracer):
                check_in_type(get_aval(ct), cotangent_spec(spec), mesh)
    if not check_vma:  # (with types checked, pvary's transpose, psum_invariant, sums what replication shared)
        cts = [_shared(ct, mesh, spec, manual) for ct, spec in zip(cts, out_specs)]

    def transposed(*inputs):  # the cotangents first, then the residuals, as JAX orders them
        given, known = iter(inputs[:n_cts]), iter(inputs[n_cts:])
        values = [UndefinedPrimal(aval) if lin else next(known) for aval, lin in zip(jaxpr.in_avals, linear)]
        out_cts = [next(given) if nz else Zero(aval) for nz, aval in zip(nonzero_cts, jaxpr.out_avals)]
        cts_in = backward_pass(jaxpr.jaxpr, jaxpr.consts, values, out_cts)
        results = []
        for ct, lin, spec in zip(cts_in, linear, in_specs):
            if not lin:
                continue
            nonzero = type(ct) is not Zero and ct is not None
            ct_nonzero.append(nonzero)
            if nonzero:
                replicated_over = () if check_vma else _unmentioned(mesh, spec, manual)
                results.append(psum(ct, replicated_over) if replicated_over else ct)
        return results

    known_avals = [aval for aval, lin in zip(jaxpr.in_avals, linear) if not lin]
    # a cotangent is unreduced where its value is reduced, and back
    ct_avals = [aval.update(unreduced=aval.reduced, reduced=aval.unreduced)
                for aval, nz in zip(jaxpr.out_avals, nonzero_cts) if nz]
    with body_context(mesh, check_vma, manual):
        closed = trace_to_jaxpr(transposed, [*ct_avals, *known_avals], jaxpr.jaxpr.debug_info)
    inputs = [ct for ct in cts if type(ct) is not Zero] + [a for a, lin in zip(args, linear) if not lin]
    specs = [cotangent_spec(s) for s, nz in zip(out_specs, nonzero_cts) if nz] + [
        s for s, lin in zip(in_specs, linear) if not lin]
    linear_specs = [s for s, lin in zip(in_specs, linear) if lin]
    result_specs = [cotangent_spec(s) for s, nz in zip(linear_specs, ct_nonzero) if nz]
    outs = iter(bind_shard_map(closed, inputs, mesh, specs, result_specs, check_vma, manual))
    nonzero = iter(ct_nonzero)
    return [(next(outs) if next(nonzero) else None) if lin else None for lin in linear]


def _shared(ct: Any, mesh, spec: PartitionSpec, manual: frozenset) -> Any:
    """The cotangent of an output replicated over the ``manual`` mesh axes its spec leaves out, divided among those
    axes' devices (before the transposed body, as JAX divides it)."""
    shared_by = math.prod(mesh.shape[n] for n in _unmentioned(mesh, spec, manual))
    if type(ct) is Zero or shared_by == 1:
        return ct
    return div(ct, np.array(shared_by, get_aval(ct).dtype))


transpose_rules[shard_map_p] = _shard_map_transpose

