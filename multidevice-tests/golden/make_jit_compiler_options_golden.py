"""Write jit_compiler_options_golden.json: what ``compiler_options`` (XLA's options by name) given to ``jit``, to
``jit(...).lower(...).compile`` and to ``jax.experimental.pjit.pjit`` do, on eight CPU devices: whether the
optimised program XLA compiles with an option changing its passes (``xla_disable_all_hlo_passes`` on one device,
``xla_disable_hlo_passes`` of algebraic simplification partitioned over a mesh) differs from the default one and is
the same whether given to ``jit`` or to ``compile``, the results, the errors for an option
XLA does not know or a value it cannot read, and the refusal of a jitted function with options staged into another
one (as differentiating it eagerly in reverse mode stages it). Recorded from the module named on the command line
(source lines relative to this folder):

    /work/jaxpeer/bin/python multidevice-tests/golden/make_jit_compiler_options_golden.py jax
"""

import importlib
import pathlib
import warnings

import golden_main
import numpy as np
from golden_cases import in_golden, outcome

HERE = pathlib.Path(__file__).parent
X = np.arange(8.0, dtype=np.float32)
NO_PASSES = {"xla_disable_all_hlo_passes": True}
# (the partitioner is one of the passes: without any, a partitioned program does not compile)
OPTIONS = {"one_device": NO_PASSES, "partitioned": {"xla_disable_hlo_passes": "algsimp"}}


def _f(x):
    return (x * 1.0 + 0.0) * 2


def _outcome(thunk) -> str:
    """``thunk()``'s text as it is, an array's values, or the error raised (this folder's path left out)."""
    return outcome(thunk, lambda r: r if isinstance(r, str) else str(np.asarray(r).tolist()), message=in_golden)


def _pjit(jax):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return importlib.import_module(jax.__name__ + ".experimental.pjit").pjit


def _argument(jax, where: str):
    if where == "one_device":
        return X
    mesh = jax.make_mesh((8,), ("x",))
    return jax.device_put(X, jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x")))


def _programs(jax, where: str) -> str:
    """Whether each way of giving the option compiles another program than the default, and the same one."""
    x, options = _argument(jax, where), OPTIONS[where]
    default = jax.jit(_f).lower(x).compile().as_text()
    texts = {"jit": jax.jit(_f, compiler_options=options).lower(x).compile().as_text(),
             "compile": jax.jit(_f).lower(x).compile(compiler_options=options).as_text(),
             "pjit": _pjit(jax)(_f, compiler_options=options).lower(x).compile().as_text()}
    # (pjit's program names its operations otherwise than jit's)
    return " ".join(f"{name}: other={text != default}"
                    + ("" if name == "pjit" else f" same_as_jit={text == texts['jit']}")
                    for name, text in texts.items())


def _nested(jax, how: str) -> str:
    inner = jax.jit(lambda x: x * 2, compiler_options=NO_PASSES)

    def outer(x):
        return inner(x) + 1

    if how == "make_jaxpr":
        return _outcome(lambda: str(jax.make_jaxpr(outer)(X)))
    return _outcome(lambda: jax.jit(outer)(X))


def _differentiated(jax, how: str) -> str:
    """A jitted function with options differentiated eagerly: forward mode runs it, reverse mode (which JAX
    linearizes by staging it) refuses it."""
    f = jax.jit(lambda x: (x * x).sum(), compiler_options=NO_PASSES)
    uses = {"grad": lambda: jax.grad(f)(X), "vjp": lambda: jax.vjp(f, X)[0],
            "linearize": lambda: jax.linearize(f, X)[0], "jvp": lambda: jax.jvp(f, (X,), (X,))[1]}
    return _outcome(uses[how])


CASES = {
    **{f"programs_{where}": (lambda jax, w=where: _programs(jax, w)) for where in ("one_device", "partitioned")},
    "jit_result": lambda jax: _outcome(lambda: jax.jit(_f, compiler_options=NO_PASSES)(X)),
    "jit_result_partitioned": lambda jax: _outcome(lambda: jax.jit(_f, compiler_options=OPTIONS["partitioned"])(
        _argument(jax, "partitioned"))),
    "pjit_result": lambda jax: _outcome(lambda: _pjit(jax)(_f, compiler_options=NO_PASSES)(X)),
    "vmap_result": lambda jax: _outcome(lambda: jax.vmap(jax.jit(_f, compiler_options=NO_PASSES))(X.reshape(2, 4))),
    "unknown_option": lambda jax: _outcome(lambda: jax.jit(_f, compiler_options={"bogus_option": 1})(X)),
    "unknown_option_compile": lambda jax: _outcome(
        lambda: jax.jit(_f).lower(X).compile(compiler_options={"bogus_option": 1})),
    "unreadable_value": lambda jax: _outcome(
        lambda: jax.jit(_f, compiler_options={"xla_disable_all_hlo_passes": "x"})(X)),
    "empty_options_jaxpr": lambda jax: str(jax.jit(_f, compiler_options={}).trace(X).jaxpr),
    "nested_make_jaxpr": lambda jax: _nested(jax, "make_jaxpr"),
    "nested_jit": lambda jax: _nested(jax, "jit"),
    **{f"differentiated_{how}": (lambda jax, h=how: _differentiated(jax, h))
       for how in ("grad", "vjp", "linearize", "jvp")},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "jit_compiler_options_golden.json")
