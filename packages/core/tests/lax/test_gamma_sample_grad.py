"""``lax.random_gamma_grad`` stages JAX 0.10.2's jaxpr (golden/random_gamma_grad_golden.json); its values are
checked in lax/test_special.py, and bit for bit against JAX's gamma gradients on XLA in the integration tests."""

import json
import pathlib
import sys

import numpy as np
import pytest

from jaxle_core import lax, make_jaxpr
from jaxle_core.config import enable_x64

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "golden"))

import make_random_gamma_grad_golden as gen  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent.parent / "golden" / "random_gamma_grad_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(gen.CASES))
def test_jaxpr_matches_jax(name):
    a_shape, x_shape, dtype = gen.CASES[name]
    with enable_x64():
        text = str(make_jaxpr(lax.random_gamma_grad)(np.ones(a_shape, dtype), np.ones(x_shape, dtype)))
    assert text == GOLDEN[name]["jaxpr"]


@pytest.mark.parametrize("name", sorted(gen.EAGER_CASES))
def test_eager_python_scalars_as_jax(name):
    want = GOLDEN[name]
    if "error" in want:
        with pytest.raises(AttributeError) as info:
            lax.random_gamma_grad(*gen.EAGER_CASES[name])
        assert (type(info.value).__name__, str(info.value)) == (want["error"], want["message"])
    else:
        assert float(lax.random_gamma_grad(*gen.EAGER_CASES[name])) == pytest.approx(want["value"], rel=1e-6)


def test_edges():
    a = np.array([2.0, -1.0, 2.0, np.nan], np.float32)
    x = np.array([0.0, 1.0, -1.0, 1.0], np.float32)
    got = np.asarray(lax.random_gamma_grad(a, x))
    assert got[0] == 0.0 and np.isnan(got[1:]).all()
