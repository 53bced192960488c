"""``jax.example_libraries``: the small neural-network (``stax``) and optimizer (``optimizers``) libraries JAX ships
as examples of building on its transformations."""

from jaxle.example_libraries import optimizers, stax

__all__ = ["optimizers", "stax"]
