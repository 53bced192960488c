"""``vmap`` through mutable array references: jaxprs, values and errors against JAX 0.10.2 goldens, and a check
against running each batch element alone."""

import importlib

import numpy as np
import pytest
from make_refs_golden import assert_record_matches

import jaxle_core
from jaxle_core.lax import refs

GEN = importlib.import_module("make_refs_vmap_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("refs_vmap")[1]
M = GEN.namespace(jaxle_core, refs.new_ref, refs.freeze)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert_record_matches(GEN.run_case(M, name), GOLDEN[name], rtol=1e-6)


def test_vmap_equals_a_loop_over_the_batch():
    def f(y, i):
        r = refs.new_ref(y)
        r[i] = r[i] * 2.0 + y[0]
        refs.addupdate(r, (slice(1, None),), np.ones(2, np.float32))
        return refs.freeze(r), r[i]

    ys = np.arange(9, dtype=np.float32).reshape(3, 3)
    idx = np.array([2, 0, 1], np.int32)
    batched = jaxle_core.vmap(f)(ys, idx)
    for k in range(3):
        alone = f(ys[k], idx[k])
        for b, a in zip(batched, alone):
            np.testing.assert_allclose(np.asarray(b)[k], np.asarray(a))
