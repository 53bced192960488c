"""Tracing functions of arrays with symbolic shapes (``make_jaxpr`` text and ``eval_shape``) against JAX 0.10.2
(golden/make_shape_poly_tracing_golden.py)."""

from __future__ import annotations

import json
import pathlib
import sys
import types

import pytest

import jaxle_core
import jaxle_numpy
from jaxle_core import shape_poly

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE / "golden"))

import make_shape_poly_tracing_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((HERE / "golden" / "shape_poly_tracing_golden.json").read_text())
JAXLE = types.SimpleNamespace(numpy=jaxle_numpy, lax=jaxle_core.lax, make_jaxpr=jaxle_core.make_jaxpr,
                              eval_shape=jaxle_core.eval_shape, grad=jaxle_core.grad, vmap=jaxle_core.vmap,
                              jit=jaxle_core.jit, symbolic_shape=shape_poly.symbolic_shape,
                              ShapeDtypeStruct=jaxle_core.ShapeDtypeStruct)
@pytest.mark.parametrize("name", list(golden.CASES))
def test_tracing_matches_jax(name):
    assert golden.run_case(JAXLE, name) == GOLDEN[name]
