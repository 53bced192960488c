"""Write reshape_sharding_golden.json: how reshapes lay out their results over meshes of Explicit axes on eight CPU
devices, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_reshape_sharding_golden.py jax

``tables``: for each mesh of ``MESHES`` and every operand it tables (a shape of at most one dimension of size 1,
laid out over one or two axes a dimension), the outcome of ``lax.reshape`` to each shape of its size (at most one
dimension of size 1), in the order ``new_shapes`` lists them: the result's layout (``x _ (x,y)``: one entry a
dimension, ``_`` where none), ``E`` for the ShardingTypeError asking for ``out_sharding`` (its message checked
here), else the error's type and first line. ``cases`` (over the mesh 'x': 2, 'y': 4): jaxprs, results' layouts
and values, lowered shardings and compiled collectives of reshapes, the jax.numpy functions made of them and their
transforms (vmap of a reshape given ``out_sharding`` included).
"""

import itertools
import json
import math
from typing import NamedTuple

import golden_main
import numpy as np
from make_sharding_rules_golden import _computed, _layouts, _with
from make_sharding_types_golden import HERE, _mesh, _outcome, _p, _put, _result
from make_typed_lowering_golden import _record


class Grid(NamedTuple):
    """A mesh of Explicit axes and the reshapes tabled over it: operands of ``sizes`` elements and up to
    ``operand_rank`` dimensions, new shapes of up to ``new_rank``."""

    shape: tuple[int, ...]
    names: tuple[str, ...]
    sizes: tuple[int, ...]
    operand_rank: int
    new_rank: int


MESHES = {
    "x2_y4": Grid((2, 4), ("x", "y"), (8, 16, 32), 3, 4),
    "a2_b2_c2": Grid((2, 2, 2), ("a", "b", "c"), (8, 16), 2, 3),
    "u1_x2_y4": Grid((1, 2, 4), ("u", "x", "y"), (8, 16), 2, 3),  # an axis of size 1 too
}


