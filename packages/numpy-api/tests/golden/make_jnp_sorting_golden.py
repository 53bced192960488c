"""Golden records of jnp's sorting functions (sort, argsort, lexsort, partition, argpartition, searchsorted,
sort_complex) from JAX 0.10.2: jaxprs, values, weak types, errors.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_sorting_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

F32 = rand((2, 3), "float32", 0)
SPECIAL = np.array([np.nan, 1.0, -np.inf, -0.0, 0.0, np.inf, -np.nan, 1.0], np.float32)
SORTED = np.array([-1.0, 0.0, 0.0, 2.0, 2.0, 5.0], np.float32)
QUERY = np.array([[-2.0, 0.0], [-0.0, 2.0], [3.0, 9.0]], np.float32)


def _sort_cases():
    return {
        "sort-f32": lambda m: (m.numpy.sort, (F32,)),
        "sort-axis0": lambda m: (lambda a: m.numpy.sort(a, axis=0), (F32,)),
        "sort-axis-none": lambda m: (lambda a: m.numpy.sort(a, axis=None), (F32,)),
        "sort-descending": lambda m: (lambda a: m.numpy.sort(a, descending=True), (F32,)),
        "sort-descending-unstable": lambda m: (lambda a: m.numpy.sort(a, descending=True, stable=False), (F32,)),
        "sort-special": lambda m: (m.numpy.sort, (SPECIAL,)),
        "sort-int": lambda m: (lambda a: m.numpy.sort(a, axis=0), (rand((4, 3), "int32", 1),)),
        "sort-bool": lambda m: (m.numpy.sort, (rand((5,), "bool", 2),)),
        "sort-uint8": lambda m: (m.numpy.sort, (rand((5,), "uint8", 2),)),
        "sort-bf16": lambda m: (m.numpy.sort, (rand((5,), "bfloat16", 3),)),
        "sort-f16": lambda m: (m.numpy.sort, (rand((5,), "float16", 3),)),
        "sort-complex": lambda m: (m.numpy.sort, (np.array([1 + 2j, 1 - 1j, 2j, np.nan, -1j], np.complex64),)),
        "sort-empty": lambda m: (m.numpy.sort, (np.zeros((2, 0), np.float32),)),
        "sort-3d-axis1": lambda m: (lambda a: m.numpy.sort(a, axis=1), (rand((2, 3, 2), "float32", 4),)),
        "sort-weak": lambda m: (lambda a: m.numpy.sort(m.lax.broadcast(2.0, (3,))), (F32[0],)),
        "sort-scalar-error": lambda m: (m.numpy.sort, (np.float32(3.0),)),
        "sort-python-scalar-error": lambda m: (lambda: m.numpy.sort(3.0), ()),
        "sort-list-error": lambda m: (lambda: m.numpy.sort([3, 1]), ()),
        "sort-kind-error": lambda m: (lambda a: m.numpy.sort(a, kind="stable"), (F32,)),
        "sort-order-error": lambda m: (lambda a: m.numpy.sort(a, order="x"), (F32,)),
        "sort-axis-error": lambda m: (lambda a: m.numpy.sort(a, axis=2), (F32,)),
        "sort-axis-float-error": lambda m: (lambda a: m.numpy.sort(a, axis=1.0), (F32,)),
        "sort-vmap": lambda m: (m.vmap(m.numpy.sort), (F32,)),
        "sort-grad": lambda m: (m.grad(lambda a: m.lax.index_in_dim(m.numpy.sort(a), 1, keepdims=False)),
                                (F32[0],)),
    }


def _argsort_cases():
    return {
        "argsort-f32": lambda m: (m.numpy.argsort, (F32,)),
        "argsort-axis0": lambda m: (lambda a: m.numpy.argsort(a, axis=0), (F32,)),
        "argsort-axis-none": lambda m: (lambda a: m.numpy.argsort(a, axis=None), (F32,)),
        "argsort-descending": lambda m: (lambda a: m.numpy.argsort(a, descending=True), (F32,)),
        "argsort-descending-ties": lambda m: (lambda a: m.numpy.argsort(a, descending=True),
                                              (np.array([1, 2, 1, 2, 0], np.int32),)),
        "argsort-descending-unstable": lambda m: (lambda a: m.numpy.argsort(a, descending=True, stable=False),
                                                  (F32,)),
        "argsort-dtype-int16": lambda m: (lambda a: m.numpy.argsort(a, dtype=np.int16), (F32,)),
        "argsort-dtype-float32": lambda m: (lambda a: m.numpy.argsort(a, dtype=np.float32), (F32,)),
        "argsort-special": lambda m: (m.numpy.argsort, (SPECIAL,)),
        "argsort-bool": lambda m: (m.numpy.argsort, (rand((5,), "bool", 2),)),
        "argsort-weak": lambda m: (lambda a: m.numpy.argsort(m.lax.broadcast(2.0, (3,))), (F32[0],)),
        "argsort-kind-error": lambda m: (lambda a: m.numpy.argsort(a, kind="stable"), (F32,)),
        "argsort-scalar-error": lambda m: (m.numpy.argsort, (np.float32(3.0),)),
        "argsort-vmap": lambda m: (m.vmap(m.numpy.argsort, in_axes=1), (F32,)),
    }


def _lexsort_cases():
    a, b = np.array([3, 1, 2, 1], np.int32), np.array([0, 1, 0, 0], np.int32)
    return {
        "lexsort-tuple": lambda m: (lambda x, y: m.numpy.lexsort((x, y)), (a, b)),
        "lexsort-list-mixed": lambda m: (lambda x, y: m.numpy.lexsort([x, y]), (a, b.astype(np.float32))),
        "lexsort-array": lambda m: (m.numpy.lexsort, (F32,)),
        "lexsort-array-axis0": lambda m: (lambda k: m.numpy.lexsort(k, axis=0), (rand((2, 3, 2), "float32", 5),)),
        "lexsort-1d-array": lambda m: (m.numpy.lexsort, (np.array([3.0, 1.0, 2.0], np.float32),)),
        "lexsort-scalar-keys": lambda m: (lambda x: m.numpy.lexsort((x, x)), (np.float32(3.0),)),
        "lexsort-python-scalars": lambda m: (lambda: m.numpy.lexsort((1, 2.0)), ()),
        "lexsort-vmap": lambda m: (m.vmap(lambda x, y: m.numpy.lexsort((x, y))), (F32, F32[::-1].copy())),
        "lexsort-empty-error": lambda m: (lambda: m.numpy.lexsort(()), ()),
        "lexsort-shape-error": lambda m: (lambda x, y: m.numpy.lexsort((x, y)), (a, b[:3])),
        "lexsort-0d-array-error": lambda m: (m.numpy.lexsort, (np.float32(3.0),)),
    }


def _partition_cases():
    x = rand((2, 5), "float32", 6)
    return {
        "partition-last": lambda m: (lambda a: m.numpy.partition(a, 2), (x,)),
        "partition-axis0": lambda m: (lambda a: m.numpy.partition(a, 1, axis=0), (F32,)),
        "partition-kth-negative": lambda m: (lambda a: m.numpy.partition(a, -1), (x,)),
        "partition-3d": lambda m: (lambda a: m.numpy.partition(a, 1, axis=1), (rand((2, 3, 2), "float32", 7),)),
        "partition-3d-axis0": lambda m: (lambda a: m.numpy.partition(a, 0, axis=0),
                                         (rand((3, 2, 2), "float32", 7),)),
        "partition-uint8": lambda m: (lambda a: m.numpy.partition(a, 1), (np.array([3, 1, 0, 2], np.uint8),)),
        "partition-int": lambda m: (lambda a: m.numpy.partition(a, 1), (rand((5,), "int32", 8),)),
        "partition-bool-error": lambda m: (lambda a: m.numpy.partition(a, 1), (rand((3,), "bool", 1),)),
        "partition-complex-error": lambda m: (lambda a: m.numpy.partition(a, 1), (rand((3,), "complex64", 1),)),
        "partition-kth-error": lambda m: (lambda a: m.numpy.partition(a, 3), (F32,)),
        "partition-kth-float-error": lambda m: (lambda a: m.numpy.partition(a, 1.0), (F32,)),
        "argpartition-last": lambda m: (lambda a: m.numpy.argpartition(a, 2), (x[0],)),
        "argpartition-2d": lambda m: (lambda a: m.numpy.argpartition(a, 2), (x,)),
        "argpartition-axis0": lambda m: (lambda a: m.numpy.argpartition(a, 1, axis=0), (F32,)),
        "argpartition-3d": lambda m: (lambda a: m.numpy.argpartition(a, 1, axis=1),
                                      (rand((2, 3, 2), "float32", 7),)),
        "argpartition-uint8": lambda m: (lambda a: m.numpy.argpartition(a, 1), (np.array([3, 1, 0, 2], np.uint8),)),
        "partition-vmap": lambda m: (m.vmap(lambda a: m.numpy.partition(a, 1)), (x,)),
        "argpartition-vmap": lambda m: (m.vmap(lambda a: m.numpy.argpartition(a, 1), in_axes=1), (x,)),
        "argpartition-int": lambda m: (lambda a: m.numpy.argpartition(a, 3), (rand((5,), "int32", 8),)),
    }


def _searchsorted_cases():
    cases = {}
    for method in ("scan", "scan_unrolled", "sort", "compare_all"):
        for side in ("left", "right"):
            cases[f"searchsorted-{method}-{side}"] = (
                lambda m, method=method, side=side: (
                    lambda a, v: m.numpy.searchsorted(a, v, side=side, method=method), (SORTED, QUERY)))
        cases[f"searchsorted-{method}-scalar"] = (
            lambda m, method=method: (lambda a: m.numpy.searchsorted(a, 2.0, method=method), (SORTED,)))
        cases[f"searchsorted-{method}-nan"] = (
            lambda m, method=method: (lambda a, v: m.numpy.searchsorted(a, v, method=method),
                                      (np.array([-np.inf, 0.0, 1.0, np.nan], np.float32),
                                       np.array([np.nan, -0.0, np.inf, -np.nan], np.float32))))
        cases[f"searchsorted-{method}-int"] = (
            lambda m, method=method: (lambda a, v: m.numpy.searchsorted(a, v, side="right", method=method),
                                      (np.array([1, 2, 2, 4], np.int32), np.array([2, 0, 5], np.int32))))
        cases[f"searchsorted-{method}-empty"] = (
            lambda m, method=method: (lambda a, v: m.numpy.searchsorted(a, v, method=method),
                                      (np.zeros(0, np.float32), QUERY)))
    cases.update({
        "searchsorted-sorter": lambda m: (lambda a, v, s: m.numpy.searchsorted(a, v, sorter=s),
                                          (np.array([5.0, 1.0, 3.0], np.float32), QUERY,
                                           np.array([1, 2, 0], np.int32))),
        "searchsorted-int-float": lambda m: (m.numpy.searchsorted, (np.array([1, 2, 3], np.int32),
                                                                   np.array([2.5], np.float32))),
        "searchsorted-complex": lambda m: (m.numpy.searchsorted,
                                           (np.array([1 - 1j, 1 + 0j, 2j + 2], np.complex64),
                                            np.array([1 + 0j, 3 + 0j], np.complex64))),
        "searchsorted-side-error": lambda m: (lambda a, v: m.numpy.searchsorted(a, v, side="x"), (SORTED, QUERY)),
        "searchsorted-method-error": lambda m: (lambda a, v: m.numpy.searchsorted(a, v, method="x"),
                                                (SORTED, QUERY)),
        "searchsorted-2d-error": lambda m: (m.numpy.searchsorted, (QUERY, QUERY)),
        "searchsorted-list-error": lambda m: (lambda a: m.numpy.searchsorted(a, [1.0, 2.0]), (SORTED,)),
        "searchsorted-uint-int": lambda m: (m.numpy.searchsorted, (np.array([1, 2, 3], np.uint8),
                                                                  np.array([2, 0], np.int8))),
        "searchsorted-vmap-sorted": lambda m: (m.vmap(lambda a, v: m.numpy.searchsorted(a, v, method="sort")),
                                               (np.sort(F32, axis=1), F32)),
        "searchsorted-vmap-compare-all": lambda m: (
            m.vmap(lambda a, v: m.numpy.searchsorted(a, v, side="right", method="compare_all"), in_axes=(0, None)),
            (np.sort(F32, axis=1), SORTED)),
        "searchsorted-vmap": lambda m: (m.vmap(m.numpy.searchsorted, in_axes=(None, 0)), (SORTED, QUERY)),
    })
    return cases


def _sort_complex_cases():
    return {
        "sort_complex-f32": lambda m: (m.numpy.sort_complex, (F32,)),
        "sort_complex-int": lambda m: (m.numpy.sort_complex, (np.array([3, 1, 2], np.int32),)),
        "sort_complex-complex": lambda m: (m.numpy.sort_complex, (np.array([1 + 2j, 1 - 1j, 5j], np.complex64),)),
        "sort_complex-bf16": lambda m: (m.numpy.sort_complex, (rand((3,), "bfloat16", 1),)),
        "sort_complex-bool": lambda m: (m.numpy.sort_complex, (rand((3,), "bool", 1),)),
        "sort_complex-scalar-error": lambda m: (m.numpy.sort_complex, (np.float32(1.0),)),
    }


CASES = {**_sort_cases(), **_argsort_cases(), **_lexsort_cases(), **_partition_cases(), **_searchsorted_cases(),
         **_sort_complex_cases()}

if __name__ == "__main__":
    jnp_golden.write(CASES, "jnp_sorting_golden.json")
