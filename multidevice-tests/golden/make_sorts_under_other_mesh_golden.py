"""Write sorts_under_other_mesh_golden.json: sorts of arrays laid out over a mesh of Auto axes while ``set_mesh`` of
a mesh of Explicit axes (the same devices and axis names) is active, eager, jitted and lowered, recorded from the
module named on the command line: the error each raises when its comparison is compiled (JAX checks the keys'
mesh there, at the first operation of the comparison on them), or the sorted values where it sorts.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_sorts_under_other_mesh_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
ROWS = np.array([[3.0, -1.0], [0.0, 7.0], [5.0, 2.0], [-4.0, 1.0]] * 2, np.float32)


def _put(jax, value, kind="Auto"):
    return jax.device_put(value, jax.sharding.NamedSharding(typed_mesh(jax, kind, shape=(4, 2)), jax.P("x")))


def _first_values(out):
    return np.asarray(out[0] if isinstance(out, (tuple, list)) else out).tolist()


def _under_explicit_mesh(run, *dtypes, kind="Auto"):
    """``run(jax, *operands)`` (``ROWS`` as each of ``dtypes``, laid out over a mesh of ``kind`` axes) under
    ``set_mesh`` of a mesh of Explicit axes: the error's type and message, or the first result's values."""
    def case(jax):
        operands = [_put(jax, ROWS.astype(d), kind) for d in dtypes]

        def under_mesh():
            with jax.set_mesh(typed_mesh(jax, "Explicit", shape=(4, 2))):
                return run(jax, *operands)
        return outcome(under_mesh, _first_values)
    return case


CASES = {
    "jnp_sort_float": _under_explicit_mesh(lambda jax, a: jax.numpy.sort(a, axis=0), np.float32),
    "jnp_sort_float16": _under_explicit_mesh(lambda jax, a: jax.numpy.sort(a, axis=0), np.float16),
    "jnp_sort_int": _under_explicit_mesh(lambda jax, a: jax.numpy.sort(a, axis=0), np.int32),
    "jnp_lexsort": _under_explicit_mesh(lambda jax, a, i: jax.numpy.lexsort((a, i), axis=0), np.float32, np.int32),
    "lax_sort_bool": _under_explicit_mesh(lambda jax, b: jax.lax.sort(b, dimension=0), np.bool_),
    "lax_sort_complex": _under_explicit_mesh(lambda jax, c: jax.lax.sort(c, dimension=0), np.complex64),
    "lax_sort_int_key_float_operand": _under_explicit_mesh(
        lambda jax, i, a: jax.lax.sort((i, a), dimension=0, num_keys=1), np.int32, np.float32),
    "lax_sort_int_then_float_keys": _under_explicit_mesh(
        lambda jax, i, a: jax.lax.sort((i, a), dimension=0, num_keys=2), np.int32, np.float32),
    "lax_sort_unstable": _under_explicit_mesh(lambda jax, i: jax.lax.sort(i, dimension=0, is_stable=False),
                                              np.uint8),
    "jit_sort": _under_explicit_mesh(lambda jax, a: jax.jit(jax.numpy.sort)(a), np.float32),
    "nested_jit_sort": _under_explicit_mesh(lambda jax, i: jax.jit(lambda v: jax.jit(jax.numpy.sort)(v))(i),
                                            np.int32),
    "lowered_sort": _under_explicit_mesh(lambda jax, a: jax.jit(jax.numpy.sort).lower(a).as_text(), np.float32),
    "make_jaxpr_sort": _under_explicit_mesh(lambda jax, a: [jax.make_jaxpr(jax.numpy.sort)(a).out_avals[0].shape],
                                            np.float32),
    "auto_axes_sort": _under_explicit_mesh(
        lambda jax, a: jax.sharding.auto_axes(lambda v: jax.numpy.sort(v, axis=0), out_sharding=jax.P())(
            jax.sharding.reshard(a, jax.P())), np.float32, kind="Explicit"),
    "explicit_operand": _under_explicit_mesh(lambda jax, a: jax.numpy.sort(a, axis=0), np.float32,
                                             kind="Explicit"),
}


def lowered_outside_mesh(jax) -> str:
    """A sort traced under the mesh of Explicit axes and lowered after leaving it: it is compiled under the mesh
    it was traced under."""
    a = _put(jax, ROWS)
    with jax.set_mesh(typed_mesh(jax, "Explicit", shape=(4, 2))):
        traced = jax.jit(jax.numpy.sort).trace(a)
    return outcome(traced.lower, lambda _: "lowered", errors=ValueError)


CASES["lowered_outside_mesh"] = lowered_outside_mesh


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "sorts_under_other_mesh_golden.json")
