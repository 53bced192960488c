"""``jax.tree_util``: jaxle-tree's namespace."""

from jaxle_tree import *  # noqa: F403
