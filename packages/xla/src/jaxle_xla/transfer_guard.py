"""``jax_transfer_guard`` for host-to-device transfers.

A transfer is *implicit* when a host value (a NumPy array, a Python scalar) becomes a device array because an
operation or a jitted function was given it, and *explicit* when ``device_put`` is asked for it. The guard level of
host-to-device transfers (``jax_transfer_guard_host_to_device``, else ``jax_transfer_guard``) decides: ``allow``;
``log`` / ``disallow`` log or refuse implicit transfers; ``log_explicit`` / ``disallow_explicit`` explicit ones too.
A refusal is JAX's ``JaxRuntimeError`` (``INVALID_ARGUMENT: Disallowed host-to-device transfer: ...``). As on JAX's
CPU backend, reading arrays back to the host is never refused here (device-to-host and device-to-device guards
are not applied).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from typing import Any

from jaxle_core.config import config
from jaxle_xla import _jaxlib

__all__ = ["armed", "check_host_to_device", "explicit_transfers"]

_logger = logging.getLogger(__name__)

# False until a guard flag is first set (globally or in a block): until then transfers skip the check with one
# module attribute read.
armed = False


def _arm(value: Any) -> None:
    global armed
    armed = armed or value is not None


for _name in ("jax_transfer_guard", "jax_transfer_guard_host_to_device"):
    config.add_observer(_name, _arm)
    _arm(getattr(config, _name))


class _Explicit(threading.local):
    depth = 0


_explicit = _Explicit()


@contextlib.contextmanager
def explicit_transfers() -> Iterator[None]:
    """Within the block, transfers are explicit (``device_put``)."""
    _explicit.depth += 1
    try:
        yield
    finally:
        _explicit.depth -= 1


def check_host_to_device(aval: Any, device: Any) -> None:
    """Log or refuse the transfer of a host value of ``aval`` to ``device``, as the guard level says."""
    level = config.jax_transfer_guard_host_to_device or config.jax_transfer_guard
    if level is None or level == "allow" or (_explicit.depth and not level.endswith("_explicit")):
        return
    message = f"host-to-device transfer: aval={aval!r}, dst_sharding={_jaxlib.sharding_for(device)!r}"
    if level.startswith("log"):
        _logger.warning(message)
    else:
        raise _jaxlib.XlaRuntimeError(f"INVALID_ARGUMENT: Disallowed {message}")
