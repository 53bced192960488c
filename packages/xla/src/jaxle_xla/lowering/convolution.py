"""Lowering of the convolution primitives (being written)."""
