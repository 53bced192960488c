"""Batching: the ``vmap`` interpreter and the batching rule of each primitive."""

from jaxle_core.batching import (  # noqa: F401  (registers the rules)
    barriers,
    call_rules,
    collective_rules,
    cond_rules,
    custom_rules,
    elementwise_rules,
    fft_rules,
    indexing_rules,
    numeric_rules,
    placement,
    random_bits,
    scan_rules,
    solve_rules,
    structural_rules,
    while_rules,
)
from jaxle_core.batching.api import vmap
from jaxle_core.batching.trace import BatchTrace, BatchTracer, batching_rules

__all__ = ["BatchTrace", "BatchTracer", "batching_rules", "vmap"]
