"""Lowering of the windowed primitives (being written)."""
