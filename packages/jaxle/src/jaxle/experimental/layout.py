"""``jax.experimental.layout``: arrays' layouts in memory (``Layout``), with their shardings (``Format``), and
constraints on a value's layout inside a program (``with_layout_constraint``)."""

from jaxle_core.lax.layout_constraints import with_layout_constraint
from jaxle_core.layout import Format, Layout

__all__ = ["Format", "Layout", "with_layout_constraint"]
