"""Write gspmd_placement_golden.json: what JAX 0.10.2 does with ``jax.extend.sharding.GSPMDSharding`` as a
placement on 8 CPU devices (``device_put``, ``jit``'s in_shardings and out_shardings, ``with_sharding_constraint``:
results, their shardings, shards, equality with NamedShardings, lowered text and errors), and how it reports the
layouts XLA's partitioner gives arguments and results that no PartitionSpec over the mesh names:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_gspmd_placement_golden.py jax

With another module (jaxle) it prints its outcomes as JSON instead of writing them. The device count is read when
the client starts, so it runs in a fresh interpreter.
"""

import copy
import functools
import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, unqualified_classes

HERE = pathlib.Path(__file__).parent
GRID = np.arange(32, dtype=np.float32).reshape(8, 4)
SQUARE = np.arange(64, dtype=np.float32).reshape(8, 8)


def _tiles(m, text: str, devices=None, **kwargs):
    """The GSPMDSharding of HLO sharding ``text`` over ``devices`` (all of them by default)."""
    extend = importlib.import_module(f"{m.__name__}.extend.sharding")
    hlo = extend.xla_client.HloSharding.from_string(text)
    return extend.GSPMDSharding(m.devices() if devices is None else devices, hlo, **kwargs)


def _placed(array) -> tuple:
    """An array's sharding, the devices of its shards in order with the index each holds, and its values."""
    return (array.sharding, [(s.device.id, s.index) for s in array.addressable_shards],
            np.asarray(array).tolist())


def _signature(lowered) -> list[str]:
    """The lines of a lowered program's text that carry its meshes and shardings."""
    return [line.strip() for line in lowered.as_text().splitlines()
            if "sdy." in line or "@main" in line]


def _classes(sharding) -> list[str]:
    """The module and name of each class of ``sharding``'s type, in method resolution order."""
    return [f"{c.__module__}.{c.__qualname__}" for c in type(sharding).__mro__]


def _meshes(m):
    auto, explicit = m.sharding.AxisType.Auto, m.sharding.AxisType.Explicit
    return (m.make_mesh((4, 2), ("x", "y"), axis_types=(auto, auto)),
            m.make_mesh((4, 2), ("x", "y"), axis_types=(explicit, explicit)))


def _placement_cases(m):
    """device_put onto GSPMDShardings, their arrays, and their equality with NamedShardings."""
    sharding = m.sharding
    auto_mesh, _ = _meshes(m)
    rows_cols = _tiles(m, "{devices=[4,2]<=[8]}")
    named = sharding.NamedSharding(auto_mesh, sharding.PartitionSpec("x", "y"))
    put = lambda text, value=GRID, **kwargs: _placed(m.device_put(value, _tiles(m, text, **kwargs)))  # noqa: E731
    return {
        "equality": lambda: (rows_cols, rows_cols == _tiles(m, "{devices=[4,2]<=[8]}"),
                             hash(rows_cols) == hash(_tiles(m, "{devices=[4,2]<=[8]}")),
                             rows_cols == named, named == rows_cols, rows_cols.is_equivalent_to(named, 2),
                             named.is_equivalent_to(rows_cols, 2),
                             rows_cols.is_equivalent_to(_tiles(m, "{devices=[4,2]<=[8]}", m.devices()[::-1]), 2),
                             rows_cols == _tiles(m, "{devices=[4,2]<=[8]}", memory_kind="device")),
        "put_iota": lambda: (put("{devices=[4,2]<=[8]}"), m.device_put(GRID, rows_cols).sharding == rows_cols),
        "put_transposed": lambda: put("{devices=[4,2]<=[2,4]T(1,0)}"),
        "put_replicating": lambda: put("{devices=[2,1,4]<=[8] last_tile_dim_replicate}"),
        "put_listed": lambda: put("{devices=[2,4]0,2,4,6,1,3,5,7}"),
        "put_reversed_devices": lambda: put("{devices=[2,4]<=[8]}", devices=m.devices()[::-1]),
        "put_replicated": lambda: put("{replicated}"),
        "put_maximal": lambda: put("{maximal device=3}"),
        "put_four_devices": lambda: put("{devices=[4,1]<=[4]}", devices=m.devices()[:4]),
        "put_host_memory": lambda: m.device_put(GRID, _tiles(m, "{devices=[4,2]<=[8]}",
                                                              memory_kind="pinned_host")).sharding,
        "put_named_array": lambda: _placed(m.device_put(m.device_put(GRID, named), rows_cols)),
        "put_to_named": lambda: _placed(m.device_put(m.device_put(GRID, rows_cols), named)),
        "put_to_other_tiles": lambda: _placed(m.device_put(m.device_put(GRID, rows_cols),
                                                           _tiles(m, "{devices=[2,4]<=[8]}"))),
        "put_tree": lambda: [a.sharding for a in m.device_put([GRID, GRID], [rows_cols,
                                                                            _tiles(m, "{devices=[2,4]<=[8]}")])],
        "put_rank_too_low": lambda: put("{devices=[4,2]<=[8]}", np.ones(8, np.float32)),
        "put_indivisible": lambda: put("{devices=[4,2]<=[8]}", np.ones((6, 4), np.float32)),
        "typeof": lambda: (m.typeof(m.device_put(GRID, rows_cols)), m.typeof(m.device_put(GRID, rows_cols)).sharding),
        "classes": lambda: [_classes(s) for s in (
            rows_cols, m.device_put(GRID, rows_cols).sharding,
            m.jit(lambda a: a.T).lower(m.device_put(GRID, rows_cols)).compile().output_shardings,
            m.jit(lambda a: m.pure_callback(np.sin, m.ShapeDtypeStruct(a.shape, a.dtype), a))(
                m.device_put(GRID, named)).sharding)],
        "copied": lambda: (copy.copy(rows_cols), copy.copy(rows_cols) == rows_cols),
        "hlo_text_refused": lambda: _tiles(m, "{replicated}").__class__(m.devices(), "{replicated}"),
        "format": lambda: m.device_put(GRID, rows_cols).format,
    }


