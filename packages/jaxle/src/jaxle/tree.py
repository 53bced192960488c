"""``jax.tree``: the pytree functions under short names (``map``, ``leaves``, ``flatten``, ...)."""

from jaxle_tree.tree import (
    all,
    broadcast,
    flatten,
    flatten_with_path,
    leaves,
    leaves_with_path,
    map,
    map_with_path,
    reduce,
    reduce_associative,
    static,
    structure,
    transpose,
    unflatten,
)

__all__ = ["all", "broadcast", "flatten", "flatten_with_path", "leaves", "leaves_with_path", "map", "map_with_path",
           "reduce", "reduce_associative", "static", "structure", "transpose", "unflatten"]
