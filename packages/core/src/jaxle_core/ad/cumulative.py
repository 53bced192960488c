"""Derivative rules of the cumulative reductions (``lax/cumulative.py``): cumsum is linear and transposes to
the cumsum running the other way; cumprod, cummax, cummin and cumlogsumexp are differentiated as the
associative scan (a parallel prefix scan of lax operations) of ``mul``, ``max``, ``min`` and ``logaddexp``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxle_core import lax
from jaxle_core.ad.jvp import instantiate, jvp, jvp_rules
from jaxle_core.ad.rule_helpers import deflinear
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.lax.control_flow.associative_scan import associative_scan
from jaxle_core.lax.cumulative import cumlogsumexp_p, cummax_p, cummin_p, cumprod_p, cumsum_p
from jaxle_core.lax.logaddexp import logaddexp

deflinear(cumsum_p)


_SCAN_COMBINE: dict[Any, Callable] = {
    cumprod_p: lax.mul,
    cummax_p: lax.max,
    cummin_p: lax.min,
    cumlogsumexp_p: logaddexp,
}


def _cumulative_jvp(combine: Callable) -> Callable:
    """A running reduction differentiated as the associative scan of ``combine`` it equals (built from lax
    operations, unlike the reduction's own windowed lowering)."""

    def rule(primals, tangents, *, axis, reverse):
        def scan(x):
            return associative_scan(combine, x, reverse=reverse, axis=axis)

        return jvp(scan, (primals[0],), (instantiate(tangents[0]),))

    return rule


for _p, _combine in _SCAN_COMBINE.items():
    jvp_rules[_p] = _cumulative_jvp(_combine)


transpose_rules[cumsum_p] = lambda ct, x, *, axis, reverse: [cumsum_p.bind(ct, axis=axis, reverse=not reverse)]
