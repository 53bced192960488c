"""Lowering of the reductions primitives (being written)."""
