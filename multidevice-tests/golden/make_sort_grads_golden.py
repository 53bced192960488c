"""Write sort_grads_golden.json: derivatives (``grad``, ``vjp``) of functions sorting their argument
(``jnp.sort``, ``lax.sort``, ``argsort``) while ``set_mesh`` of a mesh of Explicit axes (eight CPU devices) is
active, for arguments given as host values or laid out over the mesh, recorded from the module named on the command
line: the jaxpr's text and the gradient's values, or the error's type and message.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_sort_grads_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
_RNG = np.random.RandomState(0)
GRID = _RNG.permutation(32).reshape(8, 4).astype(np.float32)
ROW = _RNG.permutation(8).astype(np.float32)
# name -> (the function differentiated, given (jax, jax.numpy), its argument, the argument's spec over the mesh
# (None: a host value))
GRADS = {
    "sort_row": (lambda jax, jnp: lambda v: (jnp.sort(v) * jnp.arange(8.0)).sum(), ROW, None),
    "sort_row_squares": (lambda jax, jnp: lambda v: (jnp.sort(v) ** 2).sum(), ROW, None),
    "sort_row_sum": (lambda jax, jnp: lambda v: jnp.sort(v).sum(), ROW, None),
    "sort_row_first": (lambda jax, jnp: lambda v: jnp.sort(v)[0], ROW, None),
    "sort_row_descending": (lambda jax, jnp: lambda v: (jnp.sort(v, descending=True) ** 2).sum(), ROW, None),
    "sort_row_jitted": (lambda jax, jnp: jax.jit(lambda v: (jnp.sort(v) ** 2).sum()), ROW, None),
    "sort_row_replicated": (lambda jax, jnp: lambda v: (jnp.sort(v) ** 2).sum(), ROW, ()),
    "sort_row_replicated_arange": (lambda jax, jnp: lambda v: (jnp.sort(v) * jnp.arange(8.0)).sum(), ROW, ()),
    "argsort_take": (lambda jax, jnp: lambda v: (v[jnp.argsort(v)] * jnp.arange(8.0)).sum(), ROW, None),
    "sort_grid_axis_0": (lambda jax, jnp: lambda v: (jnp.sort(v, axis=0) ** 2).sum(), GRID, None),
    "sort_grid_axis_1": (lambda jax, jnp: lambda v: (jnp.sort(v, axis=1) ** 2).sum(), GRID, None),
    "sort_grid_axis_0_sum": (lambda jax, jnp: lambda v: jnp.sort(v, axis=0).sum(), GRID, None),
    "sort_grid_flattened": (lambda jax, jnp: lambda v: (jnp.sort(v, axis=None) ** 2).sum(), GRID, None),
    "sort_grid_arange": (lambda jax, jnp: lambda v: (jnp.sort(v, axis=0) * jnp.arange(4.0)).sum(), GRID, None),
    "sort_grid_replicated": (lambda jax, jnp: lambda v: (jnp.sort(v, axis=0) ** 2).sum(), GRID, ()),
    "sort_grid_split": (lambda jax, jnp: lambda v: (jnp.sort(v, axis=0) ** 2).sum(), GRID, ("x",)),
    "sort_grid_split_other_axis": (lambda jax, jnp: lambda v: (jnp.sort(v, axis=1) ** 2).sum(), GRID, ("x",)),
    "sort_grid_split_columns": (lambda jax, jnp: lambda v: (jnp.sort(v, axis=0) ** 2).sum(), GRID, (None, "y")),
    "lax_sort_grid": (lambda jax, jnp: lambda v: (jax.lax.sort(v, dimension=0) ** 2).sum(), GRID, None),
    "lax_sort_grid_sum": (lambda jax, jnp: lambda v: jax.lax.sort(v, dimension=0).sum(), GRID, None),
    "lax_sort_two_operands": (lambda jax, jnp: lambda v: (jax.lax.sort((v, v * 2), dimension=1, num_keys=1)[1] ** 2
                                                          ).sum(), GRID, None),
    "lax_sort_columns": (lambda jax, jnp: lambda v: jax.lax.sort((v[:, 0], v[:, 1]), num_keys=1)[1].sum(), GRID,
                         None),
}
# name -> (the function, given (jax, jax.numpy), the cotangent given to its pullback, given (jax, jax.numpy))
PULLBACKS = {
    "sum_host_scalar": (lambda jax, jnp: lambda v: jax.lax.sort(v, dimension=0).sum(),
                        lambda jax, jnp: np.float32(1.0)),
    "sum_python_scalar": (lambda jax, jnp: lambda v: jax.lax.sort(v, dimension=0).sum(), lambda jax, jnp: 1.0),
    "sorted_host_array": (lambda jax, jnp: lambda v: jax.lax.sort(v, dimension=0),
                          lambda jax, jnp: np.ones((8, 4), np.float32)),
    "sorted_ones": (lambda jax, jnp: lambda v: jax.lax.sort(v, dimension=0), lambda jax, jnp: jnp.ones((8, 4))),
    "doubled_ones": (lambda jax, jnp: lambda v: v * 2, lambda jax, jnp: jnp.ones((8, 4))),
    "doubled_split_ones": (lambda jax, jnp: lambda v: v * 2,
                           lambda jax, jnp: jax.sharding.reshard(jnp.ones((8, 4)), jax.P("x"))),
}


def _grad(name):
    make, values, spec = GRADS[name]

    def case(jax):
        mesh = typed_mesh(jax, "Explicit", shape=(4, 2))
        argument = values if spec is None else jax.device_put(values, jax.sharding.NamedSharding(mesh, jax.P(*spec)))
        with jax.set_mesh(mesh):
            gradient = jax.grad(make(jax, jax.numpy))
            return outcome(lambda: [str(jax.make_jaxpr(gradient)(argument)), np.asarray(gradient(argument)).tolist()])
    return case


def _pullback(name):
    make, cotangent = PULLBACKS[name]

    def case(jax):
        with jax.set_mesh(typed_mesh(jax, "Explicit", shape=(4, 2))):
            function = make(jax, jax.numpy)
            return outcome(lambda: str(jax.make_jaxpr(
                lambda v: jax.vjp(function, v)[1](cotangent(jax, jax.numpy)))(GRID)))
    return case


CASES = {**{f"grad_{name}": _grad(name) for name in GRADS}, **{f"vjp_{name}": _pullback(name) for name in PULLBACKS}}


def record(jax) -> dict:
    return {name: case(jax) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "sort_grads_golden.json")
