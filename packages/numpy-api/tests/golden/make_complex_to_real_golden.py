"""Golden records of JAX 0.10.2's warnings (and errors) for complex values made arrays of a real dtype: fills
(``full``, ``full_like``, ``lax.full``) of Python, NumPy and jnp complex scalars, ``array``/``asarray`` of lists of
complex arrays, conversions of NumPy complex scalars, ``ones_like`` and friends of complex arrays (which warn not),
scatters, ``astype``, ranges (``linspace``, ``geomspace``, ``logspace``) with complex endpoints or base and a real
dtype, and complex values inserted, padded or filled into real arrays. Each case runs eagerly and then inside
``jit``; the record is what it gave ("ok" or the error's type and message) and the category and text of each
warning, in order.

Run with JAX's environment:
/work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_complex_to_real_golden.py jax
"""

from __future__ import annotations

import importlib
import json
import pathlib
import re
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

HERE = pathlib.Path(__file__).parent


def _xc(jnp: Any) -> Any:
    return jnp.ones(2, jnp.complex64)


CALLS: dict[str, Callable[[Any], Any]] = {
    "full_python": lambda m: m.numpy.full((2,), 1 + 2j, dtype=m.numpy.float32),
    "full_python_int": lambda m: m.numpy.full((2,), 1 + 2j, dtype=m.numpy.int32),
    "full_numpy_scalar": lambda m: m.numpy.full((2,), np.complex64(1 + 2j), dtype=m.numpy.float32),
    "full_numpy_array": lambda m: m.numpy.full((2,), np.array(1 + 2j), dtype=m.numpy.float32),
    "full_array_scalar": lambda m: m.numpy.full((2,), m.numpy.array(1j), dtype=m.numpy.float32),
    "full_array": lambda m: m.numpy.full((2,), _xc(m.numpy), dtype=m.numpy.float32),
    "full_like_python": lambda m: m.numpy.full_like(m.numpy.ones(2), 1 + 2j),
    "full_like_dtype": lambda m: m.numpy.full_like(_xc(m.numpy), 1 + 2j, dtype=m.numpy.float32),
    "full_like_array": lambda m: m.numpy.full_like(m.numpy.ones(2), _xc(m.numpy)),
    "lax_full_python": lambda m: m.lax.full((2,), 1 + 2j, m.numpy.float32),
    "lax_full_numpy_scalar": lambda m: m.lax.full((2,), np.complex64(1 + 2j), m.numpy.float32),
    "lax_full_like": lambda m: m.lax.full_like(m.numpy.ones(2), np.complex64(1j)),
    "convert_python": lambda m: m.lax.convert_element_type(1 + 2j, m.numpy.float32),
    "convert_numpy_scalar": lambda m: m.lax.convert_element_type(np.complex64(1 + 2j), m.numpy.float32),
    "convert_numpy_array": lambda m: m.lax.convert_element_type(np.array([1 + 2j]), m.numpy.float32),
    "convert_array": lambda m: m.lax.convert_element_type(_xc(m.numpy), m.numpy.float32),
    "array_python": lambda m: m.numpy.array(1 + 2j, dtype=m.numpy.float32),
    "array_python_list": lambda m: m.numpy.array([1 + 2j, 3], dtype=m.numpy.float32),
    "array_numpy": lambda m: m.numpy.array(np.array([1 + 2j]), dtype=m.numpy.float32),
    "array_numpy_scalar": lambda m: m.numpy.array(np.complex64(1 + 2j), dtype=m.numpy.float32),
    "array_array": lambda m: m.numpy.array(_xc(m.numpy), dtype=m.numpy.float32),
    "array_list_of_arrays": lambda m: m.numpy.array([_xc(m.numpy)[0]], dtype=m.numpy.float32),
    "asarray_list_of_arrays": lambda m: m.numpy.asarray([_xc(m.numpy)[0], 1.0], dtype=m.numpy.int32),
    "asarray_array": lambda m: m.numpy.asarray(_xc(m.numpy), dtype=m.numpy.float32),
    "asarray_array_int": lambda m: m.numpy.asarray(_xc(m.numpy), dtype=m.numpy.int32),
    "scalar_type_array": lambda m: m.numpy.float32(_xc(m.numpy)),
    "scalar_type_numpy_scalar": lambda m: m.numpy.float32(np.complex64(1 + 1j)),
    "ones_like": lambda m: m.numpy.ones_like(_xc(m.numpy), dtype=m.numpy.float32),
    "zeros_like": lambda m: m.numpy.zeros_like(_xc(m.numpy), dtype=m.numpy.float32),
    "empty_like": lambda m: m.numpy.empty_like(_xc(m.numpy), dtype=m.numpy.float32),
    "astype": lambda m: _xc(m.numpy).astype(m.numpy.float32),
    "at_set": lambda m: m.numpy.ones(2).at[0].set(1 + 2j),
    "at_set_numpy_scalar": lambda m: m.numpy.ones(2).at[0].set(np.complex64(1j)),
    "at_add_array": lambda m: m.numpy.ones(2).at[0].add(_xc(m.numpy)[0]),
    "where": lambda m: m.numpy.where(True, m.numpy.ones(2), 1j),
    # complex endpoints of a real range: JAX's ``astype`` of each complex one warns (once per traced signature)
    "linspace_complex_start": lambda m: m.numpy.linspace(1 + 1j, 2, 7, dtype=m.numpy.float32),
    "linspace_complex_stop_int": lambda m: m.numpy.linspace(1, 2 + 1j, 7, dtype=m.numpy.int32),
    "linspace_complex_both": lambda m: m.numpy.linspace(1 + 0j, 2 + 0j, 7, dtype=m.numpy.float32),
    "linspace_complex_array": lambda m: m.numpy.linspace(_xc(m.numpy), 3, 7, dtype=m.numpy.float32),
    "linspace_numpy_complex": lambda m: m.numpy.linspace(np.complex64(1j), 3, 7, dtype=m.numpy.float32),
    "geomspace_complex_start": lambda m: m.numpy.geomspace(1 + 1j, 2, 7, dtype=m.numpy.float32),
    "geomspace_complex_both": lambda m: m.numpy.geomspace(1 + 0j, 2 + 0j, 7, dtype=m.numpy.int32),
    "logspace_complex_stop": lambda m: m.numpy.logspace(1, 2 + 1j, 7, dtype=m.numpy.float32),
    "logspace_complex_base": lambda m: m.numpy.logspace(0.0, 2.0, 7, base=1j, dtype=m.numpy.float32),
    "logspace_complex_base_default_dtype": lambda m: m.numpy.logspace(0.0, 2.0, 9, base=1j),
    # complex fills and values of real arrays
    "insert_python": lambda m: m.numpy.insert(m.numpy.ones(3), 1, 1j),
    "insert_python_int": lambda m: m.numpy.insert(m.numpy.arange(3), 1, values=1j),
    "pad_constant_python": lambda m: m.numpy.pad(m.numpy.ones(3), 1, constant_values=1j),
    "pad_constant_array_int": lambda m: m.numpy.pad(m.numpy.arange(3), 1, constant_values=_xc(m.numpy)[0]),
    "unique_fill_python": lambda m: m.numpy.unique(m.numpy.ones(3), size=5, fill_value=1j),
    "unique_fill_array_int": lambda m: m.numpy.unique(m.numpy.arange(3), size=5, fill_value=_xc(m.numpy)[0]),
    "take_fill_python": lambda m: m.numpy.take(m.numpy.ones(3), m.numpy.array([0, 9]), mode="fill",
                                               fill_value=1j),
    "take_fill_python_int": lambda m: m.numpy.take(m.numpy.arange(3), m.numpy.array([0, 9]), mode="fill",
                                                   fill_value=1j),
    "at_get_fill_python": lambda m: m.numpy.ones(3).at[m.numpy.array([0, 9])].get(mode="fill", fill_value=2j),
    "bincount_complex_weights": lambda m: m.numpy.bincount(m.numpy.arange(2), weights=_xc(m.numpy), length=3),
}


