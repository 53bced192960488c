"""Jitted functions under ``jax.set_mesh`` are partitioned over the mesh's devices as JAX 0.10.2's are, whatever
their arguments (golden/make_context_mesh_programs_golden.py): host values, arrays made elsewhere, scalars or none.
The lowered text (its partitions, meshes, the scalar arguments annotated over the empty mesh), the compiled input
shardings (XLA's own when no argument names a mesh) and output shardings, where the results lie and their types,
and JAX's error for an argument committed to one device."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_context_mesh_programs_golden")
GOLDEN = json.loads((GEN.HERE / "context_mesh_programs_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]
