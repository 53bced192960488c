"""Varying manual axes: the types of values inside a ``shard_map`` that checks them (``check_vma=True``).

Inside such a body every aval names the manual mesh axes over which devices may hold different values (its
``vma``; the value is the same on every device along the other axes). Each primitive has a rule: the axes each
operand must vary over and the axes its results vary over. Binding a primitive casts an operand varying over
fewer axes with ``pvary`` (under whatever transformation is running, as JAX casts it), and staging types the
results. Most primitives follow the standard rule (operands cast to the union of their axes, results varying over
it); collectives register their own in ``lax/parallel.py``; primitives holding jaxprs (``jit``, control flow,
custom derivatives) take their results' types from them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from jaxle_core import core
from jaxle_core.avals import NO_VMA, ShapedArray, get_aval, vma_order
from jaxle_core.core import ClosedJaxpr, Jaxpr, Primitive

__all__ = ["checked_axes", "checking_vma", "holds_jaxprs", "join", "operand_and_result_vmas", "operands_as_they_are",
           "ordered", "result_reductions", "vma_rules"]


def checked_axes() -> frozenset:
    """The manual mesh axes whose types are checked where values are staged now (empty outside such a body)."""
    return core._context.vma_axes


@contextmanager
def checking_vma(axes: Sequence) -> Iterator[None]:
    """Stage values with varying-manual-axes types over ``axes`` (empty: without them) for the block."""
    previous = core._context.vma_axes
    core._context.vma_axes = frozenset(axes)
    try:
        yield
    finally:
        core._context.vma_axes = previous


def join(vmas: Sequence[frozenset]) -> frozenset:
    """The axes any of ``vmas`` varies over."""
    return frozenset().union(*vmas) if vmas else NO_VMA


def ordered(axes: frozenset) -> tuple:
    """``axes`` in mesh order, as JAX lists the axes of a ``pvary`` it inserts."""
    return tuple(vma_order(axes))


# A rule maps the operands' avals and the params to (the axes each operand must vary over, the axes every result
# varies over); None for the results keeps the types the abstract evaluation gave.
VmaRule = Callable[[Sequence[ShapedArray], dict], tuple[Sequence[frozenset], frozenset | None]]
vma_rules: dict[Primitive, VmaRule] = {}


def operands_as_they_are(avals: Sequence[ShapedArray], params: dict) -> tuple[list[frozenset], None]:
    """The rule of a host callback: its operands reach the host as they vary (no ``pvary`` makes them vary alike)
    and its results are typed as their declared shapes give them, varying over no axis (as in JAX's jaxprs)."""
    return [a.vma for a in avals], None


def holds_jaxprs(params: dict) -> bool:
    """Whether ``params`` hold a jaxpr (or a tuple of them): the primitive's results are typed by it."""
    return any(isinstance(v, (Jaxpr, ClosedJaxpr)) or (type(v) is tuple and v and isinstance(v[0], (Jaxpr,
                                                                                                    ClosedJaxpr)))
               for v in params.values())


def operand_and_result_vmas(primitive: Primitive, avals: Sequence[ShapedArray], params: dict):
    """What ``primitive`` needs of its operands' axes and gives its results (see ``VmaRule``)."""
    rule = vma_rules.get(primitive)
    if rule is not None:
        return rule(avals, params)
    if holds_jaxprs(params):
        return [a.vma for a in avals], None
    axes = join([a.vma for a in avals])
    return [axes] * len(avals), axes


# ``result_reductions(primitive, avals, params)``: the manual axes ``primitive``'s results are unreduced and reduced
# over (JAX's errors for operands that cannot be combined); installed by unreduced_types.py.
result_reductions: Callable[[Primitive, Sequence[ShapedArray], dict], tuple[frozenset, frozenset]] = (
    lambda primitive, avals, params: (NO_VMA, NO_VMA))


def _cast(x, aval: ShapedArray, missing: frozenset):
    """``x`` cast to vary over ``missing`` too: ``pvary``, or ``reduced_vary_cast`` over the axes it is reduced over
    (every device holds the value already)."""
    from jaxle_core.lax.parallel import pvary_p, reduced_vary_cast_p  # local: the collectives build on this module

    reduced = missing & aval.reduced
    if reduced:
        x = reduced_vary_cast_p.bind(x, axes=ordered(reduced))
    return pvary_p.bind(x, axes=ordered(missing - reduced)) if missing - reduced else x


def _cast_operands(primitive: Primitive, args: Sequence, params: dict) -> Sequence:
    try:
        avals = [get_aval(x) for x in args]
    except TypeError:  # a non-array operand: reported by the primitive's own checks
        return args
    targets, _ = operand_and_result_vmas(primitive, avals, params)
    missing = [axes - aval.vma for aval, axes in zip(avals, targets)]
    if not any(missing):
        return args
    return [_cast(x, aval, m) if m else x for x, aval, m in zip(args, avals, missing)]


core.cast_operands = _cast_operands
