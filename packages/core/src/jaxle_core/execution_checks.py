"""The flags that watch execution: ``jax_debug_nans`` and ``jax_debug_infs`` stop at the first operation that
produces a nan (an inf); ``jax_no_execution`` refuses to run anything.

With a nan flag on, the outputs of every eagerly applied primitive are read back and checked: a nan (inf) raises
``FloatingPointError("invalid value (nan) encountered in <primitive>")``. A jitted function's outputs are checked
after the compiled call; on a nan, it prints that it calls the de-optimized version and evaluates the function's
jaxpr again op by op, so that the error names the primitive that produced the value. When the op-by-op run
produces none (the value came from an input or a literal, or from an XLA optimisation), the error says so, in
JAX's words. Checking costs a host transfer per operation: it is a debugging mode.

``jax_debug_key_reuse`` arms the same paths: while it is on, eager primitives and jitted calls go through the
key-reuse checker that ``jaxle_random.key_reuse`` installs as ``key_reuse``, and jit checks each function it traces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from jaxle_core.config import config, debug_infs, debug_key_reuse, debug_nans, no_execution

__all__ = ["FLAGS", "KeyReuseChecker", "apply_checked", "armed", "call_jit_checked", "check_traced_jaxpr",
           "key_reuse"]

# False until one of the flags is first turned on (globally or in a block, in any thread): until then the dispatch
# paths skip checking with one module attribute read. Once armed, the flags' thread-local values decide.
armed = False


def _arm(value: Any) -> None:
    global armed
    armed = armed or bool(value)


FLAGS = ("jax_debug_nans", "jax_debug_infs", "jax_no_execution", "jax_debug_key_reuse")  # the flags that arm

for _name in FLAGS:
    config.add_observer(_name, _arm)
    _arm(getattr(config, _name))  # set from the environment (JAX_DEBUG_NANS=1)


class KeyReuseChecker(Protocol):
    """What ``jax_debug_key_reuse`` checks, around eager calls (``run()`` computes the outputs) and traced jaxprs."""

    def apply(self, run: Callable[[], Any], primitive: Any, args: Sequence[Any], params: dict) -> Any: ...

    def call_jit(self, run: Callable[[], list], closed: Any, args: Sequence[Any]) -> list: ...

    def check_jaxpr(self, jaxpr: Any) -> None: ...


key_reuse: KeyReuseChecker | None = None  # installed by jaxle_random.key_reuse


def _key_reuse_checker() -> KeyReuseChecker | None:
    """The key-reuse checker while ``jax_debug_key_reuse`` is on (and jaxle_random installed one), else None."""
    return key_reuse if key_reuse is not None and debug_key_reuse.value else None


def check_traced_jaxpr(jaxpr: Any) -> None:
    """Under ``jax_debug_key_reuse``, JAX's KeyReuseError for a key that ``jaxpr`` (just traced) uses twice."""
    checker = _key_reuse_checker()
    if checker is not None:
        checker.check_jaxpr(jaxpr)

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


def _refuse_execution(name: str) -> None:
    if no_execution.value:
        raise RuntimeError(f"JAX tried to execute function {name}, but the no_execution config option is set")


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


def apply_checked(apply: Callable[[Any, Sequence[Any], dict], Any], primitive: Any, args: Sequence[Any],
                  params: dict) -> Any:
    """``apply(primitive, args, params)`` (a backend's eager dispatch) under the flags: refused with
    ``jax_no_execution``; outputs checked for nans and infs (a ``jit`` equation re-run op by op first, to name the
    primitive inside it)."""
    _refuse_execution(f"jit({primitive.name})")
    checker = _key_reuse_checker()
    if checker is not None:
        outs = checker.apply(lambda: apply(primitive, args, params), primitive, args, params)
    else:
        outs = apply(primitive, args, params)
    kind = _invalid_kind(outs if primitive.multiple_results else [outs])
    if kind is None:
        return outs
    if primitive.name == "jit":
        _rerun_op_by_op(f"jit({params['name']})", kind, params["jaxpr"], args)
    raise FloatingPointError(f"invalid value ({kind}) encountered in {primitive.name}")


def call_jit_checked(name: str, closed: Any, executable: Callable[..., list], args: Sequence[Any]) -> list:
    """``executable(*args)``, the compiled jitted function ``name`` of jaxpr ``closed``, under the flags: refused
    with ``jax_no_execution``; outputs checked, naming the primitive that produced a nan when an op-by-op run can."""
    _refuse_execution(f"jit({name})")
    checker = _key_reuse_checker()
    outs = checker.call_jit(lambda: executable(*args), closed, args) if checker is not None else executable(*args)
    kind = _invalid_kind(outs)
    if kind is not None:
        _rerun_op_by_op(f"jit({name})", kind, closed, args)
    return outs


def _rerun_op_by_op(name: str, kind: str, closed: Any, args: Sequence[Any]) -> None:
    from jaxle_core import core  # local: core's dispatch imports this module

    print(_DEOPTIMIZED_NOTICE)
    core.eval_jaxpr(closed.jaxpr, closed.consts, *args)  # raises, naming the primitive, when it reproduces
    raise FloatingPointError(f"{(name, kind)}. {_NOT_REPRODUCED}")
