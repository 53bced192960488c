"""sparse.random_bcoo against JAX 0.10.2 (golden/sparse_random_golden.json from golden/make_sparse_random_golden.py:
the same values and indices from the same key, the jaxpr and the errors) and against its own contract."""

import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle
from jaxle.experimental import sparse

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_sparse_random_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sparse_random_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_random_bcoo_golden(name):
    assert golden.run_case(jaxle, name) == GOLDEN[name]


def test_random_bcoo_jaxpr():
    assert golden.jaxpr_text(jaxle) == GOLDEN["jaxpr"]


def test_random_bcoo_contract():
    mat = jaxle.jit(lambda k: sparse.random_bcoo(k, (2, 6, 5), nse=7, n_batch=1, dtype=np.float32))(
        jaxle.random.key(11))
    assert isinstance(mat, sparse.BCOO) and (mat.n_batch, mat.nse) == (1, 7)
    indices = np.asarray(mat.indices)
    for batch in indices:  # distinct positions inside the array
        assert len({tuple(i) for i in batch}) == 7
        assert (batch >= 0).all() and (batch < [6, 5]).all()
    dense = np.asarray(mat.todense())
    assert ((dense != 0).sum(axis=(1, 2)) == 7).all() and (dense >= 0).all() and (dense < 1).all()
    assert sparse.random.random_bcoo is sparse.random_bcoo
