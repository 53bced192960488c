"""Lowering of the special primitives (being written)."""
