"""``jax.lib``: jaxlib's internals. JAX 0.10.2 exposes no public name here; the module exists so that programs
importing it run."""

__all__: list[str] = []
