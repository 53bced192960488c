"""``jax.ad_checkpoint``: naming intermediate values for rematerialisation policies, and what a policy answers."""

from jaxle_core.checkpoint import Offloadable, Recompute, Saveable, checkpoint_name, checkpoint_policies

__all__ = ["Offloadable", "Recompute", "Saveable", "checkpoint_name", "checkpoint_policies"]
