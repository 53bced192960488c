"""jaxle-core: dtypes, abstract values, tracing, the jaxpr IR, lax primitives and a NumPy reference backend."""

__version__ = "0.1.0"

from jaxle_core import (  # noqa: E402, F401 (the sharding_rules modules and unreduced_types install the rules)
    auto_mesh_types,
    dtypes,
    errors,
    lax,
    logging_config,
    sharding_rules,
    sharding_rules_indexing,
    sharding_rules_linalg,
    unreduced_types,
)
from jaxle_core.ad import (  # noqa: E402
    fwd_and_bwd,
    grad,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linear_transpose,
    linearize,
    value_and_grad,
    vjp,
)
from jaxle_core.api import (  # noqa: E402
    block_until_ready,
    copy_to_host_async,
    disable_jit,
    ensure_compile_time_eval,
    eval_shape,
    make_jaxpr,
    named_call,
    named_scope,
)
from jaxle_core.array import Array  # noqa: E402
from jaxle_core.avals import ShapedArray, ShapeDtypeStruct  # noqa: E402
from jaxle_core.batching import vmap  # noqa: E402
from jaxle_core.caches import clear_caches  # noqa: E402
from jaxle_core.callbacks import pure_callback  # noqa: E402
from jaxle_core.checkpoint import checkpoint, checkpoint_name, checkpoint_policies, remat  # noqa: E402
from jaxle_core.core import ClosedJaxpr, Jaxpr, typeof  # noqa: E402
from jaxle_core.custom_derivatives import closure_convert, custom_gradient, custom_jvp, custom_vjp  # noqa: E402
from jaxle_core.jit import jit  # noqa: E402
from jaxle_core.pmap import pmap  # noqa: E402
from jaxle_core.shard_map import shard_map, smap  # noqa: E402

__all__ = ["Array", "ClosedJaxpr", "Jaxpr", "ShapeDtypeStruct", "ShapedArray", "block_until_ready", "checkpoint",
           "checkpoint_name", "checkpoint_policies", "clear_caches", "closure_convert", "copy_to_host_async",
           "custom_gradient", "custom_jvp", "custom_vjp", "disable_jit", "dtypes", "ensure_compile_time_eval",
           "errors", "eval_shape", "fwd_and_bwd", "grad", "hessian", "jacfwd", "jacrev", "jit", "jvp", "lax",
           "linear_transpose", "linearize", "make_jaxpr", "named_call", "named_scope", "pmap", "pure_callback",
           "remat", "shard_map", "smap", "typeof", "value_and_grad", "vjp", "vmap"]
