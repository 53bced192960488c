"""Mutable array references laid out over a mesh of Explicit axes, against JAX 0.10.2
(golden/make_refs_under_mesh_golden.py): the lowered text of programs writing them (rows, and the whole reference in a
``fori_loop``), their results, what the reference holds after two calls and its layout, and JAX's errors
where an index would change the layout (an integer index, a slice of part of a split dimension)."""

import json
import pathlib

import make_refs_under_mesh_golden as gen
import pytest

import jaxle as jax

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "refs_under_mesh_golden.json").read_text())


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == gen._cases(jax).keys()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    assert gen.record(jax, name) == GOLDEN[name]
