"""Write error_sources_golden.json: the user's line that refusals under ``set_mesh`` of a mesh of Explicit axes
name (``This error occurs at source: ...``, a nested jit's ``source info: ...``), recorded from the module named on
the command line: a jnp function handed to make_jaxpr, jit, a control-flow body, checkpoint or eval_shape itself
(named nowhere: the staged function is the library's) or inside a function of the user's (its line), one converted
eagerly by vmap or a derivative (nowhere) or inside jit; ``astype`` to a sharding over another mesh; and a jit given
compiler_options called inside another.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_error_sources_golden.py jax
"""

import pathlib
import warnings

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
GRID = np.arange(16.0, dtype=np.float32).reshape(8, 2)


def _source(message: str) -> str:
    """The part of an error's ``message`` from its note of the line it was raised for (``This error occurs at
    source: ...``, or a nested jit's ``source info: ...``) on, this file's path cut to its name; the whole
    message where it names no line."""
    for marker in ("This error occurs at source:", "source info:"):
        if marker in message:
            return message[message.index(marker):].replace(str(HERE) + "/", "")
    return message


def _where(run):
    """The location ``run(jax)``'s error names (``_source``), or the shape of what it returned."""
    def case(jax):
        return outcome(lambda: run(jax), lambda out: f"computed {np.asarray(out).shape}", message=_source)
    return case


def _meshes(jax):
    """A mesh of Auto axes and one of Explicit axes, both of shape (4, 2) over the eight devices."""
    return typed_mesh(jax, "Auto", shape=(4, 2)), typed_mesh(jax, "Explicit", shape=(4, 2))


def _over_auto_mesh(run):
    """``run(jax, a)`` with ``a`` laid out over a mesh of Auto axes, under set_mesh of one of Explicit axes."""
    def case(jax):
        auto, explicit = _meshes(jax)
        a = jax.device_put(GRID, jax.sharding.NamedSharding(auto, jax.P("x")))
        with jax.set_mesh(explicit):
            return run(jax, a)
    return _where(case)


def _user_zeros_like(jax, v):
    return jax.numpy.zeros_like(v)


def _astype_elsewhere(jax, v):
    other = typed_mesh(jax, "Explicit", shape=(2, 4))
    return v.astype(jax.numpy.int32, device=jax.sharding.NamedSharding(other, jax.P("x")))


def _under_explicit_mesh(run):
    """``run(jax, GRID)`` under set_mesh of a mesh of Explicit axes."""
    def case(jax):
        with jax.set_mesh(_meshes(jax)[1]):
            return run(jax, GRID)
    return _where(case)


def _with_options(jax):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return jax.jit(lambda v: v * 2, compiler_options={"xla_embed_ir_in_executable": True})


def _outer(jax, v):
    return _with_options(jax)(v) + 1


CASES = {
    **{f"{name}_{how}": _over_auto_mesh(
        lambda jax, a, name=name, how=how: {
            "make_jaxpr": lambda f: jax.make_jaxpr(f)(a),
            "make_jaxpr_of_user_function": lambda f: jax.make_jaxpr(lambda v: f(v))(a),
            "jit": lambda f: jax.jit(f)(a),
            "grad": lambda f: jax.grad(lambda v: f(v).astype(np.float32).sum())(a),
        }[how](getattr(jax.numpy, name)))
       for name in ("zeros_like", "ones_like", "empty_like", "imag", "argsort")
       for how in ("make_jaxpr", "make_jaxpr_of_user_function", "jit", "grad")},
    "full_like_make_jaxpr": _over_auto_mesh(lambda jax, a: jax.make_jaxpr(lambda v: jax.numpy.full_like(v, 1.0))(a)),
    "user_function": _over_auto_mesh(lambda jax, a: jax.make_jaxpr(lambda v: _user_zeros_like(jax, v))(a)),
    "cond": _over_auto_mesh(lambda jax, a: jax.lax.cond(True, jax.numpy.zeros_like, jax.numpy.zeros_like, a)),
    "checkpoint": _over_auto_mesh(lambda jax, a: jax.checkpoint(jax.numpy.zeros_like)(a)),
    "eval_shape": _over_auto_mesh(lambda jax, a: jax.eval_shape(jax.numpy.zeros_like, a)),
    "jit_trace": _over_auto_mesh(lambda jax, a: jax.jit(jax.numpy.zeros_like).trace(a).jaxpr),
    "linearize": _over_auto_mesh(lambda jax, a: jax.linearize(jax.numpy.zeros_like, a)[0]),
    "vjp": _over_auto_mesh(lambda jax, a: jax.vjp(jax.numpy.zeros_like, a)[0]),
    "jvp": _over_auto_mesh(lambda jax, a: jax.jvp(jax.numpy.zeros_like, (a,), (a,))[0]),
    "jit_of_jit": _over_auto_mesh(lambda jax, a: jax.jit(lambda v: jax.jit(jax.numpy.zeros_like)(v))(a)),
    **{f"astype_other_mesh_{how}": _under_explicit_mesh(
        lambda jax, x, how=how: {
            "eager": lambda: _astype_elsewhere(jax, jax.numpy.asarray(x)),
            "jit": lambda: jax.jit(lambda v: _astype_elsewhere(jax, v))(x),
            "make_jaxpr": lambda: jax.make_jaxpr(lambda v: _astype_elsewhere(jax, v))(x),
            "vmap": lambda: jax.vmap(lambda v: _astype_elsewhere(jax, v))(x),
            "grad": lambda: jax.grad(lambda v: _astype_elsewhere(jax, v).astype(np.float32).sum())(x),
            "jit_of_vmap": lambda: jax.jit(jax.vmap(lambda v: _astype_elsewhere(jax, v)))(x),
            "jit_of_grad": lambda: jax.jit(jax.grad(lambda v: _astype_elsewhere(jax, v).astype(np.float32).sum()))(x),
            "cond": lambda: jax.lax.cond(True, lambda v: _astype_elsewhere(jax, v),
                                         lambda v: _astype_elsewhere(jax, v), x),
        }[how]())
       for how in ("eager", "jit", "make_jaxpr", "vmap", "grad", "jit_of_vmap", "jit_of_grad", "cond")},
    **{f"compiler_options_{how}": _where(lambda jax, how=how: {
        "nested": lambda: jax.jit(lambda v: _outer(jax, v))(GRID),
        "jit_of_it": lambda: jax.jit(_with_options(jax))(GRID),
        "make_jaxpr_of_it": lambda: jax.make_jaxpr(_with_options(jax))(GRID),
        "make_jaxpr_of_caller": lambda: jax.make_jaxpr(lambda v: _outer(jax, v))(GRID),
        "grad": lambda: jax.grad(lambda v: _with_options(jax)(v).sum())(GRID),
        "cond": lambda: jax.lax.cond(True, _with_options(jax), _with_options(jax), GRID),
        "scan": lambda: jax.lax.scan(lambda c, v: (c, _with_options(jax)(v)), 0.0, GRID)[1],
    }[how]()) for how in ("nested", "jit_of_it", "make_jaxpr_of_it", "make_jaxpr_of_caller", "grad", "cond", "scan")},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "error_sources_golden.json")
