"""``jax_debug_nans`` and ``jax_debug_infs``: stop at the first operation that produces a nan (or an inf).

With a flag on, the outputs of every eagerly applied primitive are read back and checked: a nan (inf) raises
``FloatingPointError("invalid value (nan) encountered in <primitive>")``. A jitted function's outputs are checked
after the compiled call; on a nan, it prints that it calls the de-optimized version and evaluates the function's
jaxpr again op by op, so that the error names the primitive that produced the value. When the op-by-op run
produces none (the value came from an input or a literal, or from an XLA optimisation), the error says so, in
JAX's words. Checking costs a host transfer per operation: it is a debugging mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core.config import config, debug_infs, debug_nans

__all__ = ["armed", "check_jit_outputs", "check_primitive_outputs"]

# False until either flag is first turned on (globally or in a block, in any thread): until then the dispatch paths
# skip checking with one module attribute read. Once armed, the flags' thread-local values decide.
armed = False


def _arm(value: Any) -> None:
    global armed
    armed = armed or bool(value)


config.add_observer("jax_debug_nans", _arm)
config.add_observer("jax_debug_infs", _arm)
_arm(config.jax_debug_nans or config.jax_debug_infs)  # set from the environment (JAX_DEBUG_NANS=1)

_DEOPTIMIZED_NOTICE = ("Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized "
                       "version.")

_NOT_REPRODUCED = (
    "Because jax_config.debug_nans.value and/or config.jax_debug_infs is set, the de-optimized function (i.e., the "
    "function as if the `jit` decorator were removed) was called in an attempt to get a more precise error message. "
    "However, the de-optimized function did not produce invalid values during its execution. This behavior can "
    "result from `jit` optimizations causing the invalid value to be produced. It may also arise from having nan/inf "
    "literals as inputs or outputs, like `jax.jit(lambda ...: jax.numpy.nan)(...)`. \n\nIt may be possible to avoid "
    "the invalid value by removing the `jit` decorator, at the cost of losing optimizations. \n\nIf you see this "
    "error, consider opening a bug report at https://github.com/jax-ml/jax.")


def _invalid_kind(values: Sequence[Any]) -> str | None:
    """"nan" or "inf" when a checked value holds one (nans first, as JAX checks them), else None."""
    nans, infs = debug_nans.value, debug_infs.value
    if not (nans or infs):
        return None
    for value in values:
        dtype = getattr(value, "dtype", None)
        if dtype is None or not np.issubdtype(np.dtype(dtype), np.inexact):
            continue
        host = np.asarray(value)
        if nans and np.isnan(host).any():
            return "nan"
        if infs and np.isinf(host).any():
            return "inf"
    return None


def check_primitive_outputs(primitive: Any, args: Sequence[Any], params: dict, outs: Any) -> None:
    """Raise FloatingPointError when the outputs of a primitive applied eagerly to ``args`` hold a value the flags
    refuse; a ``jit`` equation is re-run op by op first, to name the primitive inside it."""
    values = outs if primitive.multiple_results else [outs]
    kind = _invalid_kind(values)
    if kind is None:
        return
    if primitive.name == "jit":
        _rerun_op_by_op(f"jit({params['name']})", kind, params["jaxpr"], args)
    raise FloatingPointError(f"invalid value ({kind}) encountered in {primitive.name}")


def check_jit_outputs(name: str, closed: Any, args: Sequence[Any], outs: Sequence[Any]) -> None:
    """Raise FloatingPointError when the outputs of the jitted function ``name`` (jaxpr ``closed``, called on the
    flat ``args``) hold a value the flags refuse, naming the primitive that produced it when an op-by-op run can."""
    kind = _invalid_kind(outs)
    if kind is not None:
        _rerun_op_by_op(f"jit({name})", kind, closed, args)


def _rerun_op_by_op(name: str, kind: str, closed: Any, args: Sequence[Any]) -> None:
    from jaxle_core import core  # local: core's dispatch imports this module

    print(_DEOPTIMIZED_NOTICE)
    core.eval_jaxpr(closed.jaxpr, closed.consts, *args)  # raises, naming the primitive, when it reproduces
    raise FloatingPointError(f"{(name, kind)}. {_NOT_REPRODUCED}")