def _jit_cases(m):
    """jit given GSPMDShardings, and jitted or eager computations on arrays laid out by them."""
    sharding, jnp = m.sharding, m.numpy
    auto_mesh, explicit_mesh = _meshes(m)
    spec = sharding.PartitionSpec("x", "y")
    rows_cols, cols_rows = _tiles(m, "{devices=[4,2]<=[8]}"), _tiles(m, "{devices=[2,4]<=[8]}")
    laid_out = lambda: m.device_put(GRID, rows_cols)  # noqa: E731
    double = lambda a: a * 2  # noqa: E731
    lowered = lambda text, **kwargs: _signature(m.jit(double, in_shardings=_tiles(m, text, **kwargs)).lower(GRID))  # noqa: E731
    compiled = lambda c: (c.input_shardings, c.output_shardings)  # noqa: E731
    other_names = m.make_mesh((4, 2), ("a", "b"), axis_types=(sharding.AxisType.Auto,) * 2)
    renamed = sharding.NamedSharding(other_names, sharding.PartitionSpec("a", "b"))
    constrained = m.jit(lambda a: m.lax.with_sharding_constraint(a * 2, cols_rows))
    beside = lambda text, mesh: m.jit(double, out_shardings=_tiles(m, text))(  # noqa: E731
        m.device_put(GRID, sharding.NamedSharding(mesh, spec))).sharding
    out_beside = {f"out_tiles_beside_{kind}_array_{text}": functools.partial(beside, text, mesh)
                  for kind, mesh in (("auto", auto_mesh), ("explicit", explicit_mesh))
                  for text in ("{devices=[4,2]<=[8]}", "{devices=[2,4]<=[8]}", "{replicated}", "{devices=[8,1]<=[8]}",
                               "{devices=[4,2]<=[2,4]T(1,0)}", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}")}
    return {
        **out_beside,
        "jit_in_out": lambda: (_placed(m.jit(double, in_shardings=rows_cols, out_shardings=rows_cols)(laid_out())),
                               _signature(m.jit(double, in_shardings=rows_cols, out_shardings=rows_cols).lower(GRID))),
        "jit_in_host_value": lambda: _placed(m.jit(double, in_shardings=cols_rows)(GRID)),
        "jit_out_only": lambda: (
            _placed(m.jit(lambda a: a + 1, out_shardings=_tiles(m, "{devices=[1,8]<=[8]}"))(SQUARE)),
            _signature(m.jit(lambda a: a + 1, out_shardings=_tiles(m, "{devices=[1,8]<=[8]}")).lower(SQUARE))),
        "lowered_transposed": lambda: lowered("{devices=[4,2]<=[2,4]T(1,0)}"),
        "lowered_replicating": lambda: lowered("{devices=[2,1,4]<=[8] last_tile_dim_replicate}"),
        "lowered_replicated": lambda: lowered("{replicated}"),
        "lowered_maximal": lambda: lowered("{maximal device=3}"),
        "lowered_reversed_devices": lambda: lowered("{devices=[2,4]<=[8]}", devices=m.devices()[::-1]),
        "lowered_from_laid_out_array": lambda: _signature(m.jit(double).lower(laid_out())),
        "lowered_two_layouts": lambda: _signature(m.jit(lambda a, b: a + b, in_shardings=(rows_cols, cols_rows))
                                                  .lower(GRID, GRID)),
        "compiled": lambda: compiled(m.jit(lambda a, b: (a + b, a.sum()), in_shardings=(rows_cols, None))
                                     .lower(GRID, GRID).compile()),
        "compiled_unused": lambda: compiled(m.jit(lambda a, b: a, in_shardings=rows_cols).lower(GRID, GRID).compile()),
        "call_two_layouts": lambda: _placed(m.jit(lambda a, b: a @ b.T, in_shardings=(rows_cols, cols_rows))(GRID,
                                                                                                           GRID)),
        "call_maximal": lambda: _placed(m.jit(double)(m.device_put(GRID, _tiles(m, "{maximal device=3}")))),
        "call_listed": lambda: m.jit(double)(m.device_put(GRID, _tiles(m, "{devices=[2,4]0,2,4,6,1,3,5,7}"))),
        "in_listed": lambda: m.jit(double, in_shardings=_tiles(m, "{devices=[2,4]0,2,4,6,1,3,5,7}")).lower(GRID),
        "in_rank_too_low": lambda: m.jit(double, in_shardings=rows_cols).lower(np.ones(8, np.float32)),
        "in_rank_too_low_keyed": lambda: m.jit(lambda a, b: a, in_shardings=(None, rows_cols)).lower(
            np.ones(8), {"k": np.ones(8)}),
        "out_rank_too_low": lambda: m.jit(lambda a: a.sum(0), out_shardings=rows_cols).lower(GRID),
        "in_indivisible": lambda: m.jit(double, in_shardings=rows_cols).lower(np.ones((6, 4), np.float32)),
        "in_other_layout": lambda: m.jit(double, in_shardings=cols_rows)(laid_out()),
        "in_other_devices": lambda: m.jit(lambda a, b: a + b, in_shardings=(
            rows_cols, _tiles(m, "{devices=[4,1]<=[4]}", m.devices()[:4])))(GRID, GRID),
        "eager": lambda: ((laid_out() + 1).sharding, jnp.sin(laid_out()).sharding, laid_out().T.sharding,
                          laid_out().sum(0).sharding, np.asarray(laid_out().sum(0)).tolist()),
        "jit_follows_argument": lambda: _placed(m.jit(lambda a: a @ a.T)(laid_out())),
        "beside_auto_array": lambda: (laid_out() + m.device_put(GRID, sharding.NamedSharding(auto_mesh, spec))
                                      ).sharding,
        "lowered_beside_auto_array": lambda: (lambda lowered: (_signature(lowered), compiled(lowered.compile())))(
            m.jit(lambda a, b: a + b).lower(laid_out(), m.device_put(GRID, sharding.NamedSharding(
                auto_mesh, sharding.PartitionSpec("x"))))),
        "in_tiles_auto_array": lambda: m.jit(double, in_shardings=rows_cols)(
            m.device_put(GRID, sharding.NamedSharding(auto_mesh, spec))).sharding,
        "in_tiles_explicit_array": lambda: m.jit(double, in_shardings=rows_cols)(
            m.device_put(GRID, sharding.NamedSharding(explicit_mesh, spec))).sharding,
        "in_named_tiled_array": lambda: (
            m.jit(double, in_shardings=sharding.NamedSharding(auto_mesh, spec))(laid_out()).sharding,
            m.jit(double, in_shardings=sharding.NamedSharding(explicit_mesh, spec))(laid_out()).sharding),
        "out_named_tiled_array": lambda: m.jit(double, out_shardings=sharding.NamedSharding(auto_mesh, spec))(
            laid_out()).sharding,
        "out_tiles_beside_auto_array_lowered": lambda: _signature(m.jit(double, out_shardings=cols_rows).lower(
            m.device_put(GRID, sharding.NamedSharding(auto_mesh, spec)))),
        "out_host_memory": lambda: _placed(m.jit(double, out_shardings=_tiles(m, "{devices=[4,2]<=[8]}",
                                                                            memory_kind="pinned_host"))(GRID)),
        "two_meshes_one_layout": lambda: _named_by_turns(m, sharding.NamedSharding(auto_mesh, spec),
                                                         sharding.NamedSharding(explicit_mesh, spec)),
        "two_meshes_other_names": lambda: _named_by_turns(m, sharding.NamedSharding(auto_mesh, spec), renamed),
        "donated": lambda: _placed(m.jit(lambda a: a + 1, in_shardings=rows_cols, donate_argnums=0)(laid_out())),
        "grad_vmap": lambda: (m.grad(lambda a: (a ** 2).sum())(laid_out()).sharding,
                              m.vmap(double)(laid_out()).sharding),
        "constraint": lambda: (_placed(constrained(GRID)), _signature(constrained.lower(GRID)),
                               str(m.make_jaxpr(constrained)(GRID))),
        "constraint_eager": lambda: _placed(m.lax.with_sharding_constraint(laid_out(), cols_rows)),
        "inspect": lambda: _inspected(m, laid_out()),
    }


def _named_by_turns(m, first, second) -> list:
    """The shardings of a jitted function's results and of eager sums, called in turns with arrays laid out alike
    over two meshes."""
    jnp = m.numpy
    double = m.jit(lambda a: a * 2)
    one, other = m.device_put(GRID, first), m.device_put(GRID, second)
    return [r.sharding for r in (double(one), double(other), double(one), double(other), jnp.add(one, one),
                                 jnp.add(other, other), jnp.add(one, one))]


def _inspected(m, x) -> list:
    seen = []

    def f(a):
        m.debug.inspect_array_sharding(a * 2, callback=seen.append)
        return a * 2

    m.jit(f)(x)
    return seen


def _partitioner_cases(m):
    """The layouts XLA's partitioner gives an argument left open and a result, constrained inside to tiles that
    the mesh's axes may not name, over meshes of several shapes."""
    sharding = m.sharding
    auto = sharding.AxisType.Auto
    cases = {}
    for shape, names in (((8,), ("x",)), ((4, 2), ("x", "y")), ((2, 4), ("x", "y"))):
        for text in ("{devices=[4,2]<=[8]}", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
                     "{devices=[4,2]<=[2,4]T(1,0)}", "{devices=[4,2]<=[2,2,2]T(2,1,0)}"):
            def case(shape=shape, names=names, text=text):
                mesh = m.make_mesh(shape, names, axis_types=(auto,) * len(names))
                rows = m.device_put(np.arange(16, dtype=np.float32), sharding.NamedSharding(
                    mesh, sharding.PartitionSpec(names[0])))
                tiles = _tiles(m, text)
                f = m.jit(lambda v, w: (v, m.lax.with_sharding_constraint(w, tiles) + 1))
                out = f(rows, SQUARE)[1]
                return (f.lower(rows, SQUARE).compile().input_shardings[0][1], out.sharding,
                        np.array_equal(np.asarray(out), SQUARE + 1))
            cases[f"partitioner_{'x'.join(map(str, shape))}_{text}"] = case
    return cases


def _outcome(case) -> str:
    """The repr of what ``case`` returns, or the type and message of its error; classes are named without their
    module (JAX's are in ``jaxlib._jax`` or ``jax._src``)."""
    return unqualified_classes(outcome(lambda: repr(case())))


def record(m) -> dict:
    cases = {**_placement_cases(m), **_jit_cases(m), **_partitioner_cases(m)}
    return {name: _outcome(case) for name, case in cases.items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "gspmd_placement_golden.json")
