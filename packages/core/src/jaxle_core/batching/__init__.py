"""Batching: the ``vmap`` interpreter and the batching rule of each primitive, one module per primitive family."""

# Importing a rule module registers its rules: those of the lax families, of control flow, then of the
# primitives defined outside lax (kept apart as three groups).
from jaxle_core.batching import (  # noqa: F401
    approx_top_k,
    barriers,
    condensed_forms,
    convolution,
    cumulative,
    dot,
    eigen,
    elementwise,
    factorizations,
    fft,
    householder,
    identity,
    matrix_solves,
    parallel,
    placement,
    ragged_dot,
    random_bits,
    reductions,
    refs,
    scaled_dot,
    schur,
    slicing,
    sorting,
    special,
    structural,
    svd,
    symmetric_product,
    windowed,
)

# isort: split
from jaxle_core.batching import conditionals, scan, solves, while_loops  # noqa: F401

# isort: split
from jaxle_core.batching import (  # noqa: F401
    ad,
    callbacks,
    checkpoint,
    closed_call,
    compute_on,
    custom_batching,
    custom_derivatives,
    debugging,
    ffi,
    jit,
    layout_constraints,
    shard_map,
)
from jaxle_core.batching.api import vmap
from jaxle_core.batching.trace import BatchTrace, BatchTracer, batching_rules

__all__ = ["BatchTrace", "BatchTracer", "batching_rules", "vmap"]
