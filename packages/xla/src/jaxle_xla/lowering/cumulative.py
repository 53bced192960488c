"""Lowering of the cumulative primitives (being written)."""
