"""Golden values of jax.random's multinomial, orthogonal, multivariate_normal, of the threefry scheme under
``jax_threefry_partitionable=False`` and of the ``rbg`` and ``unsafe_rbg`` implementations, for jaxle_random's
tests.

Run with JAX's venv: ``/work/jaxpeer/bin/python make_random_more_golden.py jax`` writes random_more_golden.json.
Cases are built as in make_random_golden.py; key arrays are recorded through ``key_data``, and the
``jaxpr_`` cases record the text ``make_jaxpr`` prints as UTF-8 bytes (``jaxpr_text`` decodes it).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import pathlib
import re
import sys

import numpy as np

_HERE = pathlib.Path(__file__).parent
_spec = importlib.util.spec_from_file_location("make_random_golden", _HERE / "make_random_golden.py")
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

GOLDEN = _HERE / "random_more_golden.json"
# Error cases whose JAX message prints JAX-internal objects (a dimension of its making as ``np.int64(3)``):
# compared by type
TYPE_ONLY_ERRORS = ("error_bernoulli_shape_not_the_result", "error_categorical_shape_not_the_result")
# Error cases whose message names the source line of the implementation's jitted body: compared without it
SOURCE_NAMING_ERRORS = ("error_list_traced_", "error_tuple_traced_")
_SOURCE = re.compile(r" at \S+:\d+ for jit\.")
P3 = np.array([0.2, 0.3, 0.5], np.float32)
COV = np.array([[2.0, 0.6, 0.1], [0.6, 1.0, -0.3], [0.1, -0.3, 0.5]], np.float32)


def namespace(which: str):
    """make_random_golden's namespace, with ``make_jaxpr`` and the flag contexts ``partitionable(bool)`` and
    ``prng_impl(name)``."""
    ns = base.namespace(which)
    top = importlib.import_module("jax" if which == "jax" else "jaxle_core")
    flags = top if which == "jax" else top.config
    ns.partitionable, ns.prng_impl, ns.make_jaxpr = flags.threefry_partitionable, flags.default_prng_impl, \
        top.make_jaxpr
    return ns


def _jaxpr(ns, fun, *args) -> np.ndarray:
    return np.frombuffer(str(ns.make_jaxpr(fun)(*args)).encode(), np.uint8)


def jaxpr_text(record: dict) -> str:
    """The jaxpr text a ``jaxpr_`` case recorded."""
    return bytes.fromhex(record["hex"]).decode()


def _as_tuples(values: list) -> tuple:
    """``values`` with its lists, nested ones included, made tuples."""
    return tuple(_as_tuples(v) if isinstance(v, list) else v for v in values)


def _sequence_calls(sequence) -> dict:
    """Sampler calls given Python sequences (each made by ``sequence`` from a list) as parameters."""
    pair, probabilities, seq = sequence([1.0, 2.0]), sequence([0.5, 0.2]), sequence
    return {
        "traced_gamma": lambda r, k: r.gamma(k, pair), "traced_loggamma": lambda r, k: r.loggamma(k, pair),
        "traced_dirichlet": lambda r, k: r.dirichlet(k, pair),
        "traced_randint": lambda r, k: r.randint(k, (2,), 0, seq([3, 5])),
        "traced_truncated_normal": lambda r, k: r.truncated_normal(k, seq([-1.0, -2.0]), pair),
        "traced_double_sided_maxwell": lambda r, k: r.double_sided_maxwell(k, pair, pair),
        "uniform": lambda r, k: r.uniform(k, (2,), minval=seq([0.0, 1.0])),
        "bernoulli": lambda r, k: r.bernoulli(k, probabilities), "beta": lambda r, k: r.beta(k, pair, pair),
        "chisquare": lambda r, k: r.chisquare(k, pair), "f": lambda r, k: r.f(k, pair, 2.0),
        "t": lambda r, k: r.t(k, pair),
        "pareto": lambda r, k: r.pareto(k, pair), "rayleigh": lambda r, k: r.rayleigh(k, pair),
        "wald": lambda r, k: r.wald(k, pair), "lognormal": lambda r, k: r.lognormal(k, pair),
        "triangular": lambda r, k: r.triangular(k, seq([0.0, 0.0]), seq([0.5, 0.5]), pair),
        "poisson": lambda r, k: r.poisson(k, pair), "binomial": lambda r, k: r.binomial(k, pair, 0.5),
        "geometric": lambda r, k: r.geometric(k, probabilities), "categorical": lambda r, k: r.categorical(k, pair),
        "choice": lambda r, k: r.choice(k, seq([1, 2, 3]), (2,)),
        "choice_p": lambda r, k: r.choice(k, 3, (2,), p=seq([0.2, 0.8, 0.0])),
        "permutation": lambda r, k: r.permutation(k, seq([1, 2, 3])),
        "mvn": lambda r, k: r.multivariate_normal(k, seq([0.0, 0.0]), np.eye(2, dtype=np.float32)),
        "mvn_cov": lambda r, k: r.multivariate_normal(k, np.zeros(2, np.float32), seq([[1.0, 0.0], [0.0, 1.0]])),
        "weibull_min_scale": lambda r, k: r.weibull_min(k, pair, 1.0),
        "weibull_min_concentration": lambda r, k: r.weibull_min(k, 1.0, pair),
        "weibull_min_both": lambda r, k: r.weibull_min(k, pair, pair),
        "generalized_normal": lambda r, k: r.generalized_normal(k, pair),
        "beta_b": lambda r, k: r.beta(k, 1.0, pair), "f_dfden": lambda r, k: r.f(k, 2.0, pair),
        "binomial_p": lambda r, k: r.binomial(k, 5.0, probabilities),
        "multinomial_n": lambda r, k: r.multinomial(k, pair, np.array([0.5, 0.5], np.float32)),
        "multinomial_p": lambda r, k: r.multinomial(k, 3, probabilities),
        "traced_randint_min": lambda r, k: r.randint(k, (2,), seq([0, 1]), 5),
        "traced_truncated_normal_upper": lambda r, k: r.truncated_normal(k, -1.0, pair),
        "traced_double_sided_maxwell_scale": lambda r, k: r.double_sided_maxwell(k, 0.0, pair),
    }


def _cases() -> dict:
    cases = {}

    def case(name, build, x64=False):
        cases[name] = (build, x64)

    def key(ns, seed=0, impl=None):
        return ns.random.key(seed, impl=impl)

    # multinomial
    case("multinomial", lambda ns: ns.random.multinomial(key(ns, 1), 10, P3))
    case("multinomial_float_n", lambda ns: ns.random.multinomial(key(ns, 1), 25.0, P3))
    case("multinomial_int32", lambda ns: ns.random.multinomial(key(ns, 2), 40, P3, dtype="int32"))
    case("multinomial_shape", lambda ns: ns.random.multinomial(
        key(ns, 3), np.array([3.0, 50.0], np.float32), np.array([[0.5, 0.5, 0.0], [0.1, 0.1, 0.8]], np.float32),
        shape=(4, 2, 3)))
    case("multinomial_float16_p", lambda ns: ns.random.multinomial(key(ns, 4), 7, P3.astype(np.float16)))
    case("multinomial_dtype_float16", lambda ns: ns.random.multinomial(key(ns, 4), 7, P3, dtype="float16"))
    case("multinomial_unnormalized", lambda ns: ns.random.multinomial(key(ns, 5), 100, np.array([1.0, 3.0],
                                                                                                   np.float32)))
    case("multinomial_negative_weight", lambda ns: ns.random.multinomial(
        key(ns, 5), 20, np.array([0.5, -0.1, 0.6, 0.2], np.float32)))
    case("multinomial_unroll", lambda ns: ns.random.multinomial(key(ns, 6), 1000, P3, unroll=2))
    case("multinomial_x64", lambda ns: ns.random.multinomial(key(ns, 7), 30, P3.astype(np.float64)), True)
    case("multinomial_jit", lambda ns: ns.jit(lambda k: ns.random.multinomial(k, 12, P3))(key(ns, 8)))
    case("multinomial_vmap", lambda ns: ns.vmap(lambda k: ns.random.multinomial(k, 12, P3))(
        ns.random.split(key(ns, 9), 3)))
    case("multinomial_raw_key", lambda ns: ns.random.multinomial(ns.random.PRNGKey(10), 9, P3))
    case("error_multinomial_scalar_p", lambda ns: ns.random.multinomial(key(ns), 5, np.float32(0.5)))
    case("error_multinomial_shape", lambda ns: ns.random.multinomial(key(ns), 5, P3, shape=(2,)))
    # orthogonal
    case("orthogonal", lambda ns: ns.random.orthogonal(key(ns, 11), 3))
    case("orthogonal_batch", lambda ns: ns.random.orthogonal(key(ns, 12), 3, (2,)))
    case("orthogonal_wide", lambda ns: ns.random.orthogonal(key(ns, 13), 2, m=4))
    case("orthogonal_tall", lambda ns: ns.random.orthogonal(key(ns, 13), 4, m=2))
    case("orthogonal_complex64", lambda ns: ns.random.orthogonal(key(ns, 14), 3, dtype="complex64"))
    case("orthogonal_float64_x64", lambda ns: ns.random.orthogonal(key(ns, 15), 4, dtype="float64"), True)
    case("orthogonal_empty", lambda ns: ns.random.orthogonal(key(ns, 15), 0))
    case("orthogonal_vmap", lambda ns: ns.vmap(lambda k: ns.random.orthogonal(k, 2))(
        ns.random.split(key(ns, 16), 2)))
    case("error_orthogonal_int", lambda ns: ns.random.orthogonal(key(ns), 3, dtype="int32"))
    case("error_orthogonal_negative", lambda ns: ns.random.orthogonal(key(ns), -1))
    # negative sizes: refused where JAX's QR of the draw meets them (args: n, shape, dtype, m)
    negative_sizes = {"m": (3, (), None, -1), "batch": (2, (-1,)), "batch_wide": (2, (-1,), None, 3),
                      "batch_and_m": (3, (2,), None, -1), "n_batched": (-1, (2,)), "empty_batch": (0, (-1,)),
                      "second_batch_axis": (2, (0, -1)), "both": (-3, (), None, -2)}
    for tag, args in negative_sizes.items():
        case(f"error_orthogonal_negative_{tag}", lambda ns, a=args: ns.random.orthogonal(key(ns), *a))
    # multivariate_normal
    for method in ("cholesky", "eigh", "svd"):
        case(f"mvn_{method}", lambda ns, m=method: ns.random.multivariate_normal(
            key(ns, 17), np.array([1.0, -2.0, 0.5], np.float32), COV, (5,), method=m))
    case("mvn_default_shape", lambda ns: ns.random.multivariate_normal(key(ns, 18), np.zeros(3, np.float32), COV))
    case("mvn_batched", lambda ns: ns.random.multivariate_normal(
        key(ns, 19), np.zeros((2, 3), np.float32), np.stack([COV, 2 * COV]), (4, 2)))
    case("mvn_int_cov_float16", lambda ns: ns.random.multivariate_normal(
        key(ns, 20), np.zeros(2, np.float32), np.eye(2, dtype=np.int32), dtype="float16"))
    case("mvn_x64", lambda ns: ns.random.multivariate_normal(key(ns, 21), np.zeros(3), COV.astype(np.float64),
                                                             (2,)), True)
    case("mvn_jit", lambda ns: ns.jit(lambda k, c: ns.random.multivariate_normal(k, np.zeros(3, np.float32), c))(
        key(ns, 22), COV))
    case("error_mvn_mean_scalar", lambda ns: ns.random.multivariate_normal(key(ns), np.float32(0), COV))
    case("error_mvn_cov_vector", lambda ns: ns.random.multivariate_normal(key(ns), np.zeros(2), np.ones(2)))
    case("error_mvn_cov_shape", lambda ns: ns.random.multivariate_normal(key(ns), np.zeros(2), COV))
    case("error_mvn_method", lambda ns: ns.random.multivariate_normal(key(ns), np.zeros(3), COV, method="lu"))
    case("error_mvn_shape", lambda ns: ns.random.multivariate_normal(key(ns), np.zeros((3, 3)), COV, (2,)))
    case("error_mvn_int_dtype", lambda ns: ns.random.multivariate_normal(key(ns), np.zeros(3), COV, dtype="int32"))

    # jax_threefry_partitionable=False
    def sequential(build):
        def run(ns):
            with ns.partitionable(False):
                return build(ns)
        return run

    case("seq_split", sequential(lambda ns: ns.random.split(ns.random.PRNGKey(0))))
    case("seq_split_shape", sequential(lambda ns: ns.random.split(ns.random.PRNGKey(1), (3, 2))))
    case("seq_split_odd", sequential(lambda ns: ns.random.split(ns.random.PRNGKey(1), 3)))
    case("seq_fold_in", sequential(lambda ns: ns.random.fold_in(ns.random.PRNGKey(2), 77)))
    for dtype, size in (("uint8", 7), ("uint16", 5), ("uint32", 5), ("uint8", 8), ("uint32", 1)):
        case(f"seq_bits_{dtype}_{size}", sequential(lambda ns, d=dtype, s=size: ns.random.bits(
            ns.random.PRNGKey(3), (s,), d)))
    case("seq_bits_uint64_x64", sequential(lambda ns: ns.random.bits(ns.random.PRNGKey(3), (2, 3), "uint64")), True)
    case("seq_uniform", sequential(lambda ns: ns.random.uniform(ns.random.PRNGKey(4), (2, 3))))
    case("seq_normal", sequential(lambda ns: ns.random.normal(ns.random.PRNGKey(0), (3,))))
    case("seq_normal_float16", sequential(lambda ns: ns.random.normal(ns.random.PRNGKey(0), (5,), "float16")))
    case("seq_randint", sequential(lambda ns: ns.random.randint(ns.random.PRNGKey(5), (7,), 0, 100)))
    case("seq_gamma", sequential(lambda ns: ns.random.gamma(ns.random.PRNGKey(6), 2.0, (4,))))
    case("seq_permutation", sequential(lambda ns: ns.random.permutation(ns.random.PRNGKey(7), 6)))
    case("seq_jit_normal", sequential(lambda ns: ns.jit(lambda k: ns.random.normal(k, (3,)))(ns.random.PRNGKey(8))))
    case("seq_vmap_bits", sequential(lambda ns: ns.vmap(lambda k: ns.random.bits(k, (3,)))(
        ns.random.split(ns.random.PRNGKey(9), 2))))
    case("seq_typed_split", sequential(lambda ns: ns.random.key_data(ns.random.split(key(ns, 10), 3))))

    # rbg and unsafe_rbg
    for impl in ("rbg", "unsafe_rbg"):
        case(f"{impl}_key", lambda ns, i=impl: ns.random.key_data(key(ns, 3, i)))
        case(f"{impl}_key_x64", lambda ns, i=impl: ns.random.key_data(key(ns, 2 ** 40 + 3, i)), True)
        case(f"{impl}_split", lambda ns, i=impl: ns.random.key_data(ns.random.split(key(ns, 1, i))))
        case(f"{impl}_split_shape", lambda ns, i=impl: ns.random.key_data(ns.random.split(key(ns, 1, i), (2, 3))))
        case(f"{impl}_fold_in", lambda ns, i=impl: ns.random.key_data(ns.random.fold_in(key(ns, 1, i), 5)))
        for dtype in ("uint8", "uint16", "uint32"):
            case(f"{impl}_bits_{dtype}", lambda ns, i=impl, d=dtype: ns.random.bits(key(ns, 2, i), (5,), d))
        case(f"{impl}_bits_uint64_x64", lambda ns, i=impl: ns.random.bits(key(ns, 2, i), (3,), "uint64"), True)
        case(f"{impl}_uniform", lambda ns, i=impl: ns.random.uniform(key(ns, 4, i), (2, 3)))
        case(f"{impl}_normal", lambda ns, i=impl: ns.random.normal(key(ns, 4, i), (4,)))
        case(f"{impl}_randint", lambda ns, i=impl: ns.random.randint(key(ns, 5, i), (6,), 0, 10))
        case(f"{impl}_jit_normal", lambda ns, i=impl: ns.jit(lambda k: ns.random.normal(k, (3,)))(key(ns, 6, i)))
        case(f"{impl}_vmap_bits", lambda ns, i=impl: ns.vmap(lambda k: ns.random.bits(k, (3,)))(
            ns.random.split(key(ns, 7, i), 3)))
        case(f"{impl}_vmap_fold_in", lambda ns, i=impl: ns.random.key_data(ns.vmap(ns.random.fold_in)(
            ns.random.split(key(ns, 8, i), 2), np.array([4, 9], np.uint32))))
        case(f"{impl}_split_sequential", lambda ns, i=impl: sequential(lambda ns: ns.random.key_data(
            ns.random.split(key(ns, 9, i), 3)))(ns))

    def default_rbg(build):
        def run(ns):
            with ns.prng_impl("rbg"):
                return build(ns)
        return run

    case("default_rbg_PRNGKey", default_rbg(lambda ns: ns.random.PRNGKey(3)))
    case("default_rbg_normal", default_rbg(lambda ns: ns.random.normal(ns.random.PRNGKey(3), (2,))))
    case("default_rbg_split", default_rbg(lambda ns: ns.random.split(ns.random.PRNGKey(3))))
    # jaxprs, as make_jaxpr prints them
    cov2 = COV[:2, :2]
    case("jaxpr_orthogonal", lambda ns: _jaxpr(ns, lambda k: ns.random.orthogonal(k, 3), key(ns)))
    case("jaxpr_orthogonal_wide", lambda ns: _jaxpr(ns, lambda k: ns.random.orthogonal(k, 2, (2,), m=3), key(ns)))
    for method in ("cholesky", "eigh", "svd"):
        case(f"jaxpr_mvn_{method}", lambda ns, m=method: _jaxpr(
            ns, lambda k, mean, cov: ns.random.multivariate_normal(k, mean, cov, (3,), method=m), key(ns),
            np.zeros(2, np.float32), cov2))
    case("jaxpr_rbg_split", lambda ns: _jaxpr(ns, ns.random.split, key(ns, 0, "rbg")))
    case("jaxpr_unsafe_rbg_fold_in", lambda ns: _jaxpr(ns, ns.random.fold_in, key(ns, 0, "unsafe_rbg"), np.uint32(3)))
    case("jaxpr_rbg_normal", lambda ns: _jaxpr(ns, lambda k: ns.random.normal(k, (2,)), key(ns, 0, "rbg")))
    # randint with bounds that are not integers (converted to the default integer dtype, truncated and
    # saturated) and with bounds of other integer dtypes than the one drawn
    float_bounds = {
        "float": ((0.0, 10.0), None), "bool": ((True, 3), None), "negative_float": ((-1.5, 3.5), None),
        "huge_float": ((-1e10, 1e10), None), "nan_inf": ((float("nan"), float("inf")), None),
        "int8_float": ((0.0, 300.0), "int8"), "uint8_float": ((-5.5, 300.7), "uint8"),
        "int16_bool": ((False, 9.5), "int16"), "uint32_float": ((0.0, 3e9), "uint32"),
        "uint16_uint32": ((0, np.uint32(3e9)), "uint16"), "int8_int64": ((np.int64(-2 ** 40), 100), "int8"),
        "uint32_uint32": ((np.uint32(5), np.uint32(4e9)), "uint32"),
    }
    for tag, ((low, high), dtype) in float_bounds.items():
        case(f"randint_{tag}", lambda ns, lo=low, hi=high, d=dtype: ns.random.randint(key(ns, 5), (6,), lo, hi, d))
    case("randint_numpy_float_bounds", lambda ns: ns.random.randint(key(ns, 5), (6,), ns.numpy.float32(0.5),
                                                                     ns.numpy.array(9.7)))
    case("randint_complex_bound", lambda ns: ns.random.randint(key(ns, 5), (6,), 1 + 2j, 5))
    case("randint_float_x64", lambda ns: ns.random.randint(key(ns, 5), (6,), 0.0, 1e20), True)
    case("randint_int32_float_x64", lambda ns: ns.random.randint(key(ns, 5), (6,), -0.5, 2 ** 33 + 7, "int32"), True)
    case("randint_uint32_float_x64", lambda ns: ns.random.randint(key(ns, 5), (6,), 0.0, 1e10, "uint32"), True)
    case("randint_int8_wrapping_x64", lambda ns: ns.random.randint(key(ns, 5), (6,), 0, 2 ** 40 + 5, "int8"), True)
    case("randint_jit_float_bounds", lambda ns: ns.jit(lambda k, lo, hi: ns.random.randint(k, (6,), lo, hi, "uint8"))(
        key(ns, 5), np.float32(-2.5), np.float32(200.9)))
    case("randint_vmap_float_bounds", lambda ns: ns.vmap(lambda hi: ns.random.randint(key(ns, 5), (3,), 0.5, hi))(
        np.array([2.5, 7.9, 1e3], np.float32)))
    jaxpr_bounds = {
        "float": ((0.0, 10.0), None, False), "bool": ((True, 3), None, False),
        "int8_float": ((-1.5, 3.5), "int8", False), "uint32": ((0, 10), "uint32", False),
        "uint32_float": ((0.0, 10.0), "uint32", False),
        "uint32_uint32": ((np.uint32(0), np.uint32(10)), "uint32", False),
        "int8_int8": ((np.int8(0), np.int8(7)), None, False),
        "float_x64": ((0.0, 9.5), None, True), "int32_x64": ((0, 2 ** 33 + 7), "int32", True),
        "uint32_float_x64": ((0.0, 10.0), "uint32", True), "uint8_x64": ((0, 7), "uint8", True),
    }
    for tag, ((low, high), dtype, x64) in jaxpr_bounds.items():
        case(f"jaxpr_randint_{tag}", lambda ns, lo=low, hi=high, d=dtype: _jaxpr(
            ns, lambda k: ns.random.randint(k, (4,), lo, hi, d), key(ns)), x64)
    for tag, (low, high, dtype) in {"float": (np.float32(0.5), np.float32(9.7), None),
                                    "uint8_float": (np.float32(0.5), np.float32(9.7), "uint8"),
                                    "int16_bool": (np.bool_(True), np.float32(9.5), "int16")}.items():
        case(f"jaxpr_randint_traced_{tag}", lambda ns, lo=low, hi=high, d=dtype: _jaxpr(
            ns, lambda k, a, b: ns.random.randint(k, (4,), a, b, d), key(ns), lo, hi))
    # a probability given as a Python float prints as given; randint to a narrow dtype clips its bounds first
    case("jaxpr_geometric_python_float", lambda ns: _jaxpr(ns, lambda k: ns.random.geometric(k, 0.3, (3,)), key(ns)))
    case("jaxpr_geometric_python_float_x64", lambda ns: _jaxpr(
        ns, lambda k: ns.random.geometric(k, 0.3, (3,)), key(ns)), True)
    case("jaxpr_geometric_python_int", lambda ns: _jaxpr(ns, lambda k: ns.random.geometric(k, 1, (3,)), key(ns)))
    case("jaxpr_geometric_numpy_float", lambda ns: _jaxpr(
        ns, lambda k: ns.random.geometric(k, np.float32(0.3), (3,)), key(ns)))
    case("jaxpr_randint_int8_negative", lambda ns: _jaxpr(
        ns, lambda k: ns.random.randint(k, (8,), -5, 100, dtype=np.int8), key(ns)))
    case("jaxpr_randint_uint16_bounds_beyond", lambda ns: _jaxpr(
        ns, lambda k: ns.random.randint(k, (4,), -3, 70000, dtype=np.uint16), key(ns)))
    case("geometric_python_int", lambda ns: ns.random.geometric(key(ns, 4), 1, (3,)))
    # binomial converts its parameters inside its jitted body: a Python probability prints as given
    case("jaxpr_binomial_python_p", lambda ns: _jaxpr(ns, lambda k: ns.random.binomial(k, 5.0, 0.3, (3,)), key(ns)))
    case("jaxpr_binomial_float16_p", lambda ns: _jaxpr(
        ns, lambda k: ns.random.binomial(k, np.float32(5.0), np.float16(0.3), (2,)), key(ns)))
    # bernoulli converts its probability after wrapping a raw key; a NumPy one is converted to its canonical dtype
    case("jaxpr_bernoulli_raw_key_traced_p", lambda ns: _jaxpr(
        ns, lambda k, p: ns.random.bernoulli(k, p, (3,)), ns.random.PRNGKey(0), 0.3))
    case("bernoulli_float64_array_p", lambda ns: ns.random.bernoulli(key(ns, 4), np.linspace(0, 1, 5)))
    case("error_bernoulli_longdouble_p", lambda ns: ns.random.bernoulli(key(ns, 4), np.longdouble(0.3)))
    # Python lists and tuples as parameters: refused where JAX refuses them, accepted where it accepts them. The
    # ``traced_`` cases fail inside the jitted body, whose source line the message names.
    for kind, sequence in (("list", list), ("tuple", _as_tuples)):
        for tag, call in _sequence_calls(sequence).items():
            case(f"error_{kind}_{tag}", lambda ns, c=call: c(ns.random, key(ns, 3)))
    odd_sequences = {
        "traced_gamma_empty": lambda r, k: r.gamma(k, []), "traced_gamma_empty_tuple": lambda r, k: r.gamma(k, ()),
        "traced_gamma_none": lambda r, k: r.gamma(k, [None, 1.0]),
        "traced_gamma_array": lambda r, k: r.gamma(k, [np.array([1.0, 2.0], np.float32)]),
        "traced_gamma_bool": lambda r, k: r.gamma(k, [True]),
        "traced_dirichlet_nested": lambda r, k: r.dirichlet(k, [[1.0, 2.0]]),
        "traced_truncated_normal_empty": lambda r, k: r.truncated_normal(k, [], 1.0),
        "uniform_empty": lambda r, k: r.uniform(k, (2,), minval=[]),
        "uniform_empty_tuple": lambda r, k: r.uniform(k, (2,), minval=()),
        "uniform_ints": lambda r, k: r.uniform(k, (2,), minval=[0, 1]),
        "uniform_mixed": lambda r, k: r.uniform(k, (2,), minval=[0, 1.0]),
        "uniform_nested": lambda r, k: r.uniform(k, (2,), minval=[(0.0,), (1.0,)]),
        "uniform_numpy_scalar": lambda r, k: r.uniform(k, (2,), minval=[np.float32(1)]),
        "uniform_maxval": lambda r, k: r.uniform(k, (2,), maxval=[2.0, 3.0]),
        "pareto_empty": lambda r, k: r.pareto(k, []),
    }
    for tag, call in odd_sequences.items():
        case(f"error_list_{tag}", lambda ns, c=call: c(ns.random, key(ns, 3)))
    case("randint_list_bound_int8", lambda ns: ns.random.randint(key(ns, 3), (2,), 0, [3, 5], "int8"))
    # bad shapes, axes and dtypes
    logits = np.zeros((2, 3), np.float32)
    bad_calls = {
        "permutation_axis_out_of_range": lambda r, k: r.permutation(k, np.arange(4), 5),
        "permutation_axis_list": lambda r, k: r.permutation(k, np.arange(4), [0]),
        "permutation_scalar_axis_1": lambda r, k: r.permutation(k, 4, 1),
        "categorical_axis_out_of_range": lambda r, k: r.categorical(k, logits, axis=2),
        "categorical_shape": lambda r, k: r.categorical(k, logits, shape=(4,)),
        "categorical_shape_not_the_result": lambda r, k: r.categorical(k, np.zeros((1, 3), np.float32), axis=0,
                                                                       shape=(1,)),
        "bernoulli_shape": lambda r, k: r.bernoulli(k, np.full(3, 0.5, np.float32), (2,)),
        "bernoulli_shape_not_the_result": lambda r, k: r.bernoulli(k, np.full(3, 0.5, np.float32), (1,)),
        "randint_bound_shape": lambda r, k: r.randint(k, (2,), np.zeros(3, np.int32), 5),
        "randint_negative_shape": lambda r, k: r.randint(k, (-1,), 0, 3),
        "ball_negative_d": lambda r, k: r.ball(k, -1),
        "ball_int_dtype": lambda r, k: r.ball(k, 2, dtype=np.int32),
        "generalized_normal_negative_shape": lambda r, k: r.generalized_normal(k, 2.0, (-2,)),
        "pareto_negative_shape": lambda r, k: r.pareto(k, 2.0, (-1,)),
    }
    for tag, call in bad_calls.items():
        case(f"error_{tag}", lambda ns, c=call: c(ns.random, key(ns, 3)))
    case("permutation_negative_axis", lambda ns: ns.random.permutation(key(ns, 3), np.arange(6).reshape(2, 3), -1))
    case("categorical_axis_0", lambda ns: ns.random.categorical(key(ns, 3), np.log(P3)[:, None] + logits[:1],
                                                                  axis=0))
    # lists where JAX takes shapes are shapes
    shape_calls = {
        "normal": lambda r, k: r.normal(k, [2]), "exponential": lambda r, k: r.exponential(k, [2]),
        "gumbel": lambda r, k: r.gumbel(k, [2]), "laplace": lambda r, k: r.laplace(k, [2]),
        "logistic": lambda r, k: r.logistic(k, [2]), "cauchy": lambda r, k: r.cauchy(k, [2]),
        "rademacher": lambda r, k: r.rademacher(k, [2]), "maxwell": lambda r, k: r.maxwell(k, [2]),
        "generalized_normal": lambda r, k: r.generalized_normal(k, 2.0, [2]),
        "ball": lambda r, k: r.ball(k, 2, 2, [3]), "choice": lambda r, k: r.choice(k, 3, [2]),
        "orthogonal": lambda r, k: r.orthogonal(k, 2, [2]), "randint": lambda r, k: r.randint(k, [2], 0, 5),
        "bits": lambda r, k: r.bits(k, [2]),
    }
    for tag, call in shape_calls.items():
        case(f"list_shape_{tag}", lambda ns, c=call: c(ns.random, key(ns, 3)))
    case("list_shape_split", lambda ns: ns.random.key_data(ns.random.split(key(ns, 3), [2])))
    case("default_rbg_key_impl", default_rbg(lambda ns: np.array(str(ns.random.key_impl(ns.random.key(0))) == "rbg")))
    return cases


CASES = _cases()


def run_case(ns, name: str) -> dict:
    return base.run_case_of(CASES, ns, name)


def implementation_neutral(name: str, record: dict) -> dict:
    """``record`` of case ``name`` as the golden keeps it: a type-only error without its message, a source-naming
    one without the source line it names (both name objects and files of the implementation that ran it)."""
    if name.startswith(TYPE_ONLY_ERRORS):
        return {key: value for key, value in record.items() if key != "message"}
    if name.startswith(SOURCE_NAMING_ERRORS) and "message" in record:
        return {**record, "message": _SOURCE.sub(" at <source> for jit.", record["message"])}
    return record


def _write_implementation_neutral() -> None:
    records = json.loads(GOLDEN.read_text())
    records = {name: implementation_neutral(name, record) for name, record in records.items()}
    GOLDEN.write_text(json.dumps(records, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    base.write_golden(CASES, GOLDEN, namespace(sys.argv[1]))
    _write_implementation_neutral()
