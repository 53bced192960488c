"""Write hoisted_constants_golden.json: the jaxprs (``make_jaxpr``) of functions using constants made by
``jax.numpy`` while ``set_mesh`` of a mesh of Explicit axes (eight CPU devices) is active: scalars made eagerly
(``zeros``, ``ones``, ``full``, ``empty``, ``asarray``; under the mesh or outside it) that the function closes over,
and scalars and arrays converted inside it for a ``device=`` sharding (``asarray``, ``array``, ``astype``) or made
there; recorded from the module named on the command line with the jitted function's result (type and values), or
the error's type and message.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_hoisted_constants_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
VALUES = np.arange(8.0, dtype=np.float32)
# name -> the eager constant, given jax.numpy
EAGER = {
    "zeros": lambda jnp: jnp.zeros(()),
    "ones": lambda jnp: jnp.ones(()),
    "full": lambda jnp: jnp.full((), 2.0),
    "zeros_int": lambda jnp: jnp.zeros((), jnp.int32),
    "zeros_vector": lambda jnp: jnp.zeros((2,)),
    "empty": lambda jnp: jnp.empty(()),
    "asarray": lambda jnp: jnp.asarray(2.0),
    "asarray_int": lambda jnp: jnp.asarray(2),
    "float32": lambda jnp: jnp.float32(2.0),
}
# name -> the function traced, given (jax, jax.numpy, the mesh)
TRACED = {
    "asarray": lambda jax, jnp, mesh: lambda v: v * jnp.asarray(2.0),
    "asarray_only": lambda jax, jnp, mesh: lambda v: jnp.asarray(2.0),
    "zeros": lambda jax, jnp, mesh: lambda v: v * jnp.zeros(()),
    "zeros_int": lambda jax, jnp, mesh: lambda v: v * jnp.zeros((), jnp.int32),
    "asarray_list": lambda jax, jnp, mesh: lambda v: v[:2] * jnp.asarray([1.0, 2.0]),
    "asarray_for_sharding": lambda jax, jnp, mesh: lambda v: v * jnp.asarray(2.0, device=_replicated(jax, mesh)),
    "asarray_int_for_sharding": lambda jax, jnp, mesh: lambda v: v * jnp.asarray(2, device=_replicated(jax, mesh)),
    "asarray_float32_for_sharding": lambda jax, jnp, mesh: lambda v: v * jnp.asarray(
        2.0, dtype=jnp.float32, device=_replicated(jax, mesh)),
    "asarray_numpy_scalar_for_sharding": lambda jax, jnp, mesh: lambda v: v * jnp.asarray(
        np.float32(2.0), device=_replicated(jax, mesh)),
    "asarray_only_for_sharding": lambda jax, jnp, mesh: lambda v: jnp.asarray(2.0, device=_replicated(jax, mesh)),
    "array_for_sharding": lambda jax, jnp, mesh: lambda v: v * jnp.array(2.0, device=_replicated(jax, mesh)),
    "astype_for_sharding": lambda jax, jnp, mesh: lambda v: v * jnp.astype(2.0, jnp.float32,
                                                                            device=_replicated(jax, mesh)),
    "vector_for_sharding": lambda jax, jnp, mesh: lambda v: v * jnp.asarray(np.ones(8, np.float32),
                                                                             device=_replicated(jax, mesh)),
    "vector_for_split_sharding": lambda jax, jnp, mesh: lambda v: v * jnp.asarray(
        np.ones(8, np.float32), device=jax.sharding.NamedSharding(mesh, jax.P("x"))),
    "grad_asarray_for_sharding": lambda jax, jnp, mesh: jax.grad(
        lambda v: (v * jnp.asarray(2.0, device=_replicated(jax, mesh))).sum()),
}


def _replicated(jax, mesh):
    return jax.sharding.NamedSharding(mesh, jax.P())


def _traced(jax, function):
    """The jaxpr's text and its results' types, and the jitted function's result (type and values)."""
    closed = jax.make_jaxpr(function)(VALUES)
    result = jax.jit(function)(VALUES)
    return [str(closed), str(closed.out_avals), str(jax.typeof(result)), np.asarray(result).tolist()]


def _closed_over(name, made_under_mesh):
    def case(jax):
        mesh = typed_mesh(jax, "Explicit", shape=(4, 2))
        if made_under_mesh:
            with jax.set_mesh(mesh):
                constant = EAGER[name](jax.numpy)
        else:
            constant = EAGER[name](jax.numpy)
        function = (lambda v: v[:constant.size] * constant) if constant.ndim else (lambda v: v * constant)
        with jax.set_mesh(mesh):
            return outcome(lambda: _traced(jax, function))
    return case


def _made_inside(name):
    def case(jax):
        mesh = typed_mesh(jax, "Explicit", shape=(4, 2))
        with jax.set_mesh(mesh):
            return outcome(lambda: _traced(jax, TRACED[name](jax, jax.numpy, mesh)))
    return case


CASES = {
    **{f"closed_over_{name}_made_{'under' if under else 'outside'}_mesh": _closed_over(name, under)
       for name in EAGER for under in (True, False)},
    **{f"made_inside_{name}": _made_inside(name) for name in TRACED},
}


def record(jax) -> dict:
    return {name: case(jax) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "hoisted_constants_golden.json")
