"""Write random_gamma_grad_golden.json: the jaxprs JAX 0.10.2 stages for ``lax.random_gamma_grad`` (scalars,
arrays, broadcasting, float16 and float64 operands) and what an eager call with Python scalars gives, replayed by
lax/test_gamma_sample_grad.py.

    /work/jaxpeer/bin/python packages/core/tests/golden/make_random_gamma_grad_golden.py jax
"""

import importlib
import json
import pathlib
import sys

import numpy as np

# name: (a's shape, x's shape, dtype)
CASES = {
    "scalar": ((), (), np.float32),
    "vector": ((3,), (3,), np.float32),
    "scalar_a": ((), (3,), np.float32),
    "float16": ((), (2,), np.float16),
    "float64": ((2,), (2,), np.float64),
}
# name: the operands of an eager call
EAGER_CASES = {
    "python_floats": (1.0, 2.0),
    "python_x": (np.float32(1.0), 2.0),
    "python_a": (1, np.float32(2.0)),
    "numpy_scalars": (np.float32(1.0), np.float32(2.0)),
}


def record(m, a_shape, x_shape, dtype) -> dict:
    lax = m.lax
    try:
        return {"jaxpr": str(m.make_jaxpr(lax.random_gamma_grad)(np.ones(a_shape, dtype), np.ones(x_shape, dtype)))}
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error)}


def record_eager(m, a, x) -> dict:
    try:
        return {"value": float(m.lax.random_gamma_grad(a, x))}
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error)}


def main() -> None:
    m = importlib.import_module(sys.argv[1])
    m.config.update("jax_enable_x64", True)
    records = {name: record(m, *case) for name, case in CASES.items()}
    records.update({name: record_eager(m, *args) for name, args in EAGER_CASES.items()})
    path = pathlib.Path(__file__).parent / "random_gamma_grad_golden.json"
    path.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} cases -> {path}")


if __name__ == "__main__":
    main()
