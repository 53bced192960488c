"""lax windowed: jaxprs and values against JAX 0.10.2 goldens, and the reference against NumPy."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("windowed")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


def _pooling_gradient(kind, config):
    """Evaluate the primitive JAX's vjp (select_and_scatter_add) or jvp (select_and_gather_add) of max/min pooling
    stages, on the generator's inputs."""
    from jaxle_core.lax import elementwise, windowed

    kw = dict(GEN.CONFIGS[config])
    x = SHARED.rand((4, 5), "float32")
    if isinstance(kw["padding"], str):
        kw["padding"] = tuple(lax.padtype_to_pads(x.shape, kw["window_dimensions"], kw["window_strides"],
                                                  kw["padding"]))
    select_prim = elementwise.ge_p if kind.endswith("max") else elementwise.le_p
    if kind.startswith("vjp"):
        out_shape = windowed.window_output_shape(x.shape, base_dilation=(1, 1), window_dilation=(1, 1), **kw)
        source = SHARED.rand(out_shape, "float32", 2)
        return windowed.select_and_scatter_add_p.bind(source, x, select_prim=select_prim, **kw)
    tangent = SHARED.rand((4, 5), "float32", 3)
    return windowed.select_and_gather_add_p.bind(tangent, x, select_prim=select_prim, base_dilation=(1, 1),
                                                 window_dilation=(1, 1), **kw)


@pytest.mark.parametrize("name", sorted(GEN.POOLING_CASES))
def test_pooling_gradients_match_jax(name):
    kind, config = name.split("-", 2)[:2], name.split("-", 2)[2]
    expected = GOLDEN[name]
    primitive, params, _ = expected["eqns"][-1]
    assert primitive == ("select_and_scatter_add" if kind[0] == "vjp" else "select_and_gather_add")
    assert params["select_prim"] == ("ge" if kind[1] == "max" else "le")
    got = np.asarray(_pooling_gradient("-".join(kind), config))
    want = expected["values"][0]
    assert list(got.shape) == want["shape"]
    np.testing.assert_allclose(got, np.asarray(want["values"], np.float64).reshape(got.shape), rtol=1e-6)


def test_reduce_window_sum_matches_numpy_loop():
    x = SHARED.rand((5, 6), "float32", seed=4)
    got = np.asarray(lax.reduce_window(x, 0.0, lax.add, (2, 3), (2, 1), ((1, 0), (0, 2))))
    padded = np.pad(x, ((1, 0), (0, 2)))
    want = np.array([[padded[i:i + 2, j:j + 3].sum() for j in range(0, padded.shape[1] - 2)]
                     for i in range(0, padded.shape[0] - 1, 2)])
    np.testing.assert_allclose(got, want, rtol=1e-5)
