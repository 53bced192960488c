"""Clients and devices: which platforms exist, which one is the default, and the device queries.

The clients start together on first use and stay fixed for the life of the
process, as JAX's backends do. ``jax_platforms`` (env ``JAX_PLATFORMS``)
lists the platforms to start, the first being the default; unset, every
available platform starts, GPUs first. ``jax_platform_name`` (env
``JAX_PLATFORM_NAME``) names another default platform among those started. The CPU client's device count comes
from ``jax_num_cpu_devices`` (env ``JAX_NUM_CPU_DEVICES``) or from XLA_FLAGS'
``--xla_force_host_platform_device_count``, read when the client starts.
GPUs are found through NVIDIA's (or AMD's) PJRT plugin packages when they
are installed; see docs/xla.md. In a multi-process run (``jaxle_xla.distributed``) the CPU client spans every
process: its devices are global, each process's own are its local devices.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from jaxle_core import config as flags
from jaxle_core.config import config
from jaxle_xla import _jaxlib, distributed

_GPU_PLATFORMS = ("cuda", "rocm")
_clients: dict[str, Any] = {}  # platform -> client, in priority order; filled once by _started()


def _requested_platforms(setting: str | None) -> list[str]:
    if not setting:
        return [p for p in _GPU_PLATFORMS if _jaxlib.find_plugin_library(p)] + ["cpu"]
    names: list[str] = []
    for name in setting.split(","):
        name = name.strip()
        names += _GPU_PLATFORMS if name == "gpu" else (name,)
    return names


def _start_client(platform: str) -> Any:
    if platform == "cpu":
        count = config.jax_num_cpu_devices
        if count is None or count < 0:
            count = _jaxlib.environment_num_cpu_devices() or -1
        return _jaxlib.make_cpu_client(
            count, distributed.global_state.cpu_client_options(), asynchronous=flags.cpu_enable_async_dispatch.value,
            local_topology_minutes=config.jax_cpu_get_local_topology_timeout_minutes,
            global_topology_minutes=config.jax_cpu_get_global_topology_timeout_minutes)
    return _jaxlib.make_plugin_client(platform, _jaxlib.find_plugin_library(platform),
                                      plugin_client_options(platform))


def plugin_client_options(platform: str) -> dict[str, Any]:
    """The options a plugin client is created with: ``jax_pjrt_client_create_options`` (a dict, or text of
    ``key:value`` pairs separated by ``;``), and for GPUs the devices ``jax_{cuda,rocm}_visible_devices`` name."""
    given = config.jax_pjrt_client_create_options
    options: dict[str, Any] = {}
    if isinstance(given, dict):
        options.update(given)
    elif given:
        for pair in given.split(";"):
            key_value = pair.split(":")
            if len(key_value) != 2:
                raise RuntimeError(f"Multiple ':' separators for option in jax_pjrt_client_create_options: "
                                   f"'{pair}'. Should be in format 'key:value'")
            options[key_value[0]] = key_value[1]
    visible = {"cuda": flags.cuda_visible_devices, "rocm": flags.rocm_visible_devices}.get(platform)
    if visible is not None and visible.value != "all":
        options["visible_devices"] = [int(i) for i in visible.value.split(",")]
    return options


def _known_platforms() -> list[str]:
    return ["cpu"] + [p for p in _GPU_PLATFORMS if _jaxlib.find_plugin_library(p)]


def _started() -> dict[str, Any]:
    """Every client, started on the first call."""
    if _clients:
        return _clients
    setting = config.jax_platforms
    known = _known_platforms()
    missing = []
    for platform in _requested_platforms(setting):
        if platform in known:
            _clients[platform] = _start_client(platform)
        elif platform in _GPU_PLATFORMS:
            missing.append(platform)  # a GPU platform without its plugin is passed over, as JAX does
        else:
            raise RuntimeError(f"Unable to initialize backend '{platform}': Backend '{platform}' is not in the list "
                               f"of known backends: {known}. (set JAX_PLATFORMS='' to automatically choose an "
                               "available backend)")
    if not _clients:
        raise RuntimeError(f"Unable to initialize backend '{missing[0]}': no PJRT plugin for it is installed (for "
                           "NVIDIA GPUs: `pip install jax-cuda12-plugin[with-cuda]`). (set JAX_PLATFORMS='' to "
                           "automatically choose an available backend)")
    return _clients


def _refuse_late_cpu_device_count(value: Any) -> None:
    if "cpu" in _clients:
        raise RuntimeError("jax_num_cpu_devices config should be updated before backends are initialized i.e. "
                           "before any JAX operation is executed. You should initialize this config immediately "
                           "after `import jax`.")


config.add_observer("jax_num_cpu_devices", _refuse_late_cpu_device_count)


def get_client(backend: Any = None) -> Any:
    """The client of ``backend`` (a platform name, a client, or None for the default platform)."""
    clients = _started()
    if backend is None:
        # jax_xla_backend (the older name) or jax_platform_name picks the default platform, as in JAX.
        backend = flags.xla_backend.value or flags.platform_name.value or None
        if backend is None:
            return next(iter(clients.values()))
    if not isinstance(backend, str):
        return backend
    if backend == "gpu":
        for platform in _GPU_PLATFORMS:
            if platform in clients:
                return clients[platform]
        raise RuntimeError("Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are "
                           f"present. Platforms present are: {','.join(clients)}")
    client = clients.get(backend)
    if client is None:
        raise RuntimeError(f"Unknown backend {backend}. Available backends are {list(clients)}")
    return client


def started_clients(start: bool = True) -> dict[str, Any]:
    """Every client by platform name, in priority order; starting them on first use unless ``start`` is False
    (then empty until something has started them)."""
    return dict(_started() if start else _clients)


def default_backend() -> str:
    """The platform name of the default backend (``'cpu'``, ``'gpu'``)."""
    platform = get_client().platform
    return "gpu" if platform in _GPU_PLATFORMS else platform


def devices(backend: Any = None) -> list[_jaxlib.Device]:
    """Every device of ``backend`` (a platform name; the default backend when None)."""
    return list(get_client(backend).devices())


def local_devices(process_index: int | None = None, backend: Any = None, host_id: int | None = None
                  ) -> list[_jaxlib.Device]:
    """The devices attached to this process (or to process ``process_index``)."""
    client = get_client(backend)
    index = client.process_index() if process_index is None else process_index
    if host_id is not None:
        index = host_id
    if not 0 <= index < process_count(backend):
        raise ValueError(f"Unknown process_index {index}")
    return [d for d in client.devices() if d.process_index == index]


def device_count(backend: Any = None) -> int:
    """The number of devices of ``backend``, over all processes."""
    return len(get_client(backend).devices())


def local_device_count(backend: Any = None) -> int:
    """The number of devices of ``backend`` attached to this process."""
    return len(_local_devices_of(get_client(backend)))


def process_index(backend: Any = None) -> int:
    """This process's index among the processes of a multi-process run (0 alone)."""
    return get_client(backend).process_index()


