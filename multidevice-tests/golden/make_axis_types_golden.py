"""Write axis_types_golden.json: what ``jax.sharding.auto_axes`` and ``explicit_axes`` compute on eight CPU devices
(results' layouts and values, errors), recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_axis_types_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import error_of, typed_mesh

HERE = pathlib.Path(__file__).parent
X = np.arange(32.0, dtype=np.float32).reshape(4, 8)


def _p(jax, *spec):
    return jax.sharding.PartitionSpec(*spec)


def _result(array) -> str:
    return f"{array.sharding} {array.dtype} {np.asarray(array).tolist()}"


def _under(jax, axis_type: str, run):
    mesh = typed_mesh(jax, axis_type)
    with jax.sharding.set_mesh(mesh):
        return run(mesh)


def _put(jax, mesh, *spec):
    return jax.device_put(X, jax.sharding.NamedSharding(mesh, _p(jax, *spec)))


def _equations(jax, f, *args) -> str:
    """The primitives of ``f``'s jaxpr (its types differ: jaxle's carry no Explicit sharding)."""
    return str([eqn.primitive.name for eqn in jax.make_jaxpr(f)(*args).eqns])


def _vmapped(jax, f, a) -> str:
    """``vmap(f)(a)``'s result and jaxpr."""
    return f"{_result(jax.vmap(f)(a))} jaxpr: {jax.make_jaxpr(jax.vmap(f))(a)}"


CASES = {
    "auto_axes_matmul": lambda jax: _under(jax, "Explicit", lambda m: _result(jax.sharding.auto_axes(
        lambda b: b @ b.T, out_sharding=_p(jax, None, "x"))(_put(jax, m, "x", "y")))),
    "auto_axes_named_sharding": lambda jax: _under(jax, "Explicit", lambda m: _result(jax.sharding.auto_axes(
        lambda b: b * 2, out_sharding=jax.sharding.NamedSharding(m, _p(jax, None, "y")))(_put(jax, m, "x", "y")))),
    "auto_axes_some_axes": lambda jax: _under(jax, "Explicit", lambda m: _result(jax.sharding.auto_axes(
        lambda b: b * 2, axes="x", out_sharding=_p(jax, None, "y"))(_put(jax, m, "x", "y")))),
    "auto_axes_host_value": lambda jax: _under(jax, "Explicit", lambda m: _result(jax.sharding.auto_axes(
        lambda b: b + 1, out_sharding=_p(jax, None, "y"))(X))),
    "auto_axes_in_jit": lambda jax: _under(jax, "Explicit", lambda m: _result(jax.jit(jax.sharding.auto_axes(
        lambda b: jax.numpy.sin(b).sum(0), out_sharding=_p(jax, "y")))(_put(jax, m, "x", "y")))),
    "auto_axes_without_mesh": lambda jax: _result(jax.sharding.auto_axes(lambda b: b * 2, out_sharding=_p(
        jax, None, "y"))(_put(jax, typed_mesh(jax, "Explicit"), "x", "y"))),
    "auto_axes_grad": lambda jax: _under(jax, "Explicit", lambda m: _result(jax.grad(lambda a: jax.sharding.auto_axes(
        lambda b: (b * b).sum(), out_sharding=_p(jax))(a))(_put(jax, m, "x", "y")))),
    "auto_axes_needs_out_sharding": lambda jax: _under(jax, "Explicit", lambda m: error_of(
        lambda: jax.sharding.auto_axes(lambda b: b)(X))),
    "explicit_axes_host_value": lambda jax: _under(jax, "Auto", lambda m: _result(jax.sharding.explicit_axes(
        lambda b: b * 2, in_sharding=_p(jax, "x", None))(X))),
    "explicit_axes_in_jit": lambda jax: _under(jax, "Auto", lambda m: _result(jax.jit(jax.sharding.explicit_axes(
        lambda b: b.sum(1), in_sharding=_p(jax, "y", None)))(X))),
    "explicit_axes_needs_in_sharding": lambda jax: _under(jax, "Auto", lambda m: error_of(
        lambda: jax.sharding.explicit_axes(lambda b: b)(X))),
    "auto_axes_equations": lambda jax: _under(jax, "Explicit", lambda m: _equations(jax, jax.sharding.auto_axes(
        lambda b: b * 2, out_sharding=_p(jax, None, "y")), X)),
    "explicit_axes_equations": lambda jax: _under(jax, "Auto", lambda m: _equations(jax, jax.sharding.explicit_axes(
        lambda b: b.sum(0), in_sharding=_p(jax, "x")), X)),
    "auto_axes_vmap": lambda jax: _under(jax, "Explicit", lambda m: _vmapped(jax, jax.sharding.auto_axes(
        lambda r: jax.numpy.sin(r).sum(), out_sharding=_p(jax)), _put(jax, m, "x"))),
    "auto_axes_some_axes_vmap": lambda jax: _under(jax, "Explicit", lambda m: _vmapped(jax, jax.sharding.auto_axes(
        lambda r: r * 2, axes="y", out_sharding=_p(jax, "y")), _put(jax, m, "x"))),
    "manual_axis_type": lambda jax: repr(jax.sharding.ManualAxisType(varying=frozenset({"x"}))),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "axis_types_golden.json")
