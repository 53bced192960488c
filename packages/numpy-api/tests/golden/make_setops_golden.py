"""Golden records of jnp's set operations (unique and its array-API forms, isin, intersect1d, union1d, setdiff1d,
setxor1d) from JAX 0.10.2: jaxprs of the sized forms, values, weak types, errors.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_setops_golden.py jax
"""

import jnp_golden
import numpy as np

NANS = np.array([3.0, 1.0, 3.0, np.nan, 1.0, np.nan], np.float32)
ROWS = np.array([[1, 2], [0, 1], [1, 2], [0, 0]], np.int32)
A = np.array([5, 3, 4, 3, 9], np.int32)
B = np.array([3, 9, 2, 1], np.int32)


def _unique_cases():
    return {
        "unique-size": lambda m: (lambda a: m.numpy.unique(a, size=5), (NANS,)),
        "unique-size-fill": lambda m: (lambda a: m.numpy.unique(a, size=5, fill_value=-1), (NANS,)),
        "unique-size-all": lambda m: (lambda a: m.numpy.unique(a, True, True, True, size=5), (NANS,)),
        "unique-size-cut": lambda m: (lambda a: m.numpy.unique(a, True, True, True, size=2), (NANS,)),
        "unique-equal-nan-false": lambda m: (lambda a: m.numpy.unique(a, True, True, True, equal_nan=False,
                                                                      size=6), (NANS,)),
        "unique-complex": lambda m: (lambda a: m.numpy.unique(a, return_counts=True, size=4),
                                     (np.array([1 + 1j, np.nan, 1 - 1j, complex(0, np.nan), 1 + 1j], np.complex64),)),
        "unique-float16-weak": lambda m: (lambda a: m.numpy.unique(a * 2.0, size=3), (NANS.astype(np.float16),)),
        "unique-int": lambda m: (lambda a: m.numpy.unique(a, return_counts=True, size=3), (A,)),
        "unique-bool": lambda m: (lambda a: m.numpy.unique(a, return_inverse=True, size=2),
                                  (np.array([True, False, True]),)),
        "unique-2d-flattened": lambda m: (lambda a: m.numpy.unique(a, return_inverse=True, size=3), (ROWS,)),
        "unique-axis0": lambda m: (lambda a: m.numpy.unique(a, True, True, True, axis=0, size=5, fill_value=7),
                                   (ROWS,)),
        "unique-axis1": lambda m: (lambda a: m.numpy.unique(a, return_inverse=True, axis=1, size=2), (ROWS,)),
        "unique-scalar": lambda m: (lambda a: m.numpy.unique(a, True, True, True, size=1), (np.float32(2.0),)),
        "unique-empty-fill": lambda m: (lambda a: m.numpy.unique(a, True, True, True, size=2, fill_value=5),
                                        (np.zeros(0, np.float32),)),
        "unique-traced-error": lambda m: (m.numpy.unique, (NANS,)),
        "unique-empty-size-error": lambda m: (lambda a: m.numpy.unique(a, size=2), (np.zeros(0, np.float32),)),
        "unique-list-error": lambda m: (lambda: m.numpy.unique([1, 2]), ()),
        "unique-axis-error": lambda m: (lambda a: m.numpy.unique(a, axis=2, size=1), (ROWS,)),
        "unique-size-float-error": lambda m: (lambda a: m.numpy.unique(a, size=2.0), (ROWS,)),
        "unique_all-size": lambda m: (lambda a: m.numpy.unique_all(a, size=5, fill_value=0), (NANS,)),
        "unique_counts-size": lambda m: (lambda a: m.numpy.unique_counts(a, size=4), (NANS,)),
        "unique_inverse-size": lambda m: (lambda a: m.numpy.unique_inverse(a, size=3), (ROWS,)),
        "unique_values-size": lambda m: (lambda a: m.numpy.unique_values(a, size=3), (ROWS,)),
        "unique_all-traced-error": lambda m: (m.numpy.unique_all, (NANS,)),
        "unique_all-list-error": lambda m: (lambda: m.numpy.unique_all([1, 2]), ()),
        "unique-vmap": lambda m: (m.vmap(lambda a: m.numpy.unique(a, return_counts=True, size=3)), (ROWS,)),
    }


