"""``jaxle.ffi``: calls of jaxlib's LAPACK Cholesky kernels through ``ffi_call`` against JAX 0.10.2's jaxprs,
values and errors (golden/ffi_golden.json) and against NumPy; targets registered under new names; the reference
backend's refusal."""

import ctypes
import pathlib
import sys

import numpy as np
import pytest
from jaxlib.cpu import _lapack

import jaxle as jax
import jaxle.ffi
from jaxle_core.backend import use_backend

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "numpy-api" / "tests" / "golden"))

import jnp_golden  # noqa: E402 - found through the path set just above
import make_ffi_golden  # noqa: E402

GOLDEN = jnp_golden.load(str(pathlib.Path(__file__).parent / "golden" / "ffi_golden.json"))


@pytest.mark.parametrize("case", sorted(make_ffi_golden.CASES))
def test_matches_jax(case):
    jnp_golden.assert_case_matches(jnp_golden.run_case(jax, make_ffi_golden.CASES[case]), GOLDEN[case])


def test_attributes_stage_and_lower_as_jax():
    assert make_ffi_golden.staged_record(jax) == GOLDEN["staged_attributes"]


@pytest.mark.parametrize("method", ["sequential", "broadcast_all"])
def test_cholesky_factor_matches_numpy(method):
    batch = make_ffi_golden.BATCH
    factor, info = jax.jit(jax.vmap(lambda x: make_ffi_golden.call(jax, x, vmap_method=method)))(batch)
    np.testing.assert_allclose(np.tril(np.asarray(factor)), np.linalg.cholesky(batch), rtol=1e-6)
    np.testing.assert_array_equal(info, [0, 0])


def test_failed_factorization_reports_its_column():
    not_positive = np.diag(np.array([1.0, -1.0, 1.0], np.float32))
    _, info = make_ffi_golden.call(jax, not_positive)
    assert int(info) == 2  # LAPACK's 1-based index of the first non-positive pivot


def test_registered_target_under_a_new_name():
    jaxle.ffi.register_ffi_target("jaxle_test_dpotrf", _lapack.registrations()["lapack_dpotrf_ffi"], platform="cpu")
    x = np.array([[9.0, 3.0], [3.0, 5.0]])
    with jax.enable_x64(True):
        factor, info = make_ffi_golden.potrf(jax, "jaxle_test_dpotrf", np.float64, 2)(x, uplo=make_ffi_golden.LOWER)
    assert factor.dtype == np.float64 and int(info) == 0
    np.testing.assert_allclose(np.tril(np.asarray(factor)), np.linalg.cholesky(x), rtol=1e-12)


def test_pycapsule_wraps_the_function_pointer():
    function = ctypes.pythonapi.Py_IncRef
    capsule = jaxle.ffi.pycapsule(function)
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, (ctypes.py_object, ctypes.c_char_p)
    assert get_pointer(capsule, None) == ctypes.cast(function, ctypes.c_void_p).value


def test_include_dir_holds_the_ffi_header():
    assert (pathlib.Path(jaxle.ffi.include_dir()) / "xla" / "ffi" / "api" / "ffi.h").is_file()


def test_reference_backend_cannot_run_a_target():
    with use_backend("reference"), pytest.raises(RuntimeError, match="needs a compiling backend"):
        make_ffi_golden.call(jax, make_ffi_golden.SPD)


def test_layout_must_permute_the_dimensions():
    with pytest.raises(ValueError, match=r"must be a permutation of \[0, 2\)"):
        make_ffi_golden.call(jax, make_ffi_golden.SPD, input_layouts=[(0,)])
