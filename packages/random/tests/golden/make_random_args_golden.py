"""Golden errors and warnings of jax.random's samplers given arguments of odd types, for jaxle_random's tests.

Run with JAX's venv: ``/work/jaxpeer/bin/python make_random_args_golden.py jax`` writes random_args_golden.json.
Every sampler gets, in each of its parameters in turn, a dict, an empty dict, a set, a string and None, and as its
``dtype`` a list, a tuple, a dict, a set and a string that names no dtype; the cases JAX refuses are kept, with
their exception's type and message (the address of a function a message prints made ``0x?``). The ``warn_`` cases
ask each sampler for a 64-bit dtype with x64 off and record the warnings (category, message, and whether the warning
names the line that called the sampler: ``run_wide_case``'s own, whichever implementation runs it), then the error
the same call raises under ``jax_explicit_x64_dtypes="error"``. The ``jaxpr_`` cases record the text ``make_jaxpr``
prints for samplers given Python scalars (weakly typed parameters).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import re
import sys
import warnings
from types import SimpleNamespace

import numpy as np

GOLDEN = pathlib.Path(__file__).parent / "random_args_golden.json"
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")
P2 = np.array([0.5, 0.5], np.float32)

# each sampler's arguments beside the key: the odd values replace one at a time
SAMPLERS = {
    "normal": {"shape": (2,)}, "uniform": {"shape": (2,), "minval": 0.0, "maxval": 1.0}, "bits": {"shape": (2,)},
    "exponential": {"shape": (2,)}, "gumbel": {"shape": (2,)}, "laplace": {"shape": (2,)},
    "logistic": {"shape": (2,)}, "cauchy": {"shape": (2,)}, "rademacher": {"shape": (2,)}, "maxwell": {"shape": (2,)},
    "double_sided_maxwell": {"loc": 0.0, "scale": 1.0, "shape": (2,)},
    "weibull_min": {"scale": 1.0, "concentration": 1.0, "shape": (2,)},
    "generalized_normal": {"p": 2.0, "shape": (2,)}, "ball": {"d": 2, "p": 2, "shape": (2,)},
    "bernoulli": {"p": 0.5, "shape": (2,)}, "beta": {"a": 1.0, "b": 1.0, "shape": (2,)},
    "binomial": {"n": 5.0, "p": 0.5, "shape": (2,)},
    "categorical": {"logits": np.zeros(3, np.float32), "axis": -1, "shape": (2,)},
    "chisquare": {"df": 2.0, "shape": (2,)}, "choice": {"a": 3, "shape": (2,)},
    "dirichlet": {"alpha": np.ones(2, np.float32), "shape": (2,)}, "f": {"dfnum": 2.0, "dfden": 2.0, "shape": (2,)},
    "gamma": {"a": 2.0, "shape": (2,)}, "loggamma": {"a": 2.0, "shape": (2,)}, "geometric": {"p": 0.5, "shape": (2,)},
    "lognormal": {"sigma": 1.0, "shape": (2,)}, "multinomial": {"n": 3, "p": P2},
    "multivariate_normal": {"mean": np.zeros(2, np.float32), "cov": np.eye(2, dtype=np.float32)},
    "orthogonal": {"n": 2, "shape": (2,)}, "pareto": {"b": 2.0, "shape": (2,)}, "permutation": {"x": 3},
    "poisson": {"lam": 2.0, "shape": (2,)}, "randint": {"shape": (2,), "minval": 0, "maxval": 5},
    "rayleigh": {"scale": 1.0, "shape": (2,)}, "t": {"df": 2.0, "shape": (2,)},
    "triangular": {"left": 0.0, "mode": 0.5, "right": 1.0, "shape": (2,)},
    "truncated_normal": {"lower": -1.0, "upper": 1.0, "shape": (2,)}, "wald": {"mean": 1.0, "shape": (2,)},
    "fold_in": {"data": 1},
}
NO_DTYPE = ("bernoulli", "fold_in", "permutation")
ODD_VALUES = {"dict": {"a": 1}, "empty_dict": {}, "set": {1, 2}, "str": "ab", "none": None}
ODD_DTYPES = {"list": ["float32"], "tuple": ("float32",), "dict": {"a": 1}, "set": {1}, "str": "ab"}
# a 64-bit dtype each sampler is asked for (its kind: float, complex, unsigned or signed integer)
WIDE_DTYPES = {"bits": "uint64", "randint": "int64", "rademacher": "int64", "geometric": "int64",
               "poisson": "int64", "categorical": None, "choice": None}


def namespace(which: str) -> SimpleNamespace:
    """``random``, the x64 flag context and the ``explicit_x64_dtypes`` setter of JAX (``jax``) or jaxle."""
    if which == "jax":
        jax = importlib.import_module(which)
        return SimpleNamespace(random=jax.random, enable_x64=jax.enable_x64, make_jaxpr=jax.make_jaxpr,
                               explicit_x64=lambda mode: jax.config.update("jax_explicit_x64_dtypes", mode))
    core = importlib.import_module("jaxle_core")
    return SimpleNamespace(random=importlib.import_module("jaxle_random"), enable_x64=core.config.enable_x64,
                           make_jaxpr=core.make_jaxpr,
                           explicit_x64=lambda mode: core.config.config.update("jax_explicit_x64_dtypes", mode))


def _call(ns: SimpleNamespace, sampler: str, arguments: dict):
    return getattr(ns.random, sampler)(ns.random.key(0), **arguments)


def _cases() -> dict:
    cases = {}
    for sampler, arguments in SAMPLERS.items():
        for name in arguments:
            for tag, value in ODD_VALUES.items():
                cases[f"{sampler}_{name}_{tag}"] = (sampler, {**arguments, name: value})
        if sampler not in NO_DTYPE:
            for tag, value in ODD_DTYPES.items():
                cases[f"{sampler}_dtype_{tag}"] = (sampler, {**arguments, "dtype": value})
    return cases


CASES = _cases()
WIDE_CASES = {sampler: {**arguments, "dtype": WIDE_DTYPES.get(sampler, "float64")}
              for sampler, arguments in SAMPLERS.items() if sampler not in NO_DTYPE and WIDE_DTYPES.get(
                  sampler, "float64") is not None}
WIDE_CASES["normal_complex128"] = {"shape": (2,), "dtype": "complex128"}
JAXPR_CASES = {
    "binomial_python_floats": lambda r, k: r.binomial(k, 10.0, 0.3),
    "binomial_python_int_count": lambda r, k: r.binomial(k, 20, np.float32(0.6), (2,)),
}


def run_case(ns: SimpleNamespace, name: str) -> dict:
    """The exception case ``name`` raises (type and message), or ``{}`` when it raises none."""
    sampler, arguments = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            _call(ns, sampler, arguments)
        except Exception as error:  # noqa: BLE001 - the golden records which exception a case raises
            return {"error": type(error).__name__, "message": _ADDRESS.sub(" at 0x?", str(error))}
    return {}


def run_wide_case(ns: SimpleNamespace, name: str) -> dict:
    """The warnings sampler ``name`` gives for a 64-bit dtype with x64 off, and the error it raises under
    ``jax_explicit_x64_dtypes="error"``."""
    sampler = name.split("_complex")[0]
    with ns.enable_x64(False), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        getattr(ns.random, sampler)(ns.random.key(0), **WIDE_CASES[name])  # the line each warning should name
        here = sys._getframe().f_lineno - 1
    record = {"warnings": [[w.category.__name__, str(w.message), w.filename == __file__ and w.lineno == here]
                           for w in caught]}
    ns.explicit_x64("error")
    try:
        with ns.enable_x64(False):
            getattr(ns.random, sampler)(ns.random.key(0), **WIDE_CASES[name])
    except Exception as error:  # noqa: BLE001 - the golden records which exception a case raises
        record["error"] = [type(error).__name__, str(error)]
    finally:
        ns.explicit_x64("warn")
    return record


def run_jaxpr_case(ns: SimpleNamespace, name: str) -> str:
    """The jaxpr ``make_jaxpr`` prints for case ``name``."""
    return str(ns.make_jaxpr(lambda k: JAXPR_CASES[name](ns.random, k))(ns.random.key(0)))


def main(which: str) -> None:
    ns = namespace(which)
    records = {name: record for name in CASES if (record := run_case(ns, name))}
    records.update({f"warn_{name}": run_wide_case(ns, name) for name in WIDE_CASES})
    records.update({f"jaxpr_{name}": run_jaxpr_case(ns, name) for name in JAXPR_CASES})
    GOLDEN.write_text(json.dumps(records, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
