"""``jax.test_util``: numerical checks of derivatives against finite differences."""

from jaxle_core.test_util import check_grads, check_jvp, check_vjp

__all__ = ["check_grads", "check_jvp", "check_vjp"]
