"""Symbolic dimensions against JAX 0.10.2's (golden/make_shape_poly_golden.py): parsing, printing, arithmetic,
comparisons, constraints, scopes, and their errors."""

from __future__ import annotations

import json
import pathlib
import sys
import types

import pytest

from jaxle_core import shape_poly
from jaxle_core.avals import ShapeDtypeStruct

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE / "golden"))

import make_shape_poly_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((HERE / "golden" / "shape_poly_golden.json").read_text())
ENV = golden.namespace(types.SimpleNamespace(**vars(shape_poly), ShapeDtypeStruct=ShapeDtypeStruct))
CASES = [f"spec {spec!r}" for spec in golden.SPECS] + golden.EXPRESSIONS


@pytest.mark.parametrize("case", CASES)
def test_matches_jax(case):
    expression = f"symbolic_shape({case[5:]})" if case.startswith("spec ") else case
    got = golden.run(expression, ENV)
    assert got == GOLDEN[case]


def test_equal_expressions_hash_equal_and_constants_are_ints():
    b, n = shape_poly.symbolic_shape("b, n")
    assert hash(b * n + 1) == hash(1 + n * b) and {b * n: 1}[n * b] == 1
    assert type(b - b) is int and type(b * 0) is int and shape_poly.is_constant_dim(3)
    assert not shape_poly.is_constant_dim(b)


def test_inconclusive_is_an_exception_subclass():
    b, = shape_poly.symbolic_shape("b")
    with pytest.raises(shape_poly.InconclusiveDimensionOperation, match="'b' >= '2' is inconclusive"):
        b >= 2  # noqa: B015 - the comparison itself raises
