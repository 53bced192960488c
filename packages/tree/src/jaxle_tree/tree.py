"""Short names for the pytree functions, mirroring the ``jax.tree`` module."""

from __future__ import annotations

import dataclasses
from typing import Any

from .api import tree_all as all
from .api import tree_broadcast as broadcast
from .api import tree_map as map
from .api import tree_map_with_path as map_with_path
from .api import tree_reduce as reduce
from .api import tree_reduce_associative as reduce_associative
from .api import tree_transpose as transpose
from .api import tree_unflatten as unflatten
from .flatten import tree_flatten as flatten
from .flatten import tree_flatten_with_path as flatten_with_path
from .flatten import tree_leaves as leaves
from .flatten import tree_leaves_with_path as leaves_with_path
from .flatten import tree_structure as structure

__all__ = [
    "all",
    "broadcast",
    "flatten",
    "flatten_with_path",
    "leaves",
    "leaves_with_path",
    "map",
    "map_with_path",
    "reduce",
    "reduce_associative",
    "static",
    "structure",
    "transpose",
    "unflatten",
]


def static(**kwargs: Any) -> Any:
    """A ``dataclasses.field`` marked static: ``register_dataclass`` keeps it in the treedef, not the leaves."""
    metadata = {**kwargs.pop("metadata", {}), "static": True}
    return dataclasses.field(metadata=metadata, **kwargs)