def shapes(size: int, ranks) -> list[tuple[int, ...]]:
    """Every shape of ``size`` elements of a rank in ``ranks``, at most one dimension of size 1."""
    def ordered(n, rank):
        if rank == 0:
            return [()] if n == 1 else []
        return [(d, *rest) for d in range(1, n + 1) if n % d == 0 for rest in ordered(n // d, rank - 1)]
    return [s for rank in ranks for s in ordered(size, rank) if s.count(1) <= 1]


def _axes(entry) -> tuple:
    return () if entry is None else (entry,) if isinstance(entry, str) else entry


def layouts(shape, grid: Grid) -> list[tuple]:
    """Every layout of ``shape`` over ``grid`` (entries of one or two axes) naming one axis at least, each once,
    dividing its dimension."""
    axis_sizes = dict(zip(grid.names, grid.shape))
    entries = [None] + [p[0] if len(p) == 1 else p for r in (1, 2) for p in itertools.permutations(grid.names, r)]
    found = []
    for spec in itertools.product(entries, repeat=len(shape)):
        named = [a for e in spec for a in _axes(e)]
        if named and len(named) == len(set(named)) and all(
                n % math.prod(axis_sizes[a] for a in _axes(e)) == 0 for n, e in zip(shape, spec)):
            found.append(spec)
    return found


def new_shapes(grid: Grid, size: int) -> list[tuple[int, ...]]:
    return shapes(size, range(1, grid.new_rank + 1))


def _entry_text(entry) -> str:
    return "_" if entry is None else entry if isinstance(entry, str) else f"({','.join(entry)})"


def _reshape_outcome(jax, mesh, shape, spec, new) -> str:
    """``new``'s layout, ``E`` or the error of ``lax.reshape`` to ``new`` of an operand of ``shape`` laid out as
    ``spec``."""
    operand = jax.ShapeDtypeStruct(shape, np.float32, sharding=jax.sharding.NamedSharding(mesh, _p(jax, *spec)))
    typed = []

    def f(u):
        typed.append(str(jax.typeof(u)))
        return jax.lax.reshape(u, new)

    try:
        out = jax.eval_shape(f, operand)
    except Exception as error:  # the type and message are what is compared
        refusal = ("This reshape is not supported. Please specify the sharding of the output via the `out_sharding` "
                   f"argument of jax.lax.reshape. Got operand type: {typed[0] if typed else '?'}, new sizes: {new}")
        if type(error).__name__ == "ShardingTypeError" and str(error).splitlines()[0] == refusal:
            return "E"
        return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    return " ".join(_entry_text(e) for e in out.sharding.spec)


def table(jax, grid: Grid) -> dict:
    mesh = jax.make_mesh(grid.shape, grid.names, axis_types=(jax.sharding.AxisType.Explicit,) * len(grid.names))
    rows = {}
    with jax.sharding.set_mesh(mesh):
        for size in grid.sizes:
            targets = new_shapes(grid, size)
            for shape in shapes(size, range(1, grid.operand_rank + 1)):
                for spec in layouts(shape, grid):
                    rows[f"{shape} {' '.join(map(_entry_text, spec))}"] = "|".join(
                        _reshape_outcome(jax, mesh, shape, spec, new) for new in targets)
    return rows


def _of(shape, *spec):
    """One operand of ``shape`` laid out as ``spec`` (arange values)."""
    return lambda jax, mesh: [_put(jax, mesh, shape, *spec)]


def _traced(shape, spec, f):
    """The jaxpr of ``f(jax)`` applied to one operand of ``shape`` laid out as ``spec``, under set_mesh."""
    return _with(_of(shape, *spec), f)


def _eager(shape, spec, f):
    """``f(jax)`` applied eagerly to one operand of ``shape`` laid out as ``spec``: its result's sharding, dtype,
    values."""
    def case(jax):
        mesh = _mesh(jax)
        with jax.sharding.set_mesh(mesh):
            return _outcome(lambda: _result(f(jax)(_put(jax, mesh, shape, *spec))))
    return case


def _lowered(shape, spec, f):
    """The lowered shardings, compiled collectives and result of ``jit(f(jax))`` of one such operand."""
    def case(jax):
        mesh = _mesh(jax)
        with jax.sharding.set_mesh(mesh):
            return _outcome(lambda: json.dumps(_record(jax, f(jax), _put(jax, mesh, shape, *spec))))
    return case


def _weighted_sum(jax, f):
    """The sum of ``f``'s result weighted by its positions (a gradient of distinct entries)."""
    def loss(u):
        y = f(jax)(u)
        return (y * jax.numpy.arange(y.size, dtype=np.float32).reshape(y.shape)).sum()
    return loss


def _reshape_given(jax, shape, *spec):
    """``jnp.reshape`` to ``shape`` given ``out_sharding=P(*spec)``."""
    return lambda u: jax.numpy.reshape(u, shape, out_sharding=_p(jax, *spec))


def _ravel(jax):
    return lambda u: u.reshape(-1)


CASES = {
    # merging dimensions split over different axes: their axes joined, the leading dimension's first
    "merge_two_axes": _traced((8, 4), ("x", "y"), _ravel),
    "merge_two_axes_eager": _eager((8, 4), ("x", "y"), _ravel),
    "merge_two_axes_jit": _eager((8, 4), ("x", "y"), lambda jax: jax.jit(_ravel(jax))),
    "merge_two_axes_lowered": _lowered((8, 4), ("x", "y"), _ravel),
    "merge_reversed_axes": _traced((4, 2), ("y", "x"), _ravel),
    "merge_reversed_axes_eager": _eager((4, 2), ("y", "x"), _ravel),
    "merge_leading_two_of_three": _traced((2, 4, 4), ("x", "y"), lambda jax: lambda u: u.reshape(8, 4)),
    "merge_trailing_dimension_unsplit": _eager((2, 8, 2), ("x", "y"), _ravel),
    "merge_minor_split": _traced((8, 4), (None, "y"), _ravel),
    "merge_unit_dimension_between": _traced((8, 1, 4), ("x", None, "y"), _ravel),
    "merge_three_dimensions": _traced((2, 2, 8), ("x", None, "y"), _ravel),
    # splitting a dimension split over several axes: its axes dealt out in order, each dividing its piece
    "split_two_axes": _traced((8,), (("x", "y"),), lambda jax: lambda u: u.reshape(2, 4)),
    "split_two_axes_eager": _eager((8,), (("x", "y"),), lambda jax: lambda u: u.reshape(2, 4)),
    "split_two_axes_lowered": _lowered((8,), (("x", "y"),), lambda jax: lambda u: u.reshape(2, 4)),
    "split_two_axes_indivisible": _traced((8,), (("x", "y"),), lambda jax: lambda u: u.reshape(4, 2)),
    "split_reversed_axes": _eager((8,), (("y", "x"),), lambda jax: lambda u: u.reshape(4, 2)),
    "split_keeps_both_axes": _traced((16,), (("x", "y"),), lambda jax: lambda u: u.reshape(8, 2)),
    "split_into_three": _eager((16,), (("x", "y"),), lambda jax: lambda u: u.reshape(2, 4, 2)),
    "split_into_three_indivisible": _traced((16,), (("x", "y"),), lambda jax: lambda u: u.reshape(2, 2, 4)),
    "split_one_axis_leaves_rest": _traced((16,), ("x",), lambda jax: lambda u: u.reshape(4, 4)),
    "split_trailing_dimension": _eager((2, 16), (None, ("x", "y")), lambda jax: lambda u: u.reshape(2, 2, 8)),
    "split_minor_axis_indivisible": _traced((2, 8), ("x", "y"), lambda jax: lambda u: u.reshape(2, 2, 4)),
    "split_unit_dimension_after": _traced((8, 1, 4), ("x", None, "y"), lambda jax: lambda u: u.reshape(2, 4, 1, 4)),
    "split_and_merge": _traced((8, 4), ("x", "y"), lambda jax: lambda u: u.reshape(4, 8)),
    # dimensions of size 1 coming and going between split dimensions
    "expand_dims_between": _traced((8, 4), ("x", "y"), lambda jax: lambda u: jax.numpy.expand_dims(u, 1)),
    "reshape_unit_between": _eager((8, 4), ("x", "y"), lambda jax: lambda u: u.reshape(8, 1, 4)),
    "squeeze_between": _traced((8, 1, 4), ("x", None, "y"), lambda jax: lambda u: jax.numpy.squeeze(u, 1)),
    "reshape_drops_unit": _eager((8, 1, 4), ("x", None, "y"), lambda jax: lambda u: u.reshape(8, 4)),
    "reshape_moves_unit": _traced((8, 1, 4), ("x", None, "y"), lambda jax: lambda u: u.reshape(1, 8, 4)),
    # jax.numpy functions made of reshapes
    "ravel": _traced((8, 4), ("x", "y"), lambda jax: jax.numpy.ravel),
    "ravel_result": _eager((8, 4), ("x", "y"), lambda jax: jax.numpy.ravel),
    "flatten": _eager((8, 4), ("x", "y"), lambda jax: lambda u: u.flatten()),
    "ravel_order_f": _traced((8, 4), ("x", "y"), lambda jax: lambda u: jax.numpy.ravel(u, order="F")),
    "reshape_order_f": _traced((8, 4), ("x", "y"), lambda jax: lambda u: u.reshape(4, 8, order="F")),
    "reshape_order_f_result": _eager((8, 4), ("x", "y"), lambda jax: lambda u: u.reshape(4, 8, order="F")),
    "reshape_order_f_one_axis": _eager((8, 4), ("x",), lambda jax: lambda u: jax.numpy.reshape(u, (4, 8), order="F")),
    "roll": _traced((8, 4), ("x", "y"), lambda jax: lambda u: jax.numpy.roll(u, 3)),
    "roll_by_a_block": _eager((8, 4), ("x", "y"), lambda jax: lambda u: jax.numpy.roll(u, 8)),
    "roll_by_a_block_jaxpr": _traced((8, 4), ("x", "y"), lambda jax: lambda u: jax.numpy.roll(u, 8)),
    "resize_same_size": _eager((8, 4), ("x", "y"), lambda jax: lambda u: jax.numpy.resize(u, (2, 16))),
    "resize_refused": _traced((8, 4), ("x", "y"), lambda jax: lambda u: jax.numpy.resize(u, (4, 8))),
    "resize_larger": _traced((8, 4), ("x", "y"), lambda jax: lambda u: jax.numpy.resize(u, (64,))),
    "lax_reshape_dimensions_merge": _traced((8, 4), ("x", "y"), lambda jax: lambda u: jax.lax.reshape(
        u, (32,), (1, 0))),
    "lax_reshape_dimensions_unit": _traced((8, 1, 4), ("x", None, "y"), lambda jax: lambda u: jax.lax.reshape(
        u, (1, 8, 4), (1, 0, 2))),
    "lax_reshape_dimensions_unsplit_cut": _traced((8, 4), (None, "y"), lambda jax: lambda u: jax.lax.reshape(
        u, (2, 4, 4), (0, 1))),
    # transforms
    "jit_nested": _traced((8, 4), ("x", "y"), lambda jax: jax.jit(_ravel(jax))),
    "vmap_split": _traced((2, 8), (None, ("x", "y")), lambda jax: jax.vmap(lambda r: r.reshape(2, 4))),
    "vmap_merge": _traced((2, 4, 2), (None, "y", "x"), lambda jax: jax.vmap(_ravel(jax))),
    "vmap_merge_other_axis": _traced((4, 2, 2), ("y", None, "x"), lambda jax: jax.vmap(_ravel(jax), in_axes=1)),
    "vmap_merge_result": _eager((2, 4, 2), (None, "y", "x"), lambda jax: jax.vmap(_ravel(jax))),
    "vmap_refused": _traced((8, 4), ("x", "y"), lambda jax: jax.vmap(lambda r: r.reshape(2, 2))),
    "vmap_out_sharding": _traced((8, 8), ("x",), lambda jax: jax.vmap(_reshape_given(jax, (2, 4), None, "y"))),
    "vmap_out_sharding_result": _eager((8, 8), ("x",), lambda jax: jax.vmap(_reshape_given(jax, (2, 4), None, "y"))),
    "vmap_out_sharding_short_spec": _eager((8, 8), ("x",), lambda jax: jax.vmap(_reshape_given(jax, (4, 2), "y"))),
    "vmap_out_sharding_whole_batch": _traced((8, 8), ("x",), lambda jax: jax.vmap(
        _reshape_given(jax, (2, 4), None, "y"), in_axes=1)),
    "vmap_out_sharding_whole_batch_result": _eager((8, 8), ("x",), lambda jax: jax.vmap(
        _reshape_given(jax, (2, 4), None, "y"), in_axes=1)),
    "vmap_out_sharding_split_columns": _traced((8, 8), (None, "x"), lambda jax: jax.vmap(
        _reshape_given(jax, (2, 4), None, "y"), in_axes=1)),
    "vmap_out_sharding_dimensions": _traced((8, 8), ("x",), lambda jax: jax.vmap(
        lambda r: jax.lax.reshape(r, (4, 2), (0,), out_sharding=_p(jax, "y")))),
    "vmap_nested_out_sharding": _traced((8, 8), ("x",), lambda jax: jax.vmap(jax.vmap(
        _reshape_given(jax, (1,), None)))),
    "vmap_out_sharding_duplicate_axis": _traced((8, 8), ("x",), lambda jax: jax.vmap(
        _reshape_given(jax, (2, 4), None, "x"))),
    "grad_vmap_out_sharding": _traced((8, 8), ("x",), lambda jax: jax.grad(
        lambda u: jax.vmap(_reshape_given(jax, (2, 4), None, "y"))(u).sum())),
    "grad_merge": _traced((8, 4), ("x", "y"), lambda jax: jax.grad(_weighted_sum(jax, _ravel))),
    "grad_merge_result": _computed(_of((8, 4), "x", "y"), lambda jax: jax.grad(_weighted_sum(jax, _ravel))),
    "grad_merge_layout": _computed(_of((8, 4), "x", "y"), lambda jax: jax.grad(_weighted_sum(jax, _ravel)),
                                   _layouts),
    "grad_merge_eager": _eager((8, 4), ("x", "y"), lambda jax: jax.grad(_weighted_sum(jax, _ravel))),
    "grad_split": _traced((8,), (("x", "y"),), lambda jax: jax.grad(_weighted_sum(
        jax, lambda jax: lambda u: u.reshape(2, 4)))),
    "grad_split_result": _computed(_of((8,), ("x", "y")), lambda jax: jax.grad(_weighted_sum(
        jax, lambda jax: lambda u: u.reshape(2, 4)))),
    "grad_one_axis": _traced((8, 4), ("x",), lambda jax: jax.grad(_weighted_sum(jax, _ravel))),
    "grad_order_f": _traced((8, 4), ("x", "y"), lambda jax: jax.grad(_weighted_sum(
        jax, lambda jax: lambda u: u.reshape(4, 8, order="F")))),
    "grad_order_f_result": _computed(_of((8, 4), "x", "y"), lambda jax: jax.grad(_weighted_sum(
        jax, lambda jax: lambda u: u.reshape(4, 8, order="F"))), _layouts),
    "grad_lowered": _lowered((8, 4), ("x", "y"), lambda jax: jax.grad(_weighted_sum(jax, _ravel))),
    "vmap_of_grad": _traced((2, 4, 2), (None, "y", "x"), lambda jax: jax.vmap(jax.grad(_weighted_sum(
        jax, _ravel)))),
}


def run(module) -> dict:
    return {"new_shapes": {name: {size: [list(s) for s in new_shapes(grid, size)] for size in grid.sizes}
                           for name, grid in MESHES.items()},
            "tables": {name: table(module, grid) for name, grid in MESHES.items()},
            "cases": {name: case(module) for name, case in CASES.items()}}


if __name__ == "__main__":
    golden_main.main(run, HERE / "reshape_sharding_golden.json")
