"""``jax.experimental``: ``io_callback``, arrays of extended dtypes (``EArray``), ``primal_tangent_dtype`` and
``cur_qdd``; the persistent ``compilation_cache``."""

from jaxle.experimental import compilation_cache
from jaxle_core.callbacks import io_callback
from jaxle_core.core import cur_qdd
from jaxle_core.extended import ExtendedArray as EArray
from jaxle_core.primal_tangent import primal_tangent_dtype

__all__ = ["EArray", "compilation_cache", "cur_qdd", "io_callback", "primal_tangent_dtype"]
