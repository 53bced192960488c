"""Jitted linear algebra over a batch of matrices split along mesh axes on eight CPU devices: XLA keeps the batch
split as JAX 0.10.2's programs do (each device factors its own matrices, no collective; results laid out like the
batch: golden/make_batched_linalg_golden.py), and the values are NumPy's and SciPy's."""

import importlib
import json

import numpy as np
import pytest
import scipy.linalg

import jaxle
import jaxle.numpy  # noqa: F401 - the cases reach them as attributes of jaxle
import jaxle.scipy.linalg  # noqa: F401

GEN = importlib.import_module("make_batched_linalg_golden")
GOLDEN = json.loads((GEN.HERE / "batched_linalg_golden.json").read_text())


def _each(f, *batches):
    return np.stack([f(*matrices) for matrices in zip(*batches)])


def _lu(a):
    lu, pivots = scipy.linalg.lu_factor(a)
    return lu, pivots.astype(np.int32)


# Each case's results from NumPy or SciPy, given the case's operands.
REFERENCES = {
    "cholesky": lambda a: [np.linalg.cholesky(a)],
    "cholesky_two_batch_dimensions": lambda a: [np.linalg.cholesky(a)],
    "eigvalsh": lambda a: [np.linalg.eigvalsh(a)],
    "svd_values": lambda a: [np.linalg.svd(a, compute_uv=False)],
    "qr_product": lambda a: [a],
    "inv": lambda a: [np.linalg.inv(a)],
    "lu": lambda a: [_each(lambda m: _lu(m)[0], a), _each(lambda m: _lu(m)[1], a)],
    "eigvals": lambda a: [np.linalg.eigvals(a)],
    "schur_product": lambda a: [a],
    "solve_triangular": lambda a, b: [_each(lambda m, v: scipy.linalg.solve_triangular(m, v, lower=True), a, b)],
}


def test_every_case_has_a_reference():
    assert sorted(REFERENCES) == sorted(GOLDEN)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_partitioned_as_jax(name):
    assert GEN.partitioning(jaxle, name) == GOLDEN[name]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_values_against_numpy(name):
    outs, _, _ = GEN.run_case(jaxle, name)
    _, operands, _ = GEN.cases(jaxle)[name]
    expected = REFERENCES[name](*operands)
    assert len(outs) == len(expected)
    for out, reference in zip(outs, expected):
        if name == "eigvals":  # the same eigenvalues, in LAPACK's order or NumPy's
            out, reference = np.sort(out, axis=-1), np.sort(reference, axis=-1)
        np.testing.assert_allclose(out, reference.astype(out.dtype), rtol=2e-4, atol=2e-4)
