"""jaxle writes the LAPACK (and jaxlib's other linear-algebra kernel) custom calls of a jitted linear-algebra
function exactly as JAX 0.10.2 does (golden/lapack_calls_golden.json): the kernel, its options, layouts and aliases,
the ``num_batch_dims`` frontend attribute and Shardy's sharding rule, for each element type and batch rank."""

import json
import pathlib
import sys

import pytest

import jaxle as jax
import jaxle.numpy  # noqa: F401 - the cases reach it as an attribute of jaxle
import jaxle.scipy.linalg  # noqa: F401

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_lapack_calls_golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "lapack_calls_golden.json").read_text())


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_custom_calls_match_jax(case):
    assert GOLDEN[case]  # every case calls a kernel
    assert make_lapack_calls_golden.custom_calls(jax, case) == GOLDEN[case]
