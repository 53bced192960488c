"""JAX's error for parts of a computation on different devices (``Received incompatible devices for jitted
computation``), kept with what failed so that the jitted call whose arguments reached it names them as JAX's does:
the outermost call's arguments (under ``grad`` or ``vmap``, tracers lying nowhere) and its parameter names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core.avals import get_aval
from jaxle_core.core import Tracer

ARGUMENT = "ARG_SHARDING"
CONTEXT = "jit's context mesh"

__all__ = ["ARGUMENT", "CONTEXT", "devices_text", "is_device_mismatch", "mismatch_error", "named_by_call"]


def devices_text(devices: Sequence[Any]) -> str:
    """``with device ids [0, 1] on platform CPU``, as JAX describes where a value or a sharding lies."""
    return f"with device ids [{', '.join(str(d.id) for d in devices)}] on platform {devices[0].platform.upper()}"


def is_device_mismatch(error: BaseException) -> bool:
    """Whether ``error`` is the ValueError ``mismatch_error`` makes (whose ``device_fails`` are the two parts that
    clash, each a ``(kind, devices)`` or ``(kind, devices, where)``: ``ARGUMENT``, an argument's sharding;
    ``CONTEXT``, the mesh set; or what JAX calls another part, ``explicit output sharding`` or ``sharding_constraint
    inside jit`` followed by where it was written, `` at /path/file.py:12:8 (f)``)."""
    return isinstance(error, ValueError) and hasattr(error, "device_fails")


def _described(fail: tuple) -> str:
    kind, devices, *where = fail
    return f"{kind} {devices_text(devices)}{''.join(where)}"


def mismatch_error(fails: Sequence[tuple], places: Sequence[tuple | None], avals: Sequence[Any],
                   arg_names: Sequence[str], function: str) -> ValueError:
    """JAX's error for ``fails`` in a call of ``function``: an argument's failure is described by the first argument
    lying on its devices (``places``: each argument's devices, None where it lies nowhere; ``avals``: their types;
    ``arg_names``: their names, ``args[i]`` past them), with the other failure beside it (the second, unless the
    first is not an argument's); when no argument is found, both failures as they are."""
    described = []
    for kind, devices, *_ in fails:
        i = next((i for i, d in enumerate(places) if kind == ARGUMENT and d == tuple(devices)), None)
        if i is not None:
            name = arg_names[i] if i < len(arg_names) else f"args[{i}]"
            described.append(f"argument {name} of {function} with shape {avals[i].str_short()} and "
                             f"{devices_text(devices)}")
    if len(described) == 1:
        described.append(_described(fails[1] if fails[0][0] == ARGUMENT else fails[0]))
    elif not described:
        described = [_described(fail) for fail in fails]
    error = ValueError("Received incompatible devices for jitted computation. Got " + " and ".join(described))
    error.device_fails = tuple(fails)
    return error


def _place(x: Any) -> tuple | None:
    """The devices an array lies on (committed or not), None for a tracer or a host value."""
    if isinstance(x, Tracer):
        return None
    sharding = getattr(x, "sharding", None)
    devices = getattr(sharding, "_device_assignment", None)
    return tuple(devices) if devices is not None else None


def named_by_call(error: ValueError, args: Sequence[Any], arg_names: Sequence[str], function: str) -> ValueError:
    """``error`` as the jitted call of ``function`` on ``args`` (flat, named ``arg_names``) reports it, as JAX's
    outermost jitted call does: its arguments under a transformation are tracers, which name nothing."""
    return mismatch_error(error.device_fails, [_place(x) for x in args], [get_aval(x) for x in args], arg_names,
                          function)
