"""``jax.ad_checkpoint``: naming intermediate values for rematerialisation policies, what a policy answers, and
which values differentiation saves."""

from jaxle_core.checkpoint import Offloadable, Recompute, Saveable, checkpoint_name, checkpoint_policies
from jaxle_core.saved_residuals import print_saved_residuals

__all__ = ["Offloadable", "Recompute", "Saveable", "checkpoint_name", "checkpoint_policies", "print_saved_residuals"]
