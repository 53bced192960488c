"""Exporting with symbolic shapes against JAX 0.10.2 (golden/make_export_shape_poly_golden.py): the exported
signature, ``Exported.call`` on concrete shapes (eager and jitted, after a serialize/deserialize round trip) and the
errors for arguments that do not fit the specification; and the module's dynamic shapes."""

from __future__ import annotations

import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle as jax
import jaxle.numpy as jnp
from jaxle import export

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE / "golden"))

import make_export_shape_poly_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((HERE / "golden" / "export_shape_poly_golden.json").read_text())


@pytest.mark.parametrize("name", list(golden.CASES))
def test_export_matches_jax(name):
    got, expected = golden.run_case(jax, name), GOLDEN[name]
    assert {k: got[k] for k in ("in_avals", "out_avals", "restored_out_avals")} == \
        {k: expected[k] for k in ("in_avals", "out_avals", "restored_out_avals")}
    for got_call, expected_call in zip(got["calls"], expected["calls"], strict=True):
        if "error" in expected_call:
            assert got_call == expected_call
            continue
        for kind in ("eager", "jitted"):
            for y, want in zip(got_call[kind], expected_call[kind], strict=True):
                np.testing.assert_allclose(np.asarray(y), np.asarray(want), rtol=2e-6, atol=1e-6)


def test_module_has_dynamic_shapes_and_reads_the_dimensions():
    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 4"), np.float32)
    exported = export.export(jax.jit(lambda x: jnp.reshape(x, (-1,)) * x.shape[0]))(spec)
    text = exported.mlir_module()
    assert "jax.uses_shape_polymorphism = true" in text and "tensor<?x4xf32>" in text
    assert "stablehlo.get_dimension_size %arg0, dim = 0" in text and "stablehlo.dynamic_reshape" in text
    assert exported.uses_global_constants and str(exported.out_avals[0]) == "float32[4*b]"


def test_symbolic_dimensions_outside_export_have_no_value():
    b, = export.symbolic_shape("b")
    with pytest.raises(NotImplementedError, match="Evaluation rule for 'dim_as_value' is not implemented"):
        b + 1.0  # noqa: B018 - the operation itself raises


def test_lowered_for_symbolic_shapes_does_not_compile():
    spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 4"), np.float32)
    lowered = jax.jit(lambda x: jnp.sin(x) * x.shape[0]).lower(spec)
    assert "tensor<?x4xf32>" in lowered.as_text()
    with pytest.raises(ValueError, match="Error refining shapes"):
        lowered.compile()


def test_a_dimension_variable_no_argument_carries_is_refused():
    b, = export.symbolic_shape("b")
    with pytest.raises(Exception, match="Encountered dimension variable 'b' that is not appearing in the shapes") as e:
        jax.jit(lambda: jnp.zeros((b, 2)))()
    assert type(e.value).__name__ == "UnexpectedDimVar"
