"""Golden records of JAX 0.10.2's reductions over named axes: under ``vmap(..., axis_name='i')`` a reduction given
``axis='i'`` (or a tuple mixing names and positions) is a collective over the mapped axis (``psum``, ``pmax``,
``pmin``; ``mean``/``var`` divide by the axis size), unbound outside it (NameError), NotImplementedError for the
reductions with none (``prod``, ``all``, ``any``), and operator.index's TypeError for functions taking positional
axes only. Each case takes the traced ``x`` (2x3); the record is the jaxpr and values, or the error.

Run with JAX's environment:
/work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_named_reductions_golden.py jax
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
from jnp_golden import write

X = np.arange(6.0, dtype=np.float32).reshape(2, 3) - 2.0


def _special(jnp: Any) -> Any:
    """``scipy.special`` beside the ``numpy`` module ``jnp`` (``jax.scipy.special``, ``jaxle_numpy.scipy.special``)."""
    name = jnp.__name__
    return importlib.import_module(f"{name.removesuffix('.numpy')}.scipy.special")


_REDUCTIONS: dict[str, Callable[[Any], Callable]] = {
    "sum": lambda jnp: jnp.sum,
    "max": lambda jnp: jnp.max,
    "min": lambda jnp: jnp.min,
    "mean": lambda jnp: jnp.mean,
    "var": lambda jnp: jnp.var,
    "std": lambda jnp: jnp.std,
    "nansum": lambda jnp: jnp.nansum,
    "nanmean": lambda jnp: jnp.nanmean,
    "nanvar": lambda jnp: jnp.nanvar,
    "ptp": lambda jnp: jnp.ptp,
    "count_nonzero": lambda jnp: jnp.count_nonzero,
    "logsumexp": lambda jnp: _special(jnp).logsumexp,
    "prod": lambda jnp: jnp.prod,
    "all": lambda jnp: jnp.all,
    "any": lambda jnp: jnp.any,
    "nanmax": lambda jnp: jnp.nanmax,
    "nanprod": lambda jnp: jnp.nanprod,
    "argmax": lambda jnp: jnp.argmax,
    "cumsum": lambda jnp: jnp.cumsum,
    "median": lambda jnp: jnp.median,
    "average": lambda jnp: jnp.average,
}


def _mapped(reduction: Callable[[Any], Callable], axis: Any, **options: Any) -> Callable:
    def build(m: Any) -> tuple[Callable, list]:
        fn = reduction(m.numpy)
        return (lambda x: m.vmap(lambda r: fn(r, axis=axis, **options), axis_name="i")(x)), [X]
    return build


def _unbound(reduction: Callable[[Any], Callable]) -> Callable:
    def build(m: Any) -> tuple[Callable, list]:
        fn = reduction(m.numpy)
        return (lambda x: fn(x, axis="i")), [X]
    return build


CASES: dict[str, Callable] = {}
for _name, _reduction in _REDUCTIONS.items():
    CASES[f"{_name}_vmap"] = _mapped(_reduction, "i")
    CASES[f"{_name}_vmap_name_and_position"] = _mapped(_reduction, ("i", 0))
    CASES[f"{_name}_unbound"] = _unbound(_reduction)
CASES.update({
    "sum_vmap_keepdims": _mapped(_REDUCTIONS["sum"], "i", keepdims=True),
    "sum_vmap_initial": _mapped(_REDUCTIONS["sum"], "i", initial=1.0),
    "sum_vmap_dtype": _mapped(_REDUCTIONS["sum"], "i", dtype=np.int32),
    "max_vmap_initial": _mapped(_REDUCTIONS["max"], "i", initial=1.0),
    "mean_vmap_keepdims": _mapped(_REDUCTIONS["mean"], "i", keepdims=True),
    "sum_vmap_other_name": _mapped(_REDUCTIONS["sum"], "j"),
    "sum_axis_float": lambda m: ((lambda x: m.numpy.sum(x, axis=1.0)), [X]),
    "median_axis_float": lambda m: ((lambda x: m.numpy.median(x, axis=1.5)), [X]),
})

if __name__ == "__main__":
    write(CASES, "named_reductions_golden.json")
