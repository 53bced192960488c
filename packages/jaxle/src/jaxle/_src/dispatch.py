"""Compatibility shim for ``jax._src.dispatch`` (see ``jaxle._src``): importable, as equinox imports it, and
exposing none of JAX's dispatch internals (equinox looks ``wait_for_tokens`` up and does without it).

jaxle runs effects in program order without runtime tokens, so there are none to wait for.
"""

__all__: list[str] = []
