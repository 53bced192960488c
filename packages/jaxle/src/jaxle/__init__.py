"""jaxle: JAX's public API over jaxle's layers. ``import jaxle as jax``; importing it makes XLA the backend.

The top level gathers the transformations (jaxle-core), the devices and transfers (jaxle-xla), the configuration
object and its context managers, and the submodules JAX has (``jaxle.numpy``, ``jaxle.lax``, ``jaxle.random``,
``jaxle.tree``, ``jaxle.tree_util``, ...). Each name lives in the lowest layer that can implement it; this package
only re-exports.
"""

import types as _types

import jaxle_xla  # noqa: E402, F401  (importing the bridge registers XLA as the default backend)

# JAX's submodules: this package's thin modules over the layers (jaxle.lax, jaxle.dtypes, ... not core's modules).
from jaxle import (  # noqa: E402, F401
    ad_checkpoint,
    api_util,
    core,
    custom_batching,
    custom_derivatives,
    debug,
    distributed,
    dlpack,
    dtypes,
    errors,
    experimental,
    export,
    extend,
    ffi,
    flatten_util,
    image,
    interpreters,
    lax,
    lib,
    monitoring,
    nn,
    numpy,
    ops,
    profiler,
    random,
    ref,
    scipy,
    sharding,
    stages,
    test_util,
    tree,
    tree_util,
    typing,
    version,
)
from jaxle.environment_info import print_environment_info  # noqa: E402, F401
from jaxle.memory_spaces import memory  # noqa: E402, F401
from jaxle.version import __version__, __version_info__  # noqa: E402, F401  (JAX's API version; see jaxle.version)
from jaxle_core import (  # noqa: E402, F401
    ShapeDtypeStruct,
    block_until_ready,
    checkpoint,
    checkpoint_policies,
    clear_caches,
    closure_convert,
    copy_to_host_async,
    custom_gradient,
    custom_jvp,
    custom_vjp,
    disable_jit,
    ensure_compile_time_eval,
    eval_shape,
    fwd_and_bwd,
    grad,
    hessian,
    jacfwd,
    jacrev,
    jit,
    jvp,
    linear_transpose,
    linearize,
    make_jaxpr,
    named_call,
    named_scope,
    pmap,
    pure_callback,
    remat,
    shard_map,
    smap,
    typeof,
    value_and_grad,
    vjp,
    vmap,
)
from jaxle_core.ad import jacrev as jacobian  # noqa: E402, F401  (JAX's alias)
from jaxle_core.ad import reverse as _reverse  # noqa: E402
from jaxle_core.config import (  # noqa: E402, F401  # noqa: E402, F401
    allow_f16_reductions,
    array_garbage_collection_guard,
    auto_pcast,
    check_tracer_leaks,
    checking_leaks,
    config,
    debug_infs,
    debug_key_reuse,
    debug_nans,
    default_device,
    default_matmul_precision,
    default_prng_impl,
    enable_checks,
    enable_custom_prng,
    enable_x64,
    explain_cache_misses,
    jax2tf_associative_scan_reductions,
    legacy_prng_key,
    log_compiles,
    make_user_context,
    no_execution,
    no_tracing,
    numpy_dtype_promotion,
    numpy_rank_promotion,
    remove_size_one_mesh_axis_from_type,
    softmax_custom_jvp,
    thread_guard,
    threefry_partitionable,
    transfer_guard,
    transfer_guard_device_to_device,
    transfer_guard_device_to_host,
    transfer_guard_host_to_device,
)
from jaxle_core.dtypes import float0  # noqa: E402, F401
from jaxle_core.lax.placement import reshard  # noqa: E402, F401
from jaxle_core.lax.refs import Ref, ds, empty_ref, free_ref, freeze, new_ref  # noqa: E402, F401
from jaxle_core.mesh import PartitionSpec as P  # noqa: E402, F401
from jaxle_core.mesh import set_mesh  # noqa: E402, F401
from jaxle_core.sharding import NamedSharding  # noqa: E402, F401

# ``jax.Array`` is ``jnp.ndarray``: concrete arrays and, as JAX's ``isinstance(x, jax.Array)`` says, traced values
from jaxle_numpy import ndarray as Array  # noqa: E402, F401
from jaxle_xla.api import *  # noqa: E402, F401, F403  (the devices and transfers, listed once in jaxle_xla.api)
from jaxle_xla.make_array import (  # noqa: E402, F401
    make_array_from_callback,
    make_array_from_process_local_data,
    make_array_from_single_device_arrays,
)
from jaxle_xla.sharded_array import Shard  # noqa: E402, F401
from jaxle_xla.sharding import make_mesh  # noqa: E402, F401

# Kept from JAX's older API (JAX 0.10.2 has removed them), each warning with its replacement.
from jaxle_xla.stacked_placement import device_put_replicated, device_put_sharded  # noqa: E402, F401
from jaxle_xla.xla_computation import xla_computation  # noqa: E402, F401

# The markers of vjp's ``with_refs`` (a namespace, as in JAX).
ad = _types.SimpleNamespace(DontWant=_reverse.DontWant, DidntWant=_reverse.DidntWant, GradRef=_reverse.GradRef,
                            GradValue=_reverse.GradValue)
