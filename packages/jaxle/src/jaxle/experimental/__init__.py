"""``jax.experimental``: ``io_callback``, arrays of extended dtypes (``EArray``), ``primal_tangent_dtype`` and
``cur_qdd``."""

from jaxle_core.callbacks import io_callback
from jaxle_core.core import cur_qdd
from jaxle_core.extended import ExtendedArray as EArray
from jaxle_core.primal_tangent import primal_tangent_dtype

__all__ = ["EArray", "cur_qdd", "io_callback", "primal_tangent_dtype"]
