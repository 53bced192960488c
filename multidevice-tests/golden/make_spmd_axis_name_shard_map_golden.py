"""Write spmd_axis_name_shard_map_golden.json: ``vmap(..., spmd_axis_name=...)`` of a ``shard_map`` on eight CPU
devices (the batch dimension split along the named mesh axes in the specs, each device's block holding its part of
the batch), recorded from the module named on the command line: the jaxpr's text, the jitted function's lowered
text, its result's sharding and values, or the error's type and message.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_spmd_axis_name_shard_map_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
BATCH = np.arange(2 * 8 * 4, dtype=np.float32).reshape(2, 8, 4) / 8


def _indexed_sum(jax, mesh, check_vma):
    """Each block's rows scaled by the block's position along 'y' and summed over 'y' (a replicated result)."""
    P = jax.sharding.PartitionSpec
    body = lambda a: jax.lax.psum(a.sum(0) * (jax.lax.axis_index("y") + 1), "y")  # noqa: E731
    return jax.shard_map(body, mesh=mesh, in_specs=P("y"), out_specs=P(), check_vma=check_vma)


def _doubled(jax, mesh, check_vma):
    P = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P("y"), out_specs=P("y"), check_vma=check_vma)


def _two_operands(jax, mesh, check_vma):
    """A batched operand split over 'y' and an unbatched replicated one."""
    P = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a, w: jax.numpy.sin(a) * w, mesh=mesh, in_specs=(P("y"), P()), out_specs=P("y"),
                         check_vma=check_vma)


def _gathered(jax, mesh, check_vma):
    P = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: jax.lax.all_gather(a, "y", tiled=True), mesh=mesh, in_specs=P("y"),
                         out_specs=P(), check_vma=check_vma)


def _named_in_specs(jax, mesh, check_vma):
    P = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: a, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_vma=check_vma)


def _partly_manual(jax, mesh, check_vma):
    P = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: jax.lax.psum(a, "y"), mesh=mesh, in_specs=P("y"), out_specs=P(),
                         axis_names={"y"}, check_vma=check_vma)


def _varying_result(jax, mesh, check_vma):
    """A result varying over 'y' that out_specs says is replicated (refused when types are checked, naming the
    batch's axis 'x' among those it varies over)."""
    P = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: a.sum(0), mesh=mesh, in_specs=P("y"), out_specs=P(), check_vma=check_vma)


def _gathered_checked(jax, mesh, check_vma):
    P = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: jax.lax.all_gather(a, "y", tiled=True), mesh=mesh, in_specs=P("y"),
                         out_specs=P(), check_vma=check_vma)


def _batch_axis_sum(jax, mesh, check_vma):
    """A sum over the batch's mesh axis 'x' (a cast to vary over 'x', which the batched blocks vary over already:
    refused when types are checked)."""
    P = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: jax.lax.psum(a, "x"), mesh=mesh, in_specs=P("y"), out_specs=P("y"),
                         check_vma=check_vma)


def _batch_axis_index(jax, mesh, check_vma):
    """The position along the batch's mesh axis 'x' (refused as ``_batch_axis_sum`` is when types are checked)."""
    P = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: a * jax.lax.axis_index("x"), mesh=mesh, in_specs=P("y"), out_specs=P(),
                         check_vma=check_vma)


# name -> (the shard_map made of (jax, mesh, check_vma), check_vma, vmap's keywords, the operands)
CASES_GIVEN = {
    "indexed_sum": (_indexed_sum, True, {}, (BATCH,)),
    "indexed_sum_unchecked": (_indexed_sum, False, {}, (BATCH,)),
    "doubled": (_doubled, True, {}, (BATCH,)),
    "doubled_in_axes_1": (_doubled, True, {"in_axes": 1}, (BATCH.transpose(1, 0, 2).copy(),)),
    "doubled_out_axes_1": (_doubled, True, {"out_axes": 1}, (BATCH,)),
    "two_operands": (_two_operands, True, {"in_axes": (0, None)}, (BATCH, np.float32(3))),
    "gathered": (_gathered, False, {}, (BATCH,)),
    "named_in_specs": (_named_in_specs, True, {}, (BATCH,)),
    "partly_manual": (_partly_manual, True, {}, (BATCH,)),
    "varying_result": (_varying_result, True, {}, (BATCH,)),
    "gathered_checked": (_gathered_checked, True, {}, (BATCH,)),
    "batch_axis_sum": (_batch_axis_sum, True, {}, (BATCH,)),
    "batch_axis_sum_unchecked": (_batch_axis_sum, False, {}, (BATCH,)),
    "batch_axis_index": (_batch_axis_index, True, {}, (BATCH,)),
    "batch_axis_index_unchecked": (_batch_axis_index, False, {}, (BATCH,)),
}


def _case(name):
    make, check_vma, keywords, operands = CASES_GIVEN[name]

    def case(jax):
        mesh = typed_mesh(jax, "Auto")
        function = jax.vmap(make(jax, mesh, check_vma), spmd_axis_name="x", **keywords)

        def run():
            result = jax.jit(function)(*operands)
            return [str(jax.make_jaxpr(function)(*operands)), jax.jit(function).lower(*operands).as_text(),
                    str(result.sharding), np.round(np.asarray(result), 4).tolist(),
                    np.round(np.asarray(function(*operands)), 4).tolist()]

        # (JAX's message for the partly manual body names a set, in an order that changes from run to run)
        return outcome(run, message=lambda text: text.split(" Got ")[0])
    return case


CASES = {name: _case(name) for name in CASES_GIVEN}


def record(jax) -> dict:
    return {name: case(jax) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "spmd_axis_name_shard_map_golden.json")
