"""``vmap(..., spmd_axis_name=...)`` of a ``shard_map`` splits the batch dimension along the named mesh axes in its
specs, each device's block holding its part of the batch and varying over those axes, as JAX 0.10.2's
(golden/make_spmd_axis_name_shard_map_golden.py): jaxprs, lowered text, results' layouts and values, and JAX's
ValueErrors for specs naming the axes already and for a body that does not make them manual."""

import numpy as np
from conftest import golden_cases_test
from golden_cases import typed_mesh

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_spmd_axis_name_shard_map_golden")


def test_golden_covers_every_case():
    assert sorted(GOLDEN) == sorted(GEN.CASES)


def test_batched_indexed_sum_follows_numpy():
    # for each example: sum over the 'y' blocks (two rows each) of the block's rows summed, times its position + 1
    mesh = typed_mesh(jaxle, "Auto")
    result = jaxle.vmap(GEN._indexed_sum(jaxle, mesh, True), spmd_axis_name="x")(GEN.BATCH)
    blocks = GEN.BATCH.reshape(2, 4, 2, 4).sum(2)
    expected = (blocks * np.arange(1, 5, dtype=np.float32)[None, :, None]).sum(1)
    np.testing.assert_allclose(np.asarray(result), expected, rtol=1e-6)
