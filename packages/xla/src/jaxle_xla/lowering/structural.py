"""Lowering of the structural primitives (being written)."""
