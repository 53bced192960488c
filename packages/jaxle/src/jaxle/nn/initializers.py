"""``jax.nn.initializers`` (placeholder replaced below)."""
