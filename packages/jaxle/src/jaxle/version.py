"""``jax.version``: the version numbers.

``jaxle`` stands for ``jax`` (``import jaxle as jax``, or ``import jax`` under ``jaxle.compat.install_as_jax()``),
and libraries gate features on ``jax.__version__``/``jax.__version_info__``; so those give the version of JAX whose
API jaxle implements, as ``sys.version_info`` gives the language version on every Python implementation.
jaxle's own release, the version of the ``jaxle`` distribution, is ``jaxle_version``.
"""

__all__ = ["__version__", "__version_info__", "jaxle_version", "jaxle_version_info"]

__version__ = "0.10.2"
__version_info__ = tuple(int(part) for part in __version__.split("."))

jaxle_version = "0.1.0"
jaxle_version_info = tuple(int(part) for part in jaxle_version.split("."))
