"""Batching of ``add_any``, the sum of tangents that AD introduces: an elementwise rule."""

from __future__ import annotations

from jaxle_core.ad.jvp import add_any_p
from jaxle_core.batching.rule_helpers import register_elementwise

register_elementwise([add_any_p])
