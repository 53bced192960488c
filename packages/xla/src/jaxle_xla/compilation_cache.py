"""The persistent compilation cache: compiled XLA executables saved to ``jax_compilation_cache_dir`` so that
another process compiling the same program loads it instead of running XLA's compiler again.

An entry is the executable serialized by jaxlib, compressed with zlib, in a file named
``<module name>-<key>-cache``; the key hashes what decides the compiled code: the StableHLO module text, the
compile options, the XLA flags, the jaxlib and jaxle versions, the platform version and the device kind. Files are
written to a temporary name and renamed, so processes sharing a directory never read half an entry.

Like JAX's, the cache is trusted: loading an executable may run code, so share a directory only with trusted users.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
import time
import zlib
from collections.abc import Callable
from typing import Any

from jaxle_core import config, monitoring

__all__ = ["compile_or_load", "is_initialized", "reset_cache", "set_cache_dir"]

_logger = logging.getLogger(__name__)

_MODULE_NAME = re.compile(r"module @([\w.$-]+)")
_AUTOTUNE_DIR = "xla_gpu_per_fusion_autotune_cache_dir"

# The directory the cache was first used with in this process (None: not used yet, or reset).
_initialized_dir: str | None = None


def set_cache_dir(path: str) -> None:
    """Save compiled programs to ``path`` and look them up there before compiling (``jax_compilation_cache_dir``).

    The cache is trusted: whoever can write to ``path`` can make this process run code of theirs."""
    config.config.update("jax_compilation_cache_dir", path)


def reset_cache() -> None:
    """Forget that the cache was initialized; the next compilation initializes it again (entries stay on disk)."""
    global _initialized_dir
    _initialized_dir = None


def is_initialized() -> bool:
    """Whether a compilation has used the persistent cache since the process started (or ``reset_cache``)."""
    return _initialized_dir is not None


def _cache_dir() -> str | None:
    if not config.enable_compilation_cache.value:
        return None
    return config.compilation_cache_dir.value or None


def _initialize(directory: str) -> None:
    global _initialized_dir
    if _initialized_dir == directory:
        return
    if _initialized_dir is None:
        monitoring.record_event("/jax/compilation_cache/tasks_using_cache")
    os.makedirs(directory, exist_ok=True)
    _initialized_dir = directory
    _logger.debug("Initialized persistent compilation cache at %s", directory)


def _versions(client: Any, devices: Any) -> bytes:
    import jaxlib.version

    from jaxle_xla import __version__ as jaxle_version

    kinds = ",".join(sorted({d.device_kind for d in devices}))
    return "|".join([jaxlib.version.__version__, jaxle_version, client.platform, client.platform_version, kinds,
                     os.environ.get("XLA_FLAGS", "")]).encode()


def _key(module_text: str, options: Any, client: Any, devices: Any) -> str:
    digest = hashlib.sha256()
    for part in (module_text.encode(), options.SerializeAsString(), _versions(client, devices)):
        digest.update(hashlib.sha256(part).digest())
    match = _MODULE_NAME.search(module_text)
    return f"{match.group(1) if match else 'module'}-{digest.hexdigest()}"


def _enable_xla_caches(options: Any, directory: str, platform: str) -> None:
    """Point XLA's GPU autotuning cache into the cache directory, as ``jax_persistent_cache_enable_xla_caches``
    asks."""
    wanted = config.persistent_cache_enable_xla_caches.value
    if platform in ("cuda", "gpu", "rocm") and wanted in (_AUTOTUNE_DIR, "all"):
        debug = options.executable_build_options.debug_options
        debug.xla_gpu_per_fusion_autotune_cache_dir = os.path.join(directory, _AUTOTUNE_DIR)


def _failed(action: str, key: str, error: Exception) -> None:
    if config.raise_persistent_cache_errors.value:
        raise error
    _logger.warning("Error %s persistent compilation cache entry for '%s': %s: %s", action, key,
                    type(error).__name__, error)


def _read(path: str, key: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            data = zlib.decompress(f.read())
        os.utime(path)  # recently used: evicted last
        return data
    except FileNotFoundError:
        return None
    except (OSError, zlib.error) as error:
        _failed("reading", key, error)
        return None


def _write(directory: str, path: str, key: str, data: bytes) -> None:
    try:
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
        _evict(directory, keep=path)
    except OSError as error:
        _failed("writing", key, error)


def _evict(directory: str, keep: str) -> None:
    """Remove least recently used entries until the cache holds at most ``jax_compilation_cache_max_size`` bytes."""
    limit = config.compilation_cache_max_size.value
    if limit is None or limit < 0:
        return
    entries = []
    for entry in os.scandir(directory):
        if entry.name.endswith("-cache") and entry.is_file():
            stat = entry.stat()
            entries.append((stat.st_mtime, stat.st_size, entry.path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        if path != keep:
            os.remove(path)
            total -= size


def compile_or_load(client: Any, module_text: str, devices: Any, options: Any,
                    compile_fn: Callable[[], Any]) -> Any:
    """The executable of ``module_text`` for ``devices``: loaded from the persistent cache when it holds one, else
    ``compile_fn()`` (which compiles with ``options``), saved to the cache when it took long enough to compile."""
    directory = _cache_dir()
    if directory is None:
        return compile_fn()
    _initialize(directory)
    _enable_xla_caches(options, directory, client.platform)
    monitoring.record_event("/jax/compilation_cache/compile_requests_use_cache")
    key = _key(module_text, options, client, devices)
    path = os.path.join(directory, f"{key}-cache")
    level = logging.WARNING if config.log_compiles.value else logging.DEBUG
    module_name = key.rsplit("-", 1)[0]
    data = _read(path, key)
    if data is not None:
        try:
            loaded = client.deserialize_executable(data, devices, options)
        except Exception as error:  # a corrupt or incompatible entry: compile instead
            _failed("loading", key, error)
        else:
            _logger.log(level, "Persistent compilation cache hit for '%s' with key '%s'", module_name, key)
            monitoring.record_event("/jax/compilation_cache/cache_hits")
            return loaded
    _logger.log(level, "PERSISTENT COMPILATION CACHE MISS for '%s' with key '%s'", module_name, key)
    started = time.perf_counter()
    loaded = compile_fn()
    compile_time = time.perf_counter() - started
    monitoring.record_event("/jax/compilation_cache/cache_misses")
    min_time = config.persistent_cache_min_compile_time_secs.value or 0.0
    if compile_time < min_time:
        _logger.debug("Not writing persistent cache entry for '%s': compilation took %.3f s, less than %s s",
                      module_name, compile_time, min_time)
        return loaded
    serialized = zlib.compress(loaded.serialize())
    min_size = config.persistent_cache_min_entry_size_bytes.value or 0
    if len(serialized) < min_size:
        return loaded
    _logger.debug("Writing %s to persistent compilation cache with key '%s'", module_name, key)
    _write(directory, path, key, serialized)
    return loaded
