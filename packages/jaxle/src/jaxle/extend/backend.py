"""``jax.extend.backend``: the XLA clients jaxle runs on (jaxlib's ``Client`` objects, as JAX's are)."""

from __future__ import annotations

from typing import Any

from jaxle_core.caches import clear_caches
from jaxle_xla import clients

__all__ = ["backend_xla_version", "backends", "clear_in_memory_compilation_cache", "get_backend",
           "get_default_device"]


def backends() -> dict[str, Any]:
    """Every started client by platform name (starting them on first use)."""
    return clients.started_clients()


def get_backend(platform: Any = None) -> Any:
    """The client of ``platform`` (a name or a client; the default backend when None)."""
    return clients.get_client(platform)


def get_default_device() -> Any:
    """The device uncommitted computations run on."""
    return clients.default_device()


def backend_xla_version(platform: Any = None) -> int | None:
    """The XLA version number the client reports (None for the CPU client, as for JAX's)."""
    return getattr(get_backend(platform), "xla_version", None)


def clear_in_memory_compilation_cache() -> None:
    """Forget every compiled program (they are compiled again on next use)."""
    clear_caches()
