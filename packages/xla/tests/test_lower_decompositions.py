"""XLA lowering of eigh, eig, svd, schur, hessenberg and tridiagonal: jaxlib's LAPACK kernels called as JAX 0.10.2
calls them give JAX's bits (goldens of jitted JAX on fixed matrices), agree with core's NumPy reference, handle
empty matrices without calling LAPACK, and refuse what JAX's CPU lowering refuses."""

import importlib
import json
import pathlib
import sys

import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core.lax import linalg

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
GEN = importlib.import_module("make_lapack_decompositions_golden")
import host_variants  # noqa: E402 - found through the path set just above

GOLDEN = json.loads(GEN.GOLDEN.read_text())
VARIANTS = host_variants.load_variants(GEN.GOLDEN)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_bits_match_jax(name):
    with jc.config.enable_x64(name.startswith("x64-")):
        actual = GEN.run(jc, GEN.CASES[name])
    host_variants.check(actual, name, GOLDEN, VARIANTS)


def _matrix(shape, dtype, seed=0):
    return GEN._matrix(shape, dtype, seed)


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_compiled_agrees_with_the_reference(dtype):
    a = _matrix((2, 3, 3), dtype, 1)
    h = (a + np.conj(np.swapaxes(a, -1, -2))) / 2
    check_against_reference(lambda x: linalg.eigh(x), h, rtol=1e-4, atol=1e-5)
    check_against_reference(lambda x: linalg.svd(x), a, rtol=1e-4, atol=1e-5)
    check_against_reference(lambda x: linalg.eig(x, compute_left_eigenvectors=False,
                                                 compute_right_eigenvectors=False), a, rtol=1e-4, atol=1e-5)
    check_against_reference(lambda x: linalg.schur(x), a, rtol=1e-4, atol=1e-5)
    check_against_reference(lambda x: linalg.hessenberg(x), a, rtol=1e-4, atol=1e-5)
    check_against_reference(lambda x: linalg.tridiagonal(x), h, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 2, 2), (2, 0), (0, 3)])
def test_empty_matrices_never_reach_lapack(shape):
    x = np.ones(shape, np.float32)
    check_against_reference(lambda v: linalg.svd(v), x)
    check_against_reference(lambda v: linalg.svd(v, full_matrices=False), x)
    if shape[-1] == shape[-2]:
        check_against_reference(lambda v: linalg.eigh(v), x)
        check_against_reference(lambda v: linalg.eig(v), x)
        check_against_reference(lambda v: linalg.schur(v), x)


def test_a_matrix_lapack_cannot_decompose_gives_nans():
    x = np.full((2, 3, 3), np.nan, np.float32)
    x[1] = np.eye(3)
    u, s, vh = (np.asarray(r) for r in jc.jit(linalg.svd)(x))
    assert np.isnan(s[0]).all() and np.isnan(u[0]).all() and np.isnan(vh[0]).all()
    np.testing.assert_array_equal(s[1], np.ones(3, np.float32))


@pytest.mark.parametrize("call, error, message", [
    (lambda x: linalg.eigh(x.astype(np.float16)), NotImplementedError, "Unsupported dtype float16."),
    (lambda x: linalg.svd(x, algorithm=linalg.SvdAlgorithm.POLAR), NotImplementedError,
     "The SVD Jacobi and Polar algorithms are not implemented on CPU."),
    (lambda x: linalg.schur(x, sort_eig_vals=True), NotImplementedError,
     "The sort feature of LAPACK's gees routine is not implemented."),
    (lambda x: linalg.eig(x, implementation=linalg.EigImplementation.CUSOLVER), ValueError,
     "Only the lapack implementation is supported on CPU."),
])
def test_what_the_cpu_lacks_raises_jaxs_error(call, error, message):
    with pytest.raises(error, match=message):
        jc.jit(call)(np.eye(3, dtype=np.float32))


def test_derivatives_run_compiled():
    a = _matrix((3, 3), "float32", 2) + np.diag([0.0, 3.0, 6.0]).astype(np.float32)

    def eigenvalue_sum(x):
        w = linalg.eig(x, compute_left_eigenvectors=False, compute_right_eigenvectors=False)[0]
        return jc.lax.reduce_sum(jc.lax.real(w), (0,))

    check_against_reference(jc.grad(eigenvalue_sum), a, rtol=1e-4, atol=1e-5, eager=False)
    check_against_reference(jc.grad(lambda x: jc.lax.reduce_sum(linalg.eigh(x)[1], (0,))), a, rtol=1e-4, atol=1e-5,
                            eager=False)
    check_against_reference(jc.grad(lambda x: jc.lax.reduce_sum(linalg.svd(x, compute_uv=False), (0,))), a,
                            rtol=1e-4, atol=1e-5, eager=False)
