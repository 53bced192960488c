"""``jax.interpreters``: the registration tables of jaxle's interpreters, for primitives defined by libraries.

``ad`` (derivative and transpose rules), ``batching`` (vmap rules), ``partial_eval`` (tracing wrapped functions
to jaxprs), ``mlir`` (lowering rules), ``pxla`` (the compile options of a partitioned program) and ``xla``
(running one primitive). The tables are jaxle's own: a rule registered here is the rule jaxle's ``jvp``/``grad``,
``vmap`` and ``jit`` use.
"""

from jaxle.interpreters import ad, batching, mlir, partial_eval, pxla, xla

__all__ = ["ad", "batching", "mlir", "partial_eval", "pxla", "xla"]
