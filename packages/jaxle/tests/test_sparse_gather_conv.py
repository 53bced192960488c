"""bcoo_gather and bcoo_conv_general_dilated against JAX 0.10.2 (golden/sparse_gather_conv_golden.json from
golden/make_sparse_gather_conv_golden.py: results, their layouts and errors) and against lax.gather and NumPy's
convolution of the dense arrays."""

import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle
from jaxle import lax
from jaxle.experimental import sparse

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_sparse_gather_conv_golden as golden  # noqa: E402 - found through the path set just above
from make_sparse_golden import assert_outputs_match  # noqa: E402

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sparse_gather_conv_golden.json").read_text())

# results stored in another layout than JAX's (the same dense array): the operand's batch dimension stays one
OTHER_LAYOUT = {"gather_batched_operand"}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_gather_conv_golden(name):
    got, expected = golden.run_case(jaxle, name), GOLDEN[name]
    assert ("error" in got) == ("error" in expected), got
    if "error" in expected:
        assert got["error"] == expected["error"]
        return
    assert_outputs_match({"out": [got]}, {"out": [expected]}, same_layout=name not in OTHER_LAYOUT)


@pytest.mark.parametrize("n_batch,n_dense", [(0, 0), (1, 0), (0, 1)])
def test_gather_matches_dense_gather(n_batch, n_dense):
    rng = np.random.default_rng(0)
    dense = rng.standard_normal((3, 4, 5)).astype(np.float32) * (rng.random((3, 4, 5)) < 0.4)
    mat = sparse.BCOO.fromdense(dense, n_batch=n_batch, n_dense=n_dense)
    dims = lax.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(1,), start_index_map=(1, 2))
    indices = np.array([[[1, 0], [3, 2]], [[0, 1], [2, 3]]], np.int32)
    out = jaxle.jit(lambda m, i: sparse.bcoo_gather(m, i, dims, (3, 1, 2)))(mat, indices)
    expected = lax.gather(dense, indices, dims, (3, 1, 2), mode="promise_in_bounds")
    assert isinstance(out, sparse.BCOO)
    np.testing.assert_array_equal(out.todense(), expected)


def test_conv_matches_numpy():
    rng = np.random.default_rng(1)
    signal = rng.standard_normal(12).astype(np.float32) * (rng.random(12) < 0.3)
    taps = rng.standard_normal(4).astype(np.float32)
    out = jaxle.jit(lambda x: sparse.bcoo_conv_general_dilated(x, taps[None, None], window_strides=(1,),
                                                               padding=[(3, 2)]))(sparse.BCOO.fromdense(
                                                                   signal[None, None]))
    # lax's convolution is a cross-correlation: NumPy's convolution with the taps reversed
    expected = np.convolve(np.pad(signal, (3, 2)), taps[::-1], mode="valid")
    np.testing.assert_allclose(out.todense()[0, 0], expected, rtol=1e-5, atol=1e-6)
