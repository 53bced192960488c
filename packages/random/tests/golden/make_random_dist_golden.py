"""Golden values of jax.random's closed-form samplers (jaxle_random.distributions) for jaxle_random's tests.

Run with JAX's venv: ``/work/jaxpeer/bin/python make_random_dist_golden.py jax`` writes random_dist_golden.json.
Cases are built as in make_random_golden.py (``build(ns)`` returning an array or raising).
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from make_random_golden import namespace, run_case_of, write_golden  # noqa: E402

GOLDEN = pathlib.Path(__file__).parent / "random_dist_golden.json"
FLOATS = ("float16", "bfloat16", "float32")
NO_PARAMS = ("exponential", "gumbel", "laplace", "logistic", "cauchy", "maxwell")


def _cases() -> dict:
    cases = {}

    def case(name, build, x64=False):
        cases[name] = (build, x64)

    def key(ns, seed=0):
        return ns.random.PRNGKey(seed)

    for name in NO_PARAMS:
        for dtype in FLOATS:
            case(f"{name}_{dtype}", lambda ns, n=name, d=dtype: getattr(ns.random, n)(key(ns, 1), (2, 3), d))
        case(f"{name}_default", lambda ns, n=name: getattr(ns.random, n)(key(ns, 2), (7,)))
        case(f"{name}_scalar", lambda ns, n=name: getattr(ns.random, n)(key(ns, 3)))
        case(f"{name}_float64_x64", lambda ns, n=name: getattr(ns.random, n)(key(ns, 4), (5,), "float64"), True)
        case(f"{name}_jit", lambda ns, n=name: ns.jit(lambda k: getattr(ns.random, n)(k, (4,)))(key(ns, 5)))
        case(f"{name}_vmap", lambda ns, n=name: ns.vmap(lambda k: getattr(ns.random, n)(k, (3,)))(
            ns.random.split(key(ns, 6), 3)))
        case(f"error_{name}_int", lambda ns, n=name: getattr(ns.random, n)(key(ns), (2,), "int32"))
    case("gumbel_high", lambda ns: ns.random.gumbel(key(ns, 7), (8,), mode="high"))
    case("gumbel_high_float16", lambda ns: ns.random.gumbel(key(ns, 7), (8,), "float16", mode="high"))
    case("error_gumbel_mode", lambda ns: ns.random.gumbel(key(ns, 7), (8,), mode="middle"))
    for dtype in ("int32", "int8", "float32", "uint8"):
        case(f"rademacher_{dtype}", lambda ns, d=dtype: ns.random.rademacher(key(ns, 8), (10,), d))
    case("rademacher_default", lambda ns: ns.random.rademacher(key(ns, 8), (10,)))
    case("rademacher_x64", lambda ns: ns.random.rademacher(key(ns, 8), (10,)), True)
    case("rademacher_vmap", lambda ns: ns.vmap(lambda k: ns.random.rademacher(k, (3,)))(
        ns.random.split(key(ns, 6), 2)))
    case("pareto_scalar_b", lambda ns: ns.random.pareto(key(ns, 9), 2.0, (6,)))
    case("pareto_array_b", lambda ns: ns.random.pareto(key(ns, 9), np.array([1.0, 3.0, 0.5], np.float32)))
    case("pareto_float16", lambda ns: ns.random.pareto(key(ns, 9), 2.0, (6,), "float16"))
    case("pareto_x64", lambda ns: ns.random.pareto(key(ns, 9), 2.0, (6,)), True)
    case("error_pareto_shape", lambda ns: ns.random.pareto(key(ns, 9), np.ones(3, np.float32), (2,)))
    case("weibull_min", lambda ns: ns.random.weibull_min(key(ns, 10), 2.0, 3.0, (6,)))
    case("weibull_min_arrays", lambda ns: ns.random.weibull_min(key(ns, 10), np.array([1.0, 2.0], np.float32),
                                                                 np.array([[0.5], [4.0]], np.float32), (2, 2)))
    case("weibull_min_bfloat16", lambda ns: ns.random.weibull_min(key(ns, 10), 2.0, 3.0, (6,), "bfloat16"))
    case("weibull_min_x64", lambda ns: ns.random.weibull_min(key(ns, 10), 2.0, 3.0, (6,)), True)
    case("rayleigh", lambda ns: ns.random.rayleigh(key(ns, 11), 2.0, (6,)))
    case("rayleigh_array", lambda ns: ns.random.rayleigh(key(ns, 11), np.array([1.0, 5.0], np.float32)))
    case("rayleigh_float16", lambda ns: ns.random.rayleigh(key(ns, 11), 2.0, (6,), "float16"))
    case("rayleigh_x64", lambda ns: ns.random.rayleigh(key(ns, 11), 2.0, (6,)), True)
    case("lognormal_default", lambda ns: ns.random.lognormal(key(ns, 12), shape=(6,)))
    case("lognormal_sigma", lambda ns: ns.random.lognormal(key(ns, 12), 0.5, (6,)))
    case("lognormal_array", lambda ns: ns.random.lognormal(key(ns, 12), np.array([0.1, 2.0], np.float32)))
    case("lognormal_scalar", lambda ns: ns.random.lognormal(key(ns, 12)))
    case("lognormal_x64", lambda ns: ns.random.lognormal(key(ns, 12), 0.5, (6,)), True)
    case("maxwell_shape2", lambda ns: ns.random.maxwell(key(ns, 13), (2, 3)))
    case("dsm", lambda ns: ns.random.double_sided_maxwell(key(ns, 14), 1.0, 2.0, (6,)))
    case("dsm_arrays", lambda ns: ns.random.double_sided_maxwell(key(ns, 14), np.array([0.0, 5.0], np.float32),
                                                                  1.5, (3, 2)))
    case("dsm_float16", lambda ns: ns.random.double_sided_maxwell(key(ns, 14), 1.0, 2.0, (6,), "float16"))
    case("dsm_x64", lambda ns: ns.random.double_sided_maxwell(key(ns, 14), 1.0, 2.0, (6,)), True)
    case("geometric", lambda ns: ns.random.geometric(key(ns, 15), 0.3, (10,)))
    case("geometric_array_p", lambda ns: ns.random.geometric(key(ns, 15), np.array([0.01, 0.5, 0.99], np.float32)))
    case("geometric_int8", lambda ns: ns.random.geometric(key(ns, 15), 0.3, (10,), "int8"))
    case("geometric_x64", lambda ns: ns.random.geometric(key(ns, 15), 0.3, (10,)), True)
    case("geometric_vmap_p", lambda ns: ns.vmap(lambda p: ns.random.geometric(key(ns, 15), p, (4,)))(
        np.array([0.2, 0.7], np.float32)))
    case("triangular", lambda ns: ns.random.triangular(key(ns, 16), 0.0, 0.3, 1.0, (8,)))
    case("triangular_arrays", lambda ns: ns.random.triangular(key(ns, 16), np.array([-1.0, 0.0], np.float32), 0.5,
                                                               np.array([[1.0], [3.0]], np.float32)))
    case("triangular_float16", lambda ns: ns.random.triangular(key(ns, 16), 0.0, 0.3, 1.0, (8,), "float16"))
    case("triangular_x64", lambda ns: ns.random.triangular(key(ns, 16), 0.0, 0.3, 1.0, (8,)), True)
    case("triangular_jit", lambda ns: ns.jit(lambda k: ns.random.triangular(k, -2.0, 0.0, 2.0, (5,)))(key(ns, 16)))
    case("truncated_normal", lambda ns: ns.random.truncated_normal(key(ns, 17), -1.0, 2.0, (8,)))
    case("truncated_normal_arrays", lambda ns: ns.random.truncated_normal(
        key(ns, 17), np.array([-3.0, 0.5], np.float32), np.array([[0.0], [4.0]], np.float32)))
    case("truncated_normal_float16", lambda ns: ns.random.truncated_normal(key(ns, 17), -1.0, 2.0, (8,), "float16"))
    case("truncated_normal_x64", lambda ns: ns.random.truncated_normal(key(ns, 17), -1.0, 2.0, (8,)), True)
    case("truncated_normal_narrow", lambda ns: ns.random.truncated_normal(key(ns, 17), 5.0, 5.0001, (8,)))
    case("truncated_normal_vmap", lambda ns: ns.vmap(lambda k: ns.random.truncated_normal(k, 0.0, 1.0, (3,)))(
        ns.random.split(key(ns, 6), 2)))
    case("wald", lambda ns: ns.random.wald(key(ns, 18), 2.0, (8,)))
    case("wald_array", lambda ns: ns.random.wald(key(ns, 18), np.array([0.5, 1.0, 7.0], np.float32)))
    case("wald_float16", lambda ns: ns.random.wald(key(ns, 18), 2.0, (8,), "float16"))
    case("wald_x64", lambda ns: ns.random.wald(key(ns, 18), 2.0, (8,)), True)
    for n in (0, 1, 5, 300, 1700):
        case(f"permutation_int_{n}", lambda ns, n=n: ns.random.permutation(key(ns, 19), n))
    case("permutation_int_x64", lambda ns: ns.random.permutation(key(ns, 19), 9), True)
    case("permutation_array", lambda ns: ns.random.permutation(key(ns, 19), np.arange(12.0).reshape(4, 3)))
    case("permutation_axis1", lambda ns: ns.random.permutation(key(ns, 19), np.arange(12).reshape(3, 4), axis=1))
    case("permutation_independent", lambda ns: ns.random.permutation(key(ns, 19), np.arange(12).reshape(3, 4),
                                                                       axis=-1, independent=True))
    case("permutation_1d", lambda ns: ns.random.permutation(key(ns, 19), np.array([5, 1, 9, 2], np.int8)))
    case("permutation_jit", lambda ns: ns.jit(lambda k: ns.random.permutation(k, 6))(key(ns, 20)))
    case("permutation_vmap", lambda ns: ns.vmap(lambda k: ns.random.permutation(k, 6))(
        ns.random.split(key(ns, 20), 3)))
    case("error_permutation_float", lambda ns: ns.random.permutation(key(ns, 19), 2.5))
    arr = np.arange(12, dtype=np.float32).reshape(4, 3)
    weights = np.array([0.1, 0.0, 0.5, 0.15, 0.25], np.float32)
    case("choice_int", lambda ns: ns.random.choice(key(ns, 21), 5, (6,)))
    case("choice_int_x64", lambda ns: ns.random.choice(key(ns, 21), 5, (6,)), True)
    case("choice_scalar", lambda ns: ns.random.choice(key(ns, 21), 7))
    case("choice_no_replace", lambda ns: ns.random.choice(key(ns, 21), 7, (2, 3), replace=False))
    case("choice_array", lambda ns: ns.random.choice(key(ns, 21), arr, (5,)))
    case("choice_array_axis1", lambda ns: ns.random.choice(key(ns, 21), arr, (2,), axis=1))
    case("choice_array_no_replace", lambda ns: ns.random.choice(key(ns, 21), arr, (3,), replace=False))
    case("choice_p", lambda ns: ns.random.choice(key(ns, 21), 5, (10,), p=weights))
    case("choice_p_x64", lambda ns: ns.random.choice(key(ns, 21), 5, (10,), p=weights), True)
    case("choice_p_no_replace", lambda ns: ns.random.choice(key(ns, 21), 5, (4,), replace=False, p=weights))
    case("choice_p_array", lambda ns: ns.random.choice(key(ns, 21), arr, (2, 2), p=weights[:4] / weights[:4].sum()))
    case("choice_empty", lambda ns: ns.random.choice(key(ns, 21), 5, (0,)))
    case("choice_jit", lambda ns: ns.jit(lambda k: ns.random.choice(k, 9, (4,), replace=False))(key(ns, 22)))
    case("choice_vmap", lambda ns: ns.vmap(lambda k: ns.random.choice(k, arr, (2,)))(ns.random.split(key(ns, 22), 2)))
    case("error_choice_too_many", lambda ns: ns.random.choice(key(ns, 21), 3, (5,), replace=False))
    case("error_choice_p_shape", lambda ns: ns.random.choice(key(ns, 21), 5, (3,), p=np.ones(4, np.float32) / 4))
    case("error_choice_axis", lambda ns: ns.random.choice(key(ns, 21), arr, axis=3))
    case("error_choice_nonpositive", lambda ns: ns.random.choice(key(ns, 21), -1))
    logits = np.log(np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1]], np.float32))
    case("categorical", lambda ns: ns.random.categorical(key(ns, 23), logits))
    case("categorical_axis0", lambda ns: ns.random.categorical(key(ns, 23), logits, axis=0))
    case("categorical_shape", lambda ns: ns.random.categorical(key(ns, 23), logits, shape=(3, 2)))
    case("categorical_1d", lambda ns: ns.random.categorical(key(ns, 23), logits[0], shape=(7,)))
    case("categorical_x64", lambda ns: ns.random.categorical(key(ns, 23), logits, shape=(3, 2)), True)
    case("categorical_float16", lambda ns: ns.random.categorical(key(ns, 23), logits.astype(np.float16)))
    case("categorical_no_replace", lambda ns: ns.random.categorical(key(ns, 23), logits, shape=(3, 2),
                                                                     replace=False))
    case("categorical_no_replace_axis0", lambda ns: ns.random.categorical(key(ns, 23), logits.T, axis=0,
                                                                           shape=(2, 1, 2), replace=False))
    case("categorical_no_replace_default", lambda ns: ns.random.categorical(key(ns, 23), logits, replace=False))
    case("categorical_high", lambda ns: ns.random.categorical(key(ns, 23), logits, mode="high"))
    case("categorical_vmap", lambda ns: ns.vmap(lambda k: ns.random.categorical(k, logits))(
        ns.random.split(key(ns, 24), 3)))
    case("error_categorical_too_many", lambda ns: ns.random.categorical(key(ns, 23), logits, shape=(5, 2),
                                                                         replace=False))
    case("ball", lambda ns: ns.random.ball(key(ns, 25), 3, 2, (4,)))
    case("ball_p1", lambda ns: ns.random.ball(key(ns, 25), 2, 1, (3,)))
    case("ball_p_float", lambda ns: ns.random.ball(key(ns, 25), 2, 2.5))
    case("ball_float16", lambda ns: ns.random.ball(key(ns, 25), 3, 2, (2,), "float16"))
    case("ball_x64", lambda ns: ns.random.ball(key(ns, 25), 3, 2, (2,)), True)
    case("error_ball_d", lambda ns: ns.random.ball(key(ns, 25), 1.5))
    return cases


CASES = _cases()


def run_case(ns, name: str) -> dict:
    return run_case_of(CASES, ns, name)


if __name__ == "__main__":
    write_golden(CASES, GOLDEN, namespace(sys.argv[1]))
