"""Lowering of the sorting primitives (being written)."""
