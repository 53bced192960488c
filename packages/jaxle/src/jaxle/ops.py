"""``jax.ops``: segment reductions (jaxle-numpy's ``jaxle_numpy.ops``)."""

from jaxle_numpy.ops import segment_max, segment_min, segment_prod, segment_sum

__all__ = ["segment_max", "segment_min", "segment_prod", "segment_sum"]
