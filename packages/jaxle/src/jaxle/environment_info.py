"""``print_environment_info``: the versions and devices to quote in a bug report."""

from __future__ import annotations

import importlib.metadata
import platform
import sys

import numpy as np

import jaxle_xla
from jaxle.version import __version__, jaxle_version

__all__ = ["print_environment_info"]

_PACKAGES = ("jaxle-tree", "jaxle-core", "jaxle-xla", "jaxle-numpy", "jaxle-random", "jaxlib")


def _installed_version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed as a distribution"


def print_environment_info(return_string: bool = False) -> str | None:
    """Print (or, with ``return_string``, return) the versions of jaxle's packages, Python and the devices."""
    lines = [f"jaxle: {jaxle_version} (the API of jax {__version__})"]
    lines += [f"{name}: {_installed_version(name)}" for name in _PACKAGES]
    lines += [f"numpy: {np.__version__}",
              f"python: {sys.version}",
              f"device info: {jaxle_xla.default_backend()}-{jaxle_xla.device_count()}, "
              f"{jaxle_xla.local_device_count()} local devices",
              f"process_count: {jaxle_xla.process_count()}",
              f"platform: {platform.uname()}"]
    text = "\n".join(lines) + "\n"
    if return_string:
        return text
    print(text)
    return None
