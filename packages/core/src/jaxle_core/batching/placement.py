"""Batching of ``stage`` and ``device_put``: the operands keep their batch dimensions."""

from __future__ import annotations

from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.placement import device_put_p, stage_p

batching_rules[stage_p] = lambda vals, dims: (stage_p.bind(vals[0]), dims[0])
batching_rules[device_put_p] = lambda vals, dims, **params: (device_put_p.bind(*vals, **params), list(dims))
