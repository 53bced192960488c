"""Write sparse_random_golden.json: the arrays ``jax.experimental.sparse.random_bcoo`` draws from fixed keys (their
values, indices and flags), one jaxpr and its errors, replayed by test_sparse_random.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_sparse_random_golden.py jax
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden

# name -> (shape, keyword arguments); "key" (a seed, default 0), "generator" (a name in jax.random) and "dtype"
# (a NumPy dtype name) are rebuilt per module
CASES = {
    "fraction": ((3, 4), {"nse": 0.5, "dtype": "float32"}),
    "default_nse": ((5, 6), {"dtype": "float32", "key": 3}),
    "count": ((3, 4), {"nse": 5, "dtype": "float32"}),
    "batch_dense": ((2, 3, 4), {"nse": 2, "n_batch": 1, "n_dense": 1, "dtype": "float32"}),
    "two_batch": ((2, 2, 5), {"nse": 3, "n_batch": 2, "dtype": "float32", "key": 7}),
    "three_sparse": ((2, 3, 4), {"nse": 6, "dtype": "float32", "key": 1}),
    "duplicates_allowed": ((3, 4), {"nse": 5, "unique_indices": False, "dtype": "float32"}),
    "sorted": ((3, 4), {"nse": 5, "sorted_indices": True, "dtype": "float32"}),
    "index_dtype": ((3, 4), {"nse": 5, "indices_dtype": "int8", "dtype": "float32"}),
    "normal": ((4, 4), {"nse": 4, "generator": "normal", "dtype": "float32", "key": 2}),
    "randint": ((3, 4), {"nse": 5, "generator": "randint", "dtype": "int32", "minval": 0, "maxval": 9}),
    "nse_too_large": ((3, 4), {"nse": 12, "dtype": "float32"}),
    "nse_negative": ((3, 4), {"nse": -1, "dtype": "float32"}),
    "bad_layout": ((3, 4), {"n_batch": 2, "n_dense": 1}),
}


def run_case(m, name: str) -> dict:
    """The drawn array (or the error) of one case with module ``m`` as ``jax``."""
    sparse = importlib.import_module(m.__name__ + ".experimental.sparse")
    shape, kwargs = CASES[name]
    kwargs = dict(kwargs)
    key = m.random.key(kwargs.pop("key", 0))
    if "generator" in kwargs:
        kwargs["generator"] = getattr(m.random, kwargs["generator"])
    if "dtype" in kwargs:
        kwargs["dtype"] = np.dtype(kwargs["dtype"])
    try:
        mat = sparse.random_bcoo(key, shape, **kwargs)
    except Exception as e:  # noqa: BLE001 - the error is the result recorded
        return {"error": [type(e).__name__, str(e)]}
    return {"data": np.asarray(mat.data).tolist(), "indices": np.asarray(mat.indices).tolist(),
            "dtypes": [str(mat.data.dtype), str(mat.indices.dtype)], "shape": list(mat.shape),
            "flags": [mat.indices_sorted, mat.unique_indices]}


def jaxpr_text(m) -> str:
    sparse = importlib.import_module(m.__name__ + ".experimental.sparse")
    return str(m.make_jaxpr(lambda k: sparse.random_bcoo(k, (3, 4), nse=5, dtype=np.float32))(m.random.key(0)))


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    golden = {name: run_case(module, name) for name in CASES}
    golden["jaxpr"] = jaxpr_text(module)
    out = pathlib.Path(__file__).parent / "sparse_random_golden.json"
    write_golden(golden, out)
