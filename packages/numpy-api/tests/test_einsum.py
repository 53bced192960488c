"""jnp.einsum and einsum_path: JAX's goldens, NumPy over dtypes and paths, gradients."""

import jnp_golden
import make_einsum_golden
import numpy as np
import opt_einsum
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("einsum_golden.json")


@pytest.mark.parametrize("name", sorted(make_einsum_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_einsum_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


SPECS = [("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("ii->i", [(3, 3)]),
         ("iij,jk->ki", [(2, 2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]), ("...i,...i", [(2, 3), (3,)]),
         ("ij,ij->", [(2, 3), (1, 3)]), ("abc,cd,da->b", [(2, 3, 4), (4, 5), (5, 2)])]


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex64"])
@pytest.mark.parametrize("optimize", ["auto", False, "greedy"])
@pytest.mark.parametrize("spec,shapes", SPECS)
def test_matches_numpy(spec, shapes, dtype, optimize):
    operands = [jnp_golden.rand(s, dtype, seed) for seed, s in enumerate(shapes)]
    expected = np.einsum(spec, *operands)
    got = jnp.einsum(spec, *operands, optimize=optimize)
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-5, atol=1e-5)


def test_under_x64_and_jit():
    with jaxle_core.config.enable_x64(True):
        a, b = jnp_golden.rand((2, 3), "float64"), jnp_golden.rand((3,), "int64", 1)
        got = jaxle_core.jit(lambda x, y: jnp.einsum("ij,j->i", x, y))(a, b)
        assert got.dtype == np.float64
        np.testing.assert_allclose(np.asarray(got), a @ b)


def test_einsum_path_is_opt_einsums_with_true_meaning_greedy():
    operands = [jnp_golden.rand(s, "float32", i) for i, s in enumerate([(5, 3), (3, 4), (4, 2)])]
    path, info = jnp.einsum_path("ij,jk,kl->il", *operands, optimize=True)
    expected_path, expected_info = opt_einsum.contract_path("ij,jk,kl->il", *operands, optimize="greedy")
    assert path == expected_path and str(info) == str(expected_info)
    numpy_path = np.einsum_path("ij,jk,kl->il", *operands, optimize="greedy")[0][1:]
    assert [tuple(step) for step in path] == [tuple(step) for step in numpy_path]


def test_gradients():
    a, b = jnp_golden.rand((2, 3), "float32"), jnp_golden.rand((3, 4), "float32", 1)
    check_grads(lambda x, y: jnp.einsum("ij,jk->ik", x, y), (a, b), order=2, modes=["fwd", "rev"])
    check_grads(lambda x: jnp.einsum("ii->i", x), (jnp_golden.rand((3, 3), "float32"),), order=1,
                modes=["fwd", "rev"])
