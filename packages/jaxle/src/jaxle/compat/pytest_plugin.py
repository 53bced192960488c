"""A pytest plugin that runs a test suite written for JAX on jaxle: ``pytest -p jaxle.compat.pytest_plugin``.

Loading the plugin calls ``install_as_jax()`` before pytest collects (imports) any test module, in the main process
and in every pytest-xdist worker (each worker loads the plugins named on the command line).
"""

from jaxle.compat import install_as_jax

__all__: list[str] = []

install_as_jax()