def _isin_cases():
    cases = {}
    for method in ("auto", "compare_all", "binary_search", "sort"):
        cases[f"isin-{method}"] = lambda m, method=method: (
            lambda a, b: m.numpy.isin(a, b, method=method), (ROWS, B))
        cases[f"isin-{method}-invert"] = lambda m, method=method: (
            lambda a, b: m.numpy.isin(a, b, invert=True, method=method), (A, B))
        cases[f"isin-{method}-assume-unique"] = lambda m, method=method: (
            lambda a, b: m.numpy.isin(a, b, assume_unique=True, method=method), (B[:3], A[2:]))
    cases.update({
        "isin-complex": lambda m: (lambda a, b: m.numpy.isin(a, b, method="sort"),
                                   (np.array([1 + 1j, 2j, 1j], np.complex64), np.array([2j, 1 + 1j], np.complex64))),
        "isin-vmap": lambda m: (m.vmap(lambda a, b: m.numpy.isin(a, b, method="sort"), in_axes=(0, None)),
                                (ROWS, B)),
        "isin-float-int": lambda m: (m.numpy.isin, (NANS, B)),
        "isin-scalar": lambda m: (lambda a: m.numpy.isin(a, 2), (ROWS,)),
        "isin-method-error": lambda m: (lambda a, b: m.numpy.isin(a, b, method="x"), (A, B)),
        "isin-list-error": lambda m: (lambda a: m.numpy.isin(a, [1, 5]), (A,)),
    })
    return cases


def _set_cases():
    return {
        "intersect1d-size": lambda m: (lambda a, b: m.numpy.intersect1d(a, b, size=3), (A, B)),
        "intersect1d-size-fill": lambda m: (lambda a, b: m.numpy.intersect1d(a, b, size=3, fill_value=-1), (A, B)),
        "intersect1d-indices": lambda m: (lambda a, b: m.numpy.intersect1d(a, b, return_indices=True, size=4),
                                          (A, B)),
        "intersect1d-indices-fill": lambda m: (
            lambda a, b: m.numpy.intersect1d(a, b, return_indices=True, size=3, fill_value=-1), (A, B)),
        "intersect1d-none": lambda m: (lambda a, b: m.numpy.intersect1d(a, b, size=2), (A, np.array([0], np.int32))),
        "intersect1d-traced-error": lambda m: (m.numpy.intersect1d, (A, B)),
        "union1d-size": lambda m: (lambda a, b: m.numpy.union1d(a, b, size=9), (A, B)),
        "union1d-size-fill": lambda m: (lambda a, b: m.numpy.union1d(a, b, size=9, fill_value=0), (A, B)),
        "union1d-mixed": lambda m: (lambda a, b: m.numpy.union1d(a, b, size=4), (A.astype(np.int8), B)),
        "union1d-traced-error": lambda m: (m.numpy.union1d, (A, B)),
        "setdiff1d-size": lambda m: (lambda a, b: m.numpy.setdiff1d(a, b, size=3), (A, B)),
        "setdiff1d-size-fill": lambda m: (lambda a, b: m.numpy.setdiff1d(a, b, size=3, fill_value=-1), (A, B)),
        "setdiff1d-2d": lambda m: (lambda a, b: m.numpy.setdiff1d(a, b, size=2), (ROWS, B)),
        "setdiff1d-traced-error": lambda m: (m.numpy.setdiff1d, (A, B)),
        "setxor1d-size": lambda m: (lambda a, b: m.numpy.setxor1d(a, b, size=8), (A, B)),
        "setxor1d-size-fill": lambda m: (lambda a, b: m.numpy.setxor1d(a, b, size=8, fill_value=0), (A, B)),
        "setxor1d-none": lambda m: (lambda a, b: m.numpy.setxor1d(a, b, size=2), (A, A)),
        "intersect1d-vmap": lambda m: (m.vmap(lambda a: m.numpy.intersect1d(a, B, size=2)), (ROWS,)),
        "setdiff1d-vmap": lambda m: (m.vmap(lambda a: m.numpy.setdiff1d(a, B, size=2)), (ROWS,)),
        "union1d-vmap": lambda m: (m.vmap(lambda a: m.numpy.union1d(a, B, size=5)), (ROWS,)),
        "setxor1d-vmap": lambda m: (m.vmap(lambda a: m.numpy.setxor1d(a, B, size=5)), (ROWS,)),
        "setxor1d-traced-error": lambda m: (m.numpy.setxor1d, (A, B)),
        "setxor1d-assume-unique-traced-error": lambda m: (
            lambda a, b: m.numpy.setxor1d(a, b, assume_unique=True), (A[:3], B)),
        "intersect1d-assume-unique-traced-error": lambda m: (
            lambda a, b: m.numpy.intersect1d(a, b, assume_unique=True), (A[:3], B)),
        "setdiff1d-assume-unique-traced-error": lambda m: (
            lambda a, b: m.numpy.setdiff1d(a, b, assume_unique=True), (A[:3], B)),
        "intersect1d-assume-unique-size": lambda m: (
            lambda a, b: m.numpy.intersect1d(a, b, assume_unique=True, return_indices=True, size=3), (A[:3], B)),
        "setxor1d-assume-unique-size": lambda m: (
            lambda a, b: m.numpy.setxor1d(a, b, assume_unique=True, size=5), (A[:3], B)),
        "setdiff1d-assume-unique-size": lambda m: (
            lambda a, b: m.numpy.setdiff1d(a, b, assume_unique=True, size=2), (A[:3], B)),
    }


CASES = {**_unique_cases(), **_isin_cases(), **_set_cases()}

if __name__ == "__main__":
    jnp_golden.write(CASES, "setops_golden.json")
