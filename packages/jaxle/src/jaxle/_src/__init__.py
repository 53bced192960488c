"""Compatibility shims for the private ``jax._src`` modules that some libraries import at import time.

Under ``jaxle.compat.install_as_jax()``, ``import jax._src.compiler`` imports ``jaxle._src.compiler``. Each shim
exposes only the few names those libraries use, mapped onto jaxle's machinery; they are not an API of jaxle.

- ``compiler.backend_compile_and_load(backend, module, device, host_callbacks)``: compiles a program; replacing
  the attribute (as chex's ``restrict_backends`` does) wraps every compilation jaxle makes.
- ``xla_bridge._backends``: the XLA clients started so far, by platform (empty before the first computation).
- ``flatten_util.ravel_pytree``: ``jax.flatten_util.ravel_pytree``.
- ``traceback_util.register_exclusion(path)``, ``traceback_util.include_frame(frame)``: the files a library leaves
  out of the tracebacks it shows.
- ``core.trace_state_clean()``: whether no transformation is running.
- ``dtypes.TypePromotionError``; ``dispatch``: importable, with none of JAX's dispatch internals.
"""

# Imported with the package: libraries read ``jax._src.xla_bridge._backends`` as attributes, as JAX imports these
# modules itself.
from jaxle._src import compiler, core, dispatch, dtypes, flatten_util, traceback_util, xla_bridge  # noqa: E402

__all__ = ["compiler", "core", "dispatch", "dtypes", "flatten_util", "traceback_util", "xla_bridge"]
