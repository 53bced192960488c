"""Write shard_map_refusals_golden.json: what JAX 0.10.2 refuses of ``shard_map`` over a mesh of Explicit axes
(``in_specs`` other than the arguments' types, eager gradients of values typed over the mesh outside ``set_mesh``)
and what it accepts beside them (also ``jnp.where`` of such arrays traced outside ``set_mesh``), on eight CPU
devices, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_shard_map_refusals_golden.py jax

Each case is a function of the module returning text (an error's type and message, or values and layout); the test
runs the same functions with jaxle and compares the texts.
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh
from make_shard_map_axes_golden import _p, _placed, _sorted_sets

HERE = pathlib.Path(__file__).parent
X = np.arange(16.0, dtype=np.float32).reshape(4, 4)


def _mesh(jax, *kinds):
    return typed_mesh(jax, *(kinds or ("Explicit", "Explicit")))


def _put(jax, mesh, *spec, value=X):
    return jax.device_put(value, jax.sharding.NamedSharding(mesh, _p(jax, *spec)))


def _double(jax, in_spec, out_spec=None, mesh=None, **options):
    mesh = mesh or _mesh(jax)
    return jax.shard_map(lambda v: v * 2, mesh=mesh, in_specs=in_spec, out_specs=out_spec or in_spec, **options)


def _outcome(jax, thunk) -> str:
    """The values and layout of ``thunk()``'s result, or its error."""
    return outcome(thunk, lambda r: _placed(jax, r), message=_sorted_sets)


def _summed(jax, spec, mesh=None):
    """A function summing a shard_map's doubled blocks (its gradient is two everywhere)."""
    return lambda v: _double(jax, spec, mesh=mesh)(v).sum()


def _psum_total(jax, mesh):
    return jax.shard_map(lambda v: jax.lax.psum(v.sum(), "x"), mesh=mesh, in_specs=_p(jax, "x"), out_specs=_p(jax))


def _under(jax, mesh, thunk):
    with jax.set_mesh(mesh):
        return thunk()


