"""``jax.experimental.pjit``: the former home of ``pjit``, which JAX 0.10.2 still serves with a deprecation warning
(use ``jaxle.jit``). ``pjit`` is ``jit`` over the mesh of the innermost ``with mesh:`` (none outside one, whatever
``set_mesh`` says): its PartitionSpecs name that mesh's axes, and its function is traced and run over it."""

import functools
import warnings
from collections.abc import Callable
from typing import Any

from jaxle_core.jit import JitWrapped, make_jit
from jaxle_core.mesh import resource_env_meshes

__all__: list[str] = []


class _PjitWrapped(JitWrapped):
    """A function staged out by ``pjit``: traced, lowered and called with the mesh of ``with mesh:`` as the only mesh
    in context."""

    api_name = "pjit"

    def call_entry(self, args: tuple, kwargs: dict) -> tuple[Any, Any]:
        with resource_env_meshes():
            return super().call_entry(args, kwargs)

    def trace(self, *args: Any, **kwargs: Any) -> Any:
        with resource_env_meshes():
            return super().trace(*args, **kwargs)


def _pjit(fun: Callable, in_shardings: Any = None, out_shardings: Any = None, static_argnums: Any = None,
          static_argnames: Any = None, donate_argnums: Any = None, donate_argnames: Any = None,
          keep_unused: bool = False, device: Any = None, backend: Any = None, inline: bool = False,
          compiler_options: dict[str, Any] | None = None) -> Callable:
    """`jax.experimental.pjit.pjit` has been deprecated. Please use `jax.jit`."""
    return make_jit(_PjitWrapped, fun, in_shardings=in_shardings, out_shardings=out_shardings,
                    static_argnums=() if static_argnums is None else static_argnums,
                    static_argnames=() if static_argnames is None else static_argnames,
                    donate_argnums=() if donate_argnums is None else donate_argnums,
                    donate_argnames=() if donate_argnames is None else donate_argnames,
                    keep_unused=keep_unused, inline=inline, device=device, backend=backend,
                    compiler_options=compiler_options)


_pjit.__name__ = _pjit.__qualname__ = "pjit"

_DEPRECATED = {"pjit": ("jax.experimental.pjit.pjit has been deprecated. Please use `jax.jit` instead.", _pjit)}


@functools.cache
def __getattr__(name: str) -> Any:
    # as JAX's, only the first use of a deprecated name warns
    if name in _DEPRECATED:
        message, value = _DEPRECATED[name]
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
