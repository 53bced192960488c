"""``jax.ref``: mutable array references (``Ref``), made with ``new_ref``, read and written by index."""

from jaxle_core.lax.refs import AbstractRef, Ref, addupdate, empty_ref, free_ref, freeze, get, new_ref, swap
from jaxle_core.lax.refs import ref_set as set  # noqa: A004 - jax.ref's name

__all__ = ["AbstractRef", "Ref", "addupdate", "empty_ref", "free_ref", "freeze", "get", "new_ref", "set", "swap"]
