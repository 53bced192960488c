"""Lowering of the slicing primitives (being written)."""
