"""``jax.dtypes``: dtype queries and JAX's extra scalar types."""

from ml_dtypes import bfloat16  # the scalar type, as JAX's (core's dtypes.bfloat16 is its dtype)

from jaxle_core.dtypes import (
    TypePromotionError,
    canonicalize_dtype,
    extended,
    finfo,
    float0,
    iinfo,
    issubdtype,
    itemsize_bits,
    prng_key,
    result_type,
    scalar_type_of,
)

__all__ = ["TypePromotionError", "bfloat16", "canonicalize_dtype", "extended", "finfo", "float0", "iinfo",
           "issubdtype", "itemsize_bits", "prng_key", "result_type", "scalar_type_of"]
