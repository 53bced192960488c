"""Compatibility shim for ``jax._src.xla_bridge`` (see ``jaxle._src``): ``_backends`` is the dict of the XLA
clients started so far, by platform."""

from typing import Any

from jaxle_xla import clients

__all__: list[str] = []


def __getattr__(name: str) -> Any:
    if name == "_backends":
        return clients.started_clients(start=False)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
