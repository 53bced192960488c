"""lax.approx_max_k / approx_min_k: jaxprs, values, output sizes, jvp, vmap and errors against JAX 0.10.2 goldens,
and the reference (an exact stable sort, as XLA's CPU fallback) against NumPy."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax
from jaxle_core.lax.approx_top_k import approx_top_k_output_size

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("approx_top_k")


# A jit equation's sharding params are objects of JAX's own (UnspecifiedValue, a mesh) whose reprs jaxle does not
# imitate; make_jaxpr does not print them.
_JIT_UNPRINTED = ("in_shardings", "out_shardings", "ctx_mesh")


def _printed_params(outcome: dict) -> dict:
    for primitive, params, _ in outcome.get("eqns", []):
        if primitive == "jit":
            for key in _JIT_UNPRINTED:
                params.pop(key, None)
    return outcome


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(_printed_params(SHARED.run_case(jaxle_core, GEN.CASES[name])),
                          _printed_params(GOLDEN[name]))


def test_exact_top_k_matches_numpy():
    x = np.random.default_rng(3).standard_normal((4, 50)).astype(np.float32)
    values, indices = lax.approx_max_k(x, 7)
    order = np.argsort(-x, axis=1, kind="stable")[:, :7]
    np.testing.assert_array_equal(np.asarray(indices), order)
    np.testing.assert_array_equal(np.asarray(values), np.take_along_axis(x, order, axis=1))
    values, indices = lax.approx_min_k(x, 3, reduction_dimension=0)
    np.testing.assert_array_equal(np.asarray(values), np.sort(x, axis=0)[:3])


# (size, rank, k, recall_target, reduction_input_size_override) -> the size JAX 0.10.2 reports.
SIZES = {(5000, 1, 1, 0.95, -1): 1024, (5000, 1, 17, 0.99, -1): 3072, (10000, 1, 5, 0.999, -1): 5120,
         (10000, 1, 5, 0.999, 20003): 3072, (33000, 1, 5, 0.999, 330000): 2048, (100000, 1, 300, 0.95, -1): 7168,
         (10000, 1, 2, 1.0, -1): 10000, (1000, 1, 5, 0.5, -1): 1000, (1000, 2, 2, 0.5, -1): 256,
         (3000, 2, 50, 0.9, -1): 768}


@pytest.mark.parametrize("case", sorted(SIZES))
def test_output_size(case):
    size, rank, k, recall, override = case
    assert approx_top_k_output_size(size, rank, k, recall, False, override) == SIZES[case]


@pytest.mark.parametrize("params", [dict(recall_target=0.0), dict(recall_target=1.5),
                                    dict(reduction_input_size_override=3)], ids=str)
def test_parameters_xla_refuses(params):
    # ValueError from the reference; XLA's own runtime error when it is the backend.
    with pytest.raises(Exception, match="out of range"):
        lax.approx_max_k(np.ones(5, np.float32), 1, **params)
