"""Derivative rules of the identity-like primitives (``lax/identity.py``): stop_gradient has derivative zero,
copy is linear and its own transpose.
"""

from __future__ import annotations

from jaxle_core.ad.rule_helpers import deflinear, defzero
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.lax.identity import copy_p, stop_gradient_p

defzero(stop_gradient_p)
deflinear(copy_p)
transpose_rules[copy_p] = lambda ct, x: [copy_p.bind(ct)]
