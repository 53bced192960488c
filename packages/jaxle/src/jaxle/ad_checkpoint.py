"""``jax.ad_checkpoint``: naming intermediate values for rematerialisation policies."""

from jaxle_core.checkpoint import checkpoint_name, checkpoint_policies

__all__ = ["checkpoint_name", "checkpoint_policies"]
