"""``jax.experimental.key_reuse``: no public names, as in JAX 0.10.2 (``jax_debug_key_reuse`` turns the checker on;
its static check of a function or jaxpr lives in ``_core``)."""
