"""Lowering of the dot primitives (being written)."""
