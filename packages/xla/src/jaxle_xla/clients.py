"""Clients and devices: which platforms exist, which one is the default, and the device queries.

A client is started on first use. The CPU client's device count comes from
``jax_num_cpu_devices`` (env ``JAX_NUM_CPU_DEVICES``) or from XLA_FLAGS'
``--xla_force_host_platform_device_count``, read when the client starts.
GPUs are found through NVIDIA's (or AMD's) PJRT plugin packages when they
are installed; see docs/xla.md.
"""

from __future__ import annotations

import functools
from typing import Any

from jaxle_core.config import config

from jaxle_xla import _jaxlib

_PLATFORM_ALIASES = {"gpu": ("cuda", "rocm")}
_clients: dict[str, Any] = {}


def _requested_platforms() -> list[str]:
    """Platforms in priority order: ``jax_platforms`` if set, else every available one, GPUs first."""
    return list(_platforms_for(config.jax_platforms))


@functools.cache
def _platforms_for(setting: str | None) -> tuple[str, ...]:
    if setting:
        names: list[str] = []
        for name in setting.split(","):
            names += _PLATFORM_ALIASES.get(name.strip(), (name.strip(),))
        return tuple(names)
    return tuple(p for p in ("cuda", "rocm") if _jaxlib.find_plugin_library(p)) + ("cpu",)


def _start_client(platform: str) -> Any:
    if platform == "cpu":
        count = config.jax_num_cpu_devices
        if count is None or count < 0:
            count = _jaxlib.environment_num_cpu_devices() or -1
        return _jaxlib.make_cpu_client(count)
    library = _jaxlib.find_plugin_library(platform)
    if library is None:
        raise RuntimeError(f"Unknown backend: '{platform}' requested, but no PJRT plugin for it is installed. "
                           f"For NVIDIA GPUs install `jax-cuda12-plugin[with-cuda]`.")
    return _jaxlib.make_plugin_client(platform, library)


def get_client(platform: str | None = None) -> Any:
    """The client of ``platform`` (the default platform when None), started on first use."""
    if platform is None:
        platform = default_backend()
    platform = {"gpu": "cuda"}.get(platform, platform)
    client = _clients.get(platform)
    if client is None:
        if platform not in _requested_platforms() and platform != "cpu":
            raise RuntimeError(f"Unknown backend {platform}. Available platforms: {_requested_platforms()}")
        client = _clients[platform] = _start_client(platform)
    return client


@functools.cache
def _default_platform(platforms: tuple[str, ...]) -> str:
    errors = []
    for platform in platforms:
        try:
            get_client(platform)
            return platform
        except RuntimeError as err:
            errors.append(f"{platform}: {err}")
    raise RuntimeError("Unable to initialize backend: " + "; ".join(errors))


def default_backend() -> str:
    """The platform name of the default backend (``'cpu'``, ``'gpu'``)."""
    platform = _default_platform(tuple(_requested_platforms()))
    return "gpu" if platform in ("cuda", "rocm") else platform


def _platform_of(backend: Any) -> str | None:
    if backend is None or isinstance(backend, str):
        return backend
    return backend.platform


def devices(backend: Any = None) -> list[_jaxlib.Device]:
    """Every device of ``backend`` (the default backend when None)."""
    return list(get_client(_platform_of(backend)).devices())


def local_devices(process_index: int | None = None, backend: Any = None) -> list[_jaxlib.Device]:
    """The devices attached to this process (or to process ``process_index``)."""
    client = get_client(_platform_of(backend))
    index = client.process_index() if process_index is None else process_index
    return [d for d in client.devices() if d.process_index == index]


def device_count(backend: Any = None) -> int:
    return len(devices(backend))


def local_device_count(backend: Any = None) -> int:
    return len(local_devices(backend=backend))


def process_index(backend: Any = None) -> int:
    return get_client(_platform_of(backend)).process_index()


def process_count(backend: Any = None) -> int:
    return max(d.process_index for d in devices(backend)) + 1


def default_device() -> _jaxlib.Device:
    """The first local device of the default backend."""
    return _local_devices_of(get_client())[0]


def has_one_device() -> bool:
    """Whether the default backend has a single local device (the common case: no placement decisions)."""
    return len(_local_devices_of(get_client())) == 1


@functools.cache
def _local_devices_of(client: Any) -> tuple[_jaxlib.Device, ...]:
    return tuple(d for d in client.devices() if d.process_index == client.process_index())
