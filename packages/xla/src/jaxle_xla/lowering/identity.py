"""Lowering of the identity primitives (being written)."""