CASES = {
    # in_specs against the arguments' types (all axes Explicit and manual)
    "spec_other_axis": lambda jax: _outcome(jax, lambda: _double(jax, _p(jax, "y"))(_put(jax, _mesh(jax), "x"))),
    "spec_replicated": lambda jax: _outcome(jax, lambda: _double(jax, _p(jax))(_put(jax, _mesh(jax), "x"))),
    "spec_split_unsplit_arg": lambda jax: _outcome(jax, lambda: _double(jax, _p(jax, "x"))(
        _put(jax, _mesh(jax)))),
    "spec_numpy_arg": lambda jax: _outcome(jax, lambda: _double(jax, _p(jax, "x"))(X)),
    "spec_axes_order": lambda jax: _outcome(jax, lambda: _double(jax, _p(jax, ("y", "x")))(
        _put(jax, _mesh(jax), ("x", "y"), value=np.arange(32.0, dtype=np.float32).reshape(8, 4)))),
    "spec_unreduced": lambda jax: _outcome(jax, lambda: _double(
        jax, jax.sharding.PartitionSpec("x", unreduced={"y"}), _p(jax, "x"))(_put(jax, _mesh(jax), "x"))),
    "spec_second_argument": lambda jax: _outcome(jax, lambda: jax.shard_map(
        lambda a, b: a + b, mesh=_mesh(jax), in_specs=(_p(jax, "x", "y"), _p(jax, "x")), out_specs=_p(jax, "x", "y"))(
        _put(jax, _mesh(jax), "x", "y"), _put(jax, _mesh(jax), "x", "y"))),
    "spec_matches_padded": lambda jax: _outcome(jax, lambda: _double(jax, _p(jax, "x", None))(
        _put(jax, _mesh(jax), "x"))),
    "spec_scalar_argument": lambda jax: _outcome(jax, lambda: jax.shard_map(
        lambda a, s: a * s, mesh=_mesh(jax), in_specs=(_p(jax, "x"), _p(jax)), out_specs=_p(jax, "x"))(
        _put(jax, _mesh(jax), "x"), 3.0)),
    "spec_checked_after_divisibility": lambda jax: _outcome(jax, lambda: _double(jax, _p(jax, ("x", "y")), _p(jax))(
        _put(jax, _mesh(jax), "x"))),
    "spec_under_jit": lambda jax: _outcome(jax, lambda: jax.jit(lambda v: _double(jax, _p(jax, "y"))(v * 3))(
        _put(jax, _mesh(jax), "x"))),
    "spec_under_set_mesh": lambda jax: _under(jax, _mesh(jax), lambda: _outcome(
        jax, lambda: _double(jax, _p(jax, "y"))(_put(jax, _mesh(jax), "x")))),
    "spec_under_vmap": lambda jax: _outcome(jax, lambda: jax.vmap(_double(jax, _p(jax, "y")))(
        np.ones((3, 4, 4), np.float32))),
    # not checked: a mesh with an Auto axis, or only some axes manual
    "spec_mixed_mesh_unchecked": lambda jax: _outcome(jax, lambda: _double(jax, _p(jax, "y"), mesh=_mesh(
        jax, "Explicit", "Auto"))(_put(jax, _mesh(jax, "Explicit", "Auto"), "x"))),
    "spec_partial_manual_unchecked": lambda jax: _outcome(jax, lambda: _double(jax, _p(jax), axis_names={"x"})(
        _put(jax, _mesh(jax), "x", "y"))),
    # eager gradients of values typed over the mesh: the seed is made on one device unless set_mesh names them
    "grad_outside_set_mesh": lambda jax: _outcome(jax, lambda: jax.grad(_summed(jax, _p(jax, "x")))(
        _put(jax, _mesh(jax), "x"))),
    "grad_of_psum_outside_set_mesh": lambda jax: _outcome(jax, lambda: jax.grad(_psum_total(jax, _mesh(jax)))(
        _put(jax, _mesh(jax), "x"))),
    "grad_without_shard_map": lambda jax: _outcome(jax, lambda: jax.grad(jax.numpy.sum)(_put(jax, _mesh(jax), "x"))),
    "value_and_grad_outside_set_mesh": lambda jax: _outcome(jax, lambda: jax.value_and_grad(
        _summed(jax, _p(jax, "x")))(_put(jax, _mesh(jax), "x"))[1]),
    "grad_one_device_mesh_outside_set_mesh": lambda jax: _outcome(jax, lambda: jax.grad(jax.numpy.sum)(_put(
        jax, jax.make_mesh((1,), ("x",), axis_types=(jax.sharding.AxisType.Explicit,))))),
    "grad_under_set_mesh": lambda jax: _under(jax, _mesh(jax), lambda: _outcome(
        jax, lambda: jax.grad(_summed(jax, _p(jax, "x")))(_put(jax, _mesh(jax), "x")))),
    "grad_under_jit": lambda jax: _outcome(jax, lambda: jax.jit(jax.grad(_summed(jax, _p(jax, "x"))))(
        _put(jax, _mesh(jax), "x"))),
    "grad_auto_mesh": lambda jax: _outcome(jax, lambda: jax.grad(_summed(jax, _p(jax, "x"), _mesh(
        jax, "Auto", "Auto")))(X)),
    "vjp_outside_set_mesh": lambda jax: _outcome(jax, lambda: jax.vjp(_double(jax, _p(jax, "x")), _put(
        jax, _mesh(jax), "x"))[1](_put(jax, _mesh(jax), "x"))[0]),
    # the remedy the in_specs error names needs a mesh to read a PartitionSpec over
    "reshard_spec_outside_set_mesh": lambda jax: _outcome(jax, lambda: jax.jit(lambda v: jax.reshard(v, _p(
        jax, "y")))(_put(jax, _mesh(jax), "x"))),
    # a typed layout given to the broadcast of an untyped scalar types it, with or without set_mesh
    "where_fill_outside_set_mesh": lambda jax: str(jax.make_jaxpr(lambda a: jax.numpy.where(a > 3, a, 0.0))(
        _put(jax, _mesh(jax), "x", "y"))),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "shard_map_refusals_golden.json")