def record(m: Any, fn: Callable[[Any], Any], modes: tuple[str, ...] = ("eager", "jit")) -> dict[str, list[str]]:
    """What ``fn(m)`` gives eagerly and then inside ``jit`` (or in ``modes`` alone): its outcome, then each
    warning's category and text."""
    runs = {"eager": lambda: fn(m), "jit": m.jit(lambda: fn(m))}
    out = {}
    for mode, run in ((mode, runs[mode]) for mode in modes):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                run()
                outcome = "ok"
            except Exception as error:  # noqa: BLE001 - the error is what we record
                outcome = _error_text(error)
        out[mode] = [outcome] + [f"{w.category.__name__}: {w.message}" for w in caught]
    return out


def _error_text(error: Exception) -> str:
    """The error's type and message, a function's address in it written ``0x..``."""
    return f"{type(error).__name__}: {re.sub(r' at 0x[0-9a-f]+>', ' at 0x..>', str(error))}"


def record_calls(m: Any, fn: Callable[[Any, Any], Any], x: Any, modes: tuple[str, ...]) -> list[list[str]]:
    """What ``fn(m, x)`` gives in each of ``modes`` in turn ("eager", or "jit": a new jitted function of ``x``
    each time): its outcome, then each warning's category, text and where it is reported (the line of this
    file that made the call, or "library")."""
    calls = {"eager": lambda: fn(m, x), "jit": lambda: m.jit(lambda y: fn(m, y))(x)}
    out = []
    for mode in modes:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                calls[mode]()
                outcome = "ok"
            except Exception as error:  # noqa: BLE001 - the error is what we record
                outcome = _error_text(error)
        out.append([mode, outcome] + [f"{w.category.__name__}: {w.message} @ {_reported_at(w)}" for w in caught])
    return out


def _reported_at(warning: warnings.WarningMessage) -> str:
    if pathlib.Path(warning.filename).name == pathlib.Path(__file__).name:
        return f"{pathlib.Path(warning.filename).name}:{warning.lineno}"
    return "library"


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.numpy")
    records = {name: record(module, fn) for name, fn in CALLS.items()}
    (HERE / "complex_to_real_golden.json").write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} cases -> {HERE / 'complex_to_real_golden.json'}")
