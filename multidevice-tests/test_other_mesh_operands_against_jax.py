"""jnp and lax functions given operands laid out over a mesh of Auto axes, under ``set_mesh`` of a mesh of Explicit
axes, compute or refuse as JAX 0.10.2's do, eagerly and traced: the ``*_like`` functions and ``jnp.imag`` (so
``isreal``, ``iscomplex``, ``angle``) of a real value by their ``broadcast_in_dim``, ``argsort`` by its
``broadcasted_iota``, each with JAX's ValueError; a sort is traced; under a mesh of Auto axes all compute
(golden/make_other_mesh_operands_golden.py). An eager sort there computes what it computes under the mesh of Auto
axes, where JAX 0.10.2 refuses it when it compiles its comparison (docs/parallel.md)."""

import importlib
import json

import pytest

import jaxle

GEN = importlib.import_module("make_other_mesh_operands_golden")
GOLDEN = json.loads((GEN.HERE / "other_mesh_operands_golden.json").read_text())
EAGER_SORTS = {name for name in GEN.CASES if name.endswith("_eager_explicit")
               and name.startswith(("sort_", "lax_sort_", "lexsort_"))}


@pytest.mark.parametrize("name", sorted(set(GEN.CASES) - EAGER_SORTS))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]


@pytest.mark.parametrize("name", sorted(EAGER_SORTS))
def test_eager_sort_computes_as_under_the_auto_mesh(name):
    assert GOLDEN[name].startswith("ValueError: ")  # JAX 0.10.2 refuses it when it compiles its comparison
    assert GEN.CASES[name](jaxle) == GOLDEN[name.replace("_explicit", "_auto")]
