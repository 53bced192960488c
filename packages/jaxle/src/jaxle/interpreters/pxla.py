"""``jax.interpreters.pxla``: the compile options XLA builds a partitioned program with
(``create_compile_options``), for a StableHLO module compiled by hand through a backend's ``compile_and_load``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_xla import _jaxlib
from jaxle_xla._jaxlib import xc

__all__ = ["create_compile_options"]

# JAX 0.10.2's defaults for what its configuration chooses (jaxle has no flags for them): the memory-fitting
# effort level O2 in XLA's numbering, and the number of operations from which XLA logs a compilation in detail.
_MEMORY_FITTING_O2 = 29
_DETAILED_LOGGING_MIN_OPS = 10


def create_compile_options(computation: Any, tuple_args: bool, allow_prop_to_inputs: Sequence[bool],
                           allow_prop_to_outputs: Sequence[bool], backend: Any, np_dev: np.ndarray,
                           compiler_options: dict[str, Any]) -> Any:
    """jaxlib's ``CompileOptions`` for ``computation`` (an MLIR module) partitioned by Shardy over the devices of
    ``np_dev`` (one partition each, in order, one replica): arguments passed as one tuple when ``tuple_args``,
    the partitioner free to choose the layouts of the parameters and results the ``allow_prop_to_*`` flags say,
    ``compiler_options`` as XLA option overrides (``fdo_profile`` as the profile to optimise with), and detailed
    logging for a module of at least ten operations. ``backend`` is the client it will be compiled by."""
    options = xc.CompileOptions()
    build = options.executable_build_options
    ids = [device.id for device in np.ravel(np_dev)]
    build.num_replicas, build.num_partitions = 1, len(ids)
    build.device_assignment = xc.DeviceAssignment.create(np.array([ids]))
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = True
    build.memory_fitting_level = _MEMORY_FITTING_O2
    build.allow_spmd_sharding_propagation_to_parameters = list(allow_prop_to_inputs)
    build.allow_spmd_sharding_propagation_to_output = list(allow_prop_to_outputs)
    overrides = dict(compiler_options)
    fdo_profile = overrides.pop("fdo_profile", None)
    if fdo_profile is not None:
        build.fdo_profile = fdo_profile
    build.debug_options.xla_detailed_logging = _jaxlib.operation_count(computation) >= _DETAILED_LOGGING_MIN_OPS
    options.parameter_is_tupled_arguments = tuple_args
    options.env_option_overrides = list(overrides.items())
    options.profile_version = -1  # no profile version configured
    return options