def process_count(backend: Any = None) -> int:
    """The number of processes of the run."""
    return max(d.process_index for d in get_client(backend).devices()) + 1


def process_indices(backend: Any = None) -> list[int]:
    """The indices of every process of the run."""
    return list(range(process_count(backend)))


def _renamed(new: Callable[..., Any], old_name: str) -> Callable[..., Any]:
    """JAX's older name for a process query: it warns, in JAX's words, then answers as ``new``."""

    @functools.wraps(new)
    def deprecated(backend: Any = None) -> Any:
        warnings.warn(f"jax.{old_name} has been renamed to jax.{new.__name__}. This alias will eventually be "
                      "removed; please update your code.", UserWarning, stacklevel=2)
        return new(backend)

    return deprecated


# JAX names the old functions after the new ones in its warnings ("jax.process_indexs" included).
host_id = _renamed(process_index, "process_index")
host_count = _renamed(process_count, "process_count")
host_ids = _renamed(process_indices, "process_indexs")


def default_device() -> _jaxlib.Device:
    """Where uncommitted work runs: ``jax_default_device`` when set (a device, or a platform's first device),
    else the first local device of the default backend."""
    chosen = config.jax_default_device
    if chosen is None:
        return _local_devices_of(get_client())[0]
    return platform_device(chosen) if isinstance(chosen, str) else chosen


def platform_device(backend: str) -> _jaxlib.Device:
    """The first local device of platform ``backend`` (``'cpu'``, ``'gpu'``...)."""
    return _local_devices_of(get_client(backend))[0]


def has_one_device() -> bool:
    """Whether the default backend has a single local device (the common case: no placement decisions)."""
    return len(_local_devices_of(get_client())) == 1


@functools.cache
def _local_devices_of(client: Any) -> tuple[_jaxlib.Device, ...]:
    return tuple(d for d in client.devices() if d.process_index == client.process_index())
