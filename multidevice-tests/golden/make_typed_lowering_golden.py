"""Write typed_lowering_golden.json: how programs over a mesh of Explicit axes (sharding in types) lower and
partition on eight CPU devices, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_typed_lowering_golden.py jax

For each program: the structure of its lowered StableHLO (``structure``: main's argument and result shardings,
then each sharding constraint as the op whose value it constrains and the sharding), the number of
each collective XLA's partitioner put into the compiled HLO (``collectives``), and its result's layout and values.
"""

import collections
import pathlib
import re

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent
COLLECTIVES = ("all-gather", "all-reduce", "reduce-scatter", "all-to-all", "collective-permute")

_DEFINITION = re.compile(r"^\s*(%[\w.]+)(?::\d+)? = (?:\"([\w.]+)\"|([\w.]+))")
_CONSTRAINT = re.compile(r"sdy\.sharding_constraint (%[\w.#]+) (<@mesh[^>]*>)")
_MAIN = re.compile(r"func\.func public @main\((.*)\) -> (.*) \{$")


def structure(text: str) -> list[str]:
    """Main's argument and result shardings, then ``op sharding`` for each sharding constraint, where ``op`` made
    the value constrained (``arg`` for a block or function argument), sorted (a loop body's operations may be
    written in a function of their own, elsewhere in the text)."""
    made_by: dict[str, str] = {}
    lines = []
    for line in text.splitlines():
        main = _MAIN.search(line)
        if main:
            lines += [f"main {kind} {s}" for kind, part in (("argument", main.group(1)), ("result", main.group(2)))
                      for s in re.findall(r"sdy\.sharding = #sdy\.sharding(<@mesh[^>]*>)", part)]
        constraint = _CONSTRAINT.search(line)
        if constraint:
            operand = constraint.group(1).split("#")[0]
            lines.append(f"{made_by.get(operand, 'arg')} {constraint.group(2)}")
        definition = _DEFINITION.match(line)
        if definition:
            made_by[definition.group(1)] = definition.group(2) or definition.group(3)
    signature = [line for line in lines if line.startswith("main ")]
    return signature + sorted(line for line in lines if not line.startswith("main "))


def collectives(hlo: str) -> dict[str, int]:
    """How many of each collective the compiled HLO holds."""
    counts = collections.Counter(re.findall(r"= \S+ (" + "|".join(COLLECTIVES) + r")(?:-start)?\(", hlo))
    return {name: counts[name] for name in COLLECTIVES}


def _put(jax, mesh, shape, *spec):
    value = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 8
    return jax.device_put(value, jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec)))


def _record(jax, f, *args) -> dict:
    lowered = jax.jit(f).lower(*args)
    result = jax.jit(f)(*args)
    return {"structure": structure(lowered.as_text()), "collectives": collectives(lowered.compile().as_text()),
            "result": f"{result.sharding.spec} {np.round(np.asarray(result), 4).tolist()}"}


def _case(f, *arrays, axis_types=("Explicit", "Explicit")):
    """``f(jax, P)`` applied to the arrays ``(shape, *spec)`` laid out over a 2x4 mesh ('x', 'y') set by
    set_mesh."""
    def case(jax):
        kinds = tuple(getattr(jax.sharding.AxisType, kind) for kind in axis_types)
        mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=kinds)
        with jax.sharding.set_mesh(mesh):
            args = [_put(jax, mesh, *a) for a in arrays]
            return _record(jax, f(jax, jax.sharding.PartitionSpec), *args)
    return case


CASES = {
    "elementwise_chain": _case(lambda jax, P: lambda a: jax.numpy.sin(a) * 2 + 1, ((8, 4), "x")),
    "elementwise_replicated": _case(lambda jax, P: lambda a: a + 1.0, ((8, 4),)),
    "elementwise_merge": _case(lambda jax, P: lambda a, b: a * b, ((8, 4), "x"), ((8, 4), None, "y")),
    "reduce_rows": _case(lambda jax, P: lambda a: (a * 2).sum(1), ((8, 4), "x")),
    "reduce_sharded_axis": _case(lambda jax, P: lambda a: a.sum(0), ((8, 4), "x", "y")),
    "reduce_all": _case(lambda jax, P: lambda a: a.sum(), ((8, 4), "x")),
    "max_sharded_axis": _case(lambda jax, P: lambda a: a.max(0), ((8, 4), "x", "y")),
    "reshard": _case(lambda jax, P: lambda a: jax.sharding.reshard(a, P(None, "y")), ((8, 4), "x")),
    "reshard_then_compute": _case(lambda jax, P: lambda a: jax.numpy.exp(jax.sharding.reshard(a, P("y"))) * 3,
                                  ((8, 4), "x")),
    "dot_contracting_sharded_out_sharding": _case(
        lambda jax, P: lambda a, b: jax.numpy.matmul(a, b, out_sharding=P("x", None)),
        ((8, 4), "x", "y"), ((4, 8), "y")),
    "dot_contracting_sharded_out_sharding_split": _case(
        lambda jax, P: lambda a, b: jax.numpy.matmul(a, b, out_sharding=P("x", "y")),
        ((8, 4), "x", "y"), ((4, 8), "y")),
    "dot_free_dims": _case(lambda jax, P: lambda a, b: a @ b, ((8, 4), "x"), ((4, 8), None, "y")),
    "transpose_convert_slice": _case(lambda jax, P: lambda a: (a.T.astype(jax.numpy.int32) * 2)[:, 2:6],
                                     ((8, 4), "x", "y")),
    "zeros_out_sharding": _case(lambda jax, P: lambda a: a + jax.numpy.zeros((8, 4), out_sharding=P("x")),
                                ((8, 4), None, "y")),
    "compare_select": _case(lambda jax, P: lambda a: jax.numpy.where(a.sum() > 0, a, -a), ((8, 4), "x")),
    "while_loop": _case(lambda jax, P: lambda a: jax.lax.while_loop(
        lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2), (0, a))[1], ((8, 4), "x", "y")),
    "cond": _case(lambda jax, P: lambda a: jax.lax.cond(
        a.sum() > 0, lambda v: v + 1, lambda v: v - 1, a), ((8, 4), "x")),
    "scan": _case(lambda jax, P: lambda a: jax.lax.scan(
        lambda c, r: (c + r, c * r), jax.numpy.zeros(4, out_sharding=P("y")), a)[1], ((8, 4), None, "y")),
    "nested_jit": _case(lambda jax, P: lambda a: jax.jit(lambda b: b * b)(a) + 1, ((8, 4), "x")),
    "custom_jvp": _case(lambda jax, P: jax.nn.relu, ((8, 4), "x")),
    "cumsum": _case(lambda jax, P: lambda a: jax.numpy.cumsum(a, 1), ((8, 4), "x")),
    "grad": _case(lambda jax, P: jax.grad(lambda a: (jax.numpy.sin(a) * a).sum()), ((8, 4), "x")),
    "reshard_to_replicated": _case(lambda jax, P: lambda a: jax.sharding.reshard(a.sum(0), P()) * 2,
                                   ((8, 4), "x", "y")),
    "mixed_axis_types": _case(lambda jax, P: lambda a: jax.numpy.sin(a).sum(0), ((8, 4), "x", "y"),
                              axis_types=("Explicit", "Auto")),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "typed_lowering_golden.json")
