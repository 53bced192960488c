"""Golden values of jax.random's typed keys, and the jaxprs of the key functions and samplers.

Run with JAX's venv: ``/work/jaxpeer/bin/python make_random_keys_golden.py jax`` writes random_keys_golden.json.
Each case is ``build(ns)`` returning an array, a typed key array (recorded as its dtype name and key data), a
string (a printed jaxpr, ``repr``), or raising. ``ns`` is make_random_golden's namespace with ``make_jaxpr``,
``lax``, ``dtypes``, ``grad`` and ``jvp`` added.
"""

from __future__ import annotations

import contextlib
import importlib
import pathlib
import sys
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from make_random_golden import encode, namespace  # noqa: E402

GOLDEN = pathlib.Path(__file__).parent / "random_keys_golden.json"


def keys_namespace(which: str) -> SimpleNamespace:
    ns = namespace(which)
    top = importlib.import_module(which if which == "jax" else "jaxle_core")
    ns.make_jaxpr, ns.lax, ns.dtypes = top.make_jaxpr, top.lax, top.dtypes
    ns.grad, ns.jvp = top.grad, top.jvp
    return ns


def _text(ns: SimpleNamespace, fun, *args) -> str:
    return str(ns.make_jaxpr(fun)(*args))


# Samplers whose jaxprs the suite records: name -> the call after the key (``ns`` gives random).
SAMPLER_CALLS = {
    "uniform": lambda r, k: r.uniform(k, (2, 3)),
    "uniform_scalar": lambda r, k: r.uniform(k),
    "normal": lambda r, k: r.normal(k, (3,)),
    "normal_scalar": lambda r, k: r.normal(k),
    "bits": lambda r, k: r.bits(k, (3,)),
    "randint": lambda r, k: r.randint(k, (2,), 0, 5),
    "bernoulli": lambda r, k: r.bernoulli(k, 0.3, (4,)),
    "exponential": lambda r, k: r.exponential(k, (3,)),
    "gumbel": lambda r, k: r.gumbel(k, (3,)),
    "laplace": lambda r, k: r.laplace(k, (3,)),
    "logistic": lambda r, k: r.logistic(k, (3,)),
    "cauchy": lambda r, k: r.cauchy(k, (3,)),
    "rademacher": lambda r, k: r.rademacher(k, (3,)),
    "maxwell": lambda r, k: r.maxwell(k, (3,)),
    "double_sided_maxwell": lambda r, k: r.double_sided_maxwell(k, 0.0, 1.0, (3,)),
    "truncated_normal": lambda r, k: r.truncated_normal(k, -1.0, 1.0, (3,)),
    "pareto": lambda r, k: r.pareto(k, 2.0, (3,)),
    "weibull_min": lambda r, k: r.weibull_min(k, 1.0, 2.0, (3,)),
    "rayleigh": lambda r, k: r.rayleigh(k, 1.0, (3,)),
    "wald": lambda r, k: r.wald(k, 1.0, (3,)),
    "geometric": lambda r, k: r.geometric(k, 0.5, (3,)),
    "lognormal": lambda r, k: r.lognormal(k, 1.0, (3,)),
    "triangular": lambda r, k: r.triangular(k, 0.0, 0.5, 1.0, (3,)),
    "generalized_normal": lambda r, k: r.generalized_normal(k, 2.0, (3,)),
    "gamma": lambda r, k: r.gamma(k, 2.0, (3,)),
    "loggamma": lambda r, k: r.loggamma(k, 2.0, (3,)),
    "beta": lambda r, k: r.beta(k, 2.0, 3.0, (3,)),
    "dirichlet": lambda r, k: r.dirichlet(k, np.array([1.0, 2.0], np.float32)),
    "chisquare": lambda r, k: r.chisquare(k, 3.0, (3,)),
    "f": lambda r, k: r.f(k, 3.0, 4.0, (3,)),
    "t": lambda r, k: r.t(k, 3.0, (3,)),
    "poisson": lambda r, k: r.poisson(k, 3.0, (3,)),
    "binomial": lambda r, k: r.binomial(k, 5.0, 0.5, (3,)),
    "choice": lambda r, k: r.choice(k, 5, (3,)),
    "choice_no_replace": lambda r, k: r.choice(k, 5, (3,), replace=False),
    "choice_p": lambda r, k: r.choice(k, 3, (2,), p=np.array([0.2, 0.3, 0.5], np.float32)),
    "permutation": lambda r, k: r.permutation(k, 5),
    "categorical": lambda r, k: r.categorical(k, np.zeros((2, 3), np.float32)),
    "ball": lambda r, k: r.ball(k, 2, shape=(3,)),
    "multinomial": lambda r, k: r.multinomial(k, 10, np.array([0.2, 0.3, 0.5], np.float32)),
    "multinomial_shape": lambda r, k: r.multinomial(k, 10.0, np.array([0.2, 0.3, 0.5], np.float32), shape=(2, 3)),
}


# With a raw key a sampler's jaxpr is the typed one after a random_wrap: recorded for these only (the file
# stays small).
RAW_KEY_SAMPLERS = ("uniform", "uniform_scalar", "normal", "normal_scalar", "bits", "randint", "bernoulli", "gamma")


def _cases() -> dict:
    cases = {}

    def case(name, build, x64=False):
        cases[name] = (build, x64)

    # typed keys: values, key arrays, reprs
    for x64 in (False, True):
        tag = "_x64" if x64 else ""
        for seed in (0, 42, -1, 2 ** 40 + 5):
            case(f"key_{seed}{tag}", lambda ns, s=seed: ns.random.key(s), x64)
    case("key_impl_named", lambda ns: ns.random.key(5, impl="threefry2x32"))
    case("key_dtype_given", lambda ns: ns.random.key(5, dtype=ns.random.key_dtype()))
    case("key_repr", lambda ns: repr(ns.random.key(0)))
    case("key_array_repr", lambda ns: repr(ns.random.split(ns.random.key(0), (2, 2))))
    case("key_format", lambda ns: f"{ns.random.key(0)}|{ns.random.split(ns.random.key(1))}")
    case("error_key_format_spec", lambda ns: format(ns.random.key(0), ">5"))
    case("key_dtype_name", lambda ns: f"{ns.random.key(0).dtype} {ns.random.key_dtype('threefry2x32')}")
    case("key_impl_name", lambda ns: ns.random.key_impl(ns.random.key(0)) + " " + ns.random.key_impl(
        ns.random.PRNGKey(0)))
    case("key_issubdtype", lambda ns: str((ns.numpy.issubdtype(ns.random.key(0).dtype, ns.dtypes.prng_key),
                                           ns.numpy.issubdtype(ns.random.key(0).dtype, ns.dtypes.extended),
                                           ns.numpy.issubdtype(ns.random.key(0).dtype, np.integer))))
    case("key_typeof", lambda ns: repr(ns.make_jaxpr(lambda k: k)(ns.random.key(0)).in_avals[0]))
    case("split_typed", lambda ns: ns.random.split(ns.random.key(7), 5))
    case("split_typed_shape", lambda ns: ns.random.split(ns.random.key(7), (2, 3)))
    case("fold_in_typed", lambda ns: ns.random.fold_in(ns.random.key(3), 12345))
    case("bits_typed", lambda ns: ns.random.bits(ns.random.key(5), (4,)))
    case("randint_typed", lambda ns: ns.random.randint(ns.random.key(5), (6,), -3, 50))
    case("bernoulli_typed", lambda ns: ns.random.bernoulli(ns.random.key(5), 0.4, (8,)))
    case("key_data", lambda ns: ns.random.key_data(ns.random.split(ns.random.key(1), 3)))
    case("key_data_raw", lambda ns: ns.random.key_data(ns.random.PRNGKey(1)))
    case("wrap_key_data", lambda ns: ns.random.wrap_key_data(np.array([[1, 2], [3, 4]], np.uint32)))
    case("clone_typed", lambda ns: ns.random.clone(ns.random.key(9)))
    case("clone_raw", lambda ns: ns.random.clone(ns.random.PRNGKey(9)))
    case("key_array_index", lambda ns: ns.random.split(ns.random.key(2), 4)[1])
    case("key_array_slice", lambda ns: ns.random.split(ns.random.key(2), 4)[1:3])
    case("key_array_reshape_T", lambda ns: ns.random.split(ns.random.key(2), 6).reshape(2, 3).T)
    case("key_array_attrs", lambda ns: str([(k.shape, k.ndim, k.size, len(k)) for k in [ns.random.split(
        ns.random.key(2), (2, 3))]]))
    case("key_array_gather", lambda ns: ns.random.split(ns.random.key(2), 4)[np.array([3, 0])])
    case("key_array_eq", lambda ns: ns.random.split(ns.random.key(2), 4) == ns.random.split(ns.random.key(2), 4)[1])
    case("key_array_ne", lambda ns: ns.random.split(ns.random.key(2), 3) != ns.random.key(2))
    case("key_array_stack", lambda ns: ns.numpy.stack([ns.random.key(1), ns.random.key(2)]))
    case("key_array_concatenate", lambda ns: ns.numpy.concatenate([ns.random.split(ns.random.key(1), 2)] * 2))
    case("key_array_where", lambda ns: ns.numpy.where(np.array([True, False]), ns.random.split(ns.random.key(1), 2),
                                                      ns.random.key(3)))
    # updates of key arrays: set alone combines keys (JAX's other updates fail in NumPy, on its key dtype)
    for method in ("add", "subtract", "multiply", "min", "max", "divide", "power"):
        case(f"error_key_at_{method}", lambda ns, m=method: getattr(
            ns.random.split(ns.random.key(1), 3).at[0], m)(ns.random.key(2)))
    case("key_at_set", lambda ns: ns.random.split(ns.random.key(1), 3).at[0].set(ns.random.key(2)))
    case("error_key_at_set_int", lambda ns: ns.random.split(ns.random.key(1), 3).at[0].set(1))
    case("error_key_at_add_int", lambda ns: ns.random.split(ns.random.key(1), 3).at[0].add(1))
    case("error_key_at_set_float", lambda ns: ns.random.split(ns.random.key(1), 3).at[0].set(1.0))
    case("error_key_at_add_uint32", lambda ns: ns.random.split(ns.random.key(1), 3).at[0].add(np.uint32(1)))
    case("error_jit_key_at_add", lambda ns: ns.jit(lambda k, v: k.at[0].add(v))(
        ns.random.split(ns.random.key(1), 3), ns.random.key(2)))
    case("error_key_scatter_add", lambda ns: ns.lax.scatter_add(
        ns.random.split(ns.random.key(1), 3), np.array([[0]]), ns.random.split(ns.random.key(2), 1),
        ns.lax.ScatterDimensionNumbers((), (0,), (0,))))
    case("jit_key_in_out", lambda ns: ns.jit(lambda k: ns.random.split(k, 3))(ns.random.key(12)))
    case("jit_key_seed", lambda ns: ns.jit(ns.random.key)(np.int32(77)))
    case("vmap_typed_normal", lambda ns: ns.vmap(lambda k: ns.random.normal(k, (3,)))(
        ns.random.split(ns.random.key(13), 4)))
    case("vmap_typed_split", lambda ns: ns.vmap(ns.random.split)(ns.random.split(ns.random.key(13), 3)))
    case("vmap_typed_fold_in", lambda ns: ns.vmap(ns.random.fold_in)(ns.random.split(ns.random.key(13), 3),
                                                                      np.arange(3, dtype=np.int32)))
    case("vmap_key", lambda ns: ns.vmap(ns.random.key)(np.arange(3, dtype=np.int32)))
    case("vmap_key_data", lambda ns: ns.vmap(ns.random.key_data, 1)(ns.random.split(ns.random.key(4), (2, 3))))
    case("vmap_gamma_typed", lambda ns: ns.vmap(lambda k: ns.random.gamma(k, 2.0, (2,)))(
        ns.random.split(ns.random.key(15), 3)))

    def scan_keys(ns):
        def body(carry, _):
            carry, sub = ns.random.split(carry)
            return carry, ns.random.bits(sub)
        return ns.lax.scan(body, ns.random.key(16), None, length=4)[1]
    case("scan_carries_key", scan_keys)
    # errors
    case("error_split_key_array", lambda ns: ns.random.split(ns.random.split(ns.random.key(0)), 2))
    case("error_normal_key_array", lambda ns: ns.random.normal(ns.random.split(ns.random.key(0)), ()))
    case("error_bits_key_array", lambda ns: ns.random.bits(ns.random.split(ns.random.key(0)), (2,)))
    case("error_fold_in_key_array", lambda ns: ns.random.fold_in(ns.random.split(ns.random.key(0)), 2))
    case("error_split_raw_batch", lambda ns: ns.random.split(np.zeros((2, 2), np.uint32)))
    case("error_key_of_key", lambda ns: ns.random.key(ns.random.key(0)))
    case("error_key_seed_array", lambda ns: ns.random.key(np.arange(3)))
    case("error_PRNGKey_seed_array", lambda ns: ns.random.PRNGKey(np.arange(3)))
    case("error_wrap_dtype", lambda ns: ns.random.wrap_key_data(np.zeros(2, np.int32)))
    case("error_wrap_typed", lambda ns: ns.random.wrap_key_data(ns.random.key(0)))
    case("error_key_to_numpy", lambda ns: np.asarray(ns.random.key(0)))
    case("error_key_add", lambda ns: ns.lax.add(ns.random.key(0), ns.random.key(0)))
    case("error_impl_unknown", lambda ns: ns.random.key(0, impl="nope"))
    # what is not a key or a seed: lists, tuples and Python scalars where keys go, arrays where seeds go
    not_keys = {"list": [0, 1], "tuple": (0, 1), "int": 3, "numpy_scalar": np.uint32(3)}
    for tag, bad in not_keys.items():
        case(f"error_fold_in_{tag}_key", lambda ns, b=bad: ns.random.fold_in(b, 1))
        case(f"error_key_data_{tag}", lambda ns, b=bad: ns.random.key_data(b))
    case("error_split_list_key", lambda ns: ns.random.split([0, 1]))
    case("error_bits_list_key", lambda ns: ns.random.bits([0, 1]))
    case("error_normal_list_key", lambda ns: ns.random.normal([0, 1]))
    case("error_key_impl_list_key", lambda ns: ns.random.key_impl([0, 1]))
    case("error_wrap_list", lambda ns: ns.random.wrap_key_data([1, 2]))
    case("error_wrap_int", lambda ns: ns.random.wrap_key_data(3))
    case("error_wrap_shape_and_dtype", lambda ns: ns.random.wrap_key_data(np.zeros(3, np.int32)))
    case("error_fold_in_list_data", lambda ns: ns.random.fold_in(ns.random.key(0), [1, 2]))
    case("error_fold_in_array_data", lambda ns: ns.random.fold_in(ns.random.key(0), np.ones((1, 1), np.int32)))
    case("error_fold_in_jit_list_data", lambda ns: ns.jit(lambda k: ns.random.fold_in(k, [1, 2]))(ns.random.key(0)))
    case("fold_in_float_data", lambda ns: ns.random.fold_in(ns.random.key(0), 1.5))
    for tag, seed in {"list": [1, 2], "tuple": (1, 2), "nested_list": [[1]], "empty_list": [], "float_list": [1.0],
                      "none": None, "string": "a"}.items():
        case(f"error_PRNGKey_{tag}", lambda ns, s=seed: ns.random.PRNGKey(s))
    case("error_key_list", lambda ns: ns.random.key([1]))
    case("PRNGKey_bool", lambda ns: ns.random.PRNGKey(True))
    case("error_PRNGKey_beyond_int64", lambda ns: ns.random.PRNGKey(2 ** 63))
    case("error_PRNGKey_below_int64", lambda ns: ns.random.PRNGKey(-2 ** 63 - 1))
    case("PRNGKey_int64_min_x64", lambda ns: ns.random.PRNGKey(-2 ** 63), True)
    case("error_PRNGKey_bool_array", lambda ns: ns.random.PRNGKey(np.array(True)))
    # a key array cast to its own dtype is itself (optax casts optimizer states back to their dtypes); any other
    # cast from or to a key dtype is refused
    case("key_astype_own_dtype", lambda ns: ns.numpy.astype(ns.random.split(ns.random.key(3)), ns.random.key(0).dtype))
    case("jaxpr_key_astype_own_dtype", lambda ns: _text(ns, lambda k: k.astype(k.dtype), ns.random.key(0)))
    case("error_key_astype_float", lambda ns: ns.numpy.astype(ns.random.key(0), np.float32))
    case("error_key_convert_to_uint32", lambda ns: ns.lax.convert_element_type(ns.random.key(0), np.uint32))
    case("error_astype_to_key", lambda ns: ns.numpy.astype(np.float32(1), ns.random.key(0).dtype))
    # jaxprs of the key functions, raw and typed
    case("jaxpr_key", lambda ns: _text(ns, lambda: ns.random.key(0)))
    case("jaxpr_key_traced_seed", lambda ns: _text(ns, ns.random.key, np.uint32(3)))
    case("jaxpr_PRNGKey", lambda ns: _text(ns, lambda: ns.random.PRNGKey(0)))
    case("jaxpr_PRNGKey_x64", lambda ns: _text(ns, lambda: ns.random.PRNGKey(2 ** 40)), True)
    for kind in ("typed", "raw"):
        def make(ns, kind=kind):
            return ns.random.key(0) if kind == "typed" else ns.random.PRNGKey(0)
        case(f"jaxpr_split_{kind}", lambda ns, m=make: _text(ns, ns.random.split, m(ns)))
        case(f"jaxpr_split3_{kind}", lambda ns, m=make: _text(ns, lambda k: ns.random.split(k, (3,)), m(ns)))
        case(f"jaxpr_fold_in_{kind}", lambda ns, m=make: _text(ns, ns.random.fold_in, m(ns), np.int32(3)))
        case(f"jaxpr_key_data_{kind}", lambda ns, m=make: _text(ns, ns.random.key_data, m(ns)))
        case(f"jaxpr_clone_{kind}", lambda ns, m=make: _text(ns, ns.random.clone, m(ns)))
        case(f"jaxpr_jit_split_{kind}", lambda ns, m=make: _text(ns, ns.jit(lambda k: ns.random.split(k)), m(ns)))
        for sampler, call in SAMPLER_CALLS.items():
            if kind == "raw" and sampler not in RAW_KEY_SAMPLERS:
                continue
            case(f"jaxpr_{sampler}_{kind}", lambda ns, m=make, c=call: _text(ns, lambda k: c(ns.random, k), m(ns)))
    case("jaxpr_wrap_key_data", lambda ns: _text(ns, ns.random.wrap_key_data, np.zeros((3, 2), np.uint32)))
    case("jaxpr_key_array_index", lambda ns: _text(ns, lambda k: k[1], ns.random.split(ns.random.key(0), 4)))
    case("jaxpr_key_array_reshape_T", lambda ns: _text(ns, lambda k: k.reshape(2, 2).T,
                                                       ns.random.split(ns.random.key(0), 4)))
    case("jaxpr_key_array_eq", lambda ns: _text(ns, lambda k: k == k[0], ns.random.split(ns.random.key(0), 4)))
    keys = lambda ns: ns.random.split(ns.random.key(0), 6)  # noqa: E731
    case("jaxpr_vmap_normal", lambda ns: _text(ns, ns.vmap(ns.random.normal), keys(ns)))
    case("jaxpr_vmap_split", lambda ns: _text(ns, ns.vmap(ns.random.split), keys(ns)))
    case("jaxpr_vmap_fold_in", lambda ns: _text(ns, ns.vmap(ns.random.fold_in), keys(ns),
                                                np.arange(6, dtype=np.int32)))
    case("jaxpr_vmap_fold_in_one_message", lambda ns: _text(ns, ns.vmap(lambda k: ns.random.fold_in(k, 3)), keys(ns)))
    case("jaxpr_vmap_fold_in_one_key", lambda ns: _text(ns, ns.vmap(ns.random.fold_in, in_axes=(None, 0)),
                                                        ns.random.key(0), np.arange(6, dtype=np.int32)))
    case("jaxpr_vmap_key_data", lambda ns: _text(ns, ns.vmap(ns.random.key_data), keys(ns)))
    case("jaxpr_vmap_wrap_key_data", lambda ns: _text(ns, ns.vmap(ns.random.wrap_key_data),
                                                      np.zeros((6, 2), np.uint32)))
    case("jaxpr_vmap_key", lambda ns: _text(ns, ns.vmap(ns.random.key), np.arange(3, dtype=np.int32)))
    # gamma's derivative: random_gamma_grad mapped over the samples, its loop-invariant work hoisted under grad
    gamma_sum = lambda ns: lambda a: ns.random.gamma(ns.random.key(0), a, (3,)).sum()  # noqa: E731
    case("jaxpr_grad_gamma", lambda ns: _text(ns, ns.grad(gamma_sum(ns)), np.float32(2.0)))
    case("jaxpr_jvp_gamma", lambda ns: _text(ns, lambda a: ns.jvp(gamma_sum(ns), (a,), (a,)), np.float32(2.0)))
    _shape_cases(case)
    return cases


def _shape_cases(case) -> None:
    """Shapes a sampler cannot take: JAX's errors (Python's own where JAX iterates or indexes what it was given),
    and negative sizes, which JAX stages and MLIR refuses when the program is lowered (``compile_error_`` cases)."""
    key = lambda ns: ns.random.key(0)  # noqa: E731
    for name, shape in {"None": None, "float": 3.0, "int64": np.int64(3), "0d_array": np.array(3),
                        "float_entry": (np.int64(3), 2.0), "str": "ab"}.items():
        case(f"error_normal_shape_{name}", lambda ns, s=shape: ns.random.normal(key(ns), s))
    case("normal_shape_int64_entries", lambda ns: ns.random.normal(key(ns), (np.int64(2), np.int64(1))))
    case("error_normal_complex_shape_None", lambda ns: ns.random.normal(key(ns), None, np.complex64))
    for name, call in {"uniform": lambda r, k, s: r.uniform(k, s), "bits": lambda r, k, s: r.bits(k, s),
                       "randint": lambda r, k, s: r.randint(k, s, 0, 4), "gamma": lambda r, k, s: r.gamma(k, 1.0, s),
                       "exponential": lambda r, k, s: r.exponential(k, s),
                       "ball": lambda r, k, s: r.ball(k, 2, shape=s),
                       "categorical": lambda r, k, s: r.categorical(k, np.zeros(3, np.float32), shape=s),
                       "binomial": lambda r, k, s: r.binomial(k, 3.0, 0.5, s),
                       "orthogonal": lambda r, k, s: r.orthogonal(k, 2, s)}.items():
        case(f"error_{name}_shape_int64", lambda ns, c=call: c(ns.random, key(ns), np.int64(3)))
    for name, num in {"float": 2.0, "None": None, "str": "a", "float_entry": (2.0,), "array": np.array([3, 2]),
                      "float32": np.float32(2)}.items():
        case(f"error_split_num_{name}", lambda ns, n=num: ns.random.split(key(ns), n))
    case("split_num_0d_array", lambda ns: ns.random.split(key(ns), np.array(3)))
    case("split_num_int64", lambda ns: ns.random.split(key(ns), np.int64(3)))
    # a count no other case splits into: JAX caches the keys' type by the shape asked for, where 7.0 == 7
    case("error_jit_split_num_float", lambda ns: ns.jit(lambda k: ns.random.split(k, 7.0))(key(ns)))
    case("error_choice_shape_int", lambda ns: ns.random.choice(key(ns), 5, 2))
    case("error_choice_shape_array", lambda ns: ns.random.choice(key(ns), 5, np.array([2])))
    probabilities = np.array([0.5, 0.5], np.float32)
    case("error_multinomial_shape_int", lambda ns: ns.random.multinomial(key(ns), 3.0, probabilities, shape=3))
    case("error_multinomial_shape_int64",
         lambda ns: ns.random.multinomial(key(ns), 3.0, probabilities, shape=np.int64(3)))
    case("multinomial_shape_list", lambda ns: ns.random.multinomial(key(ns), 3.0, probabilities, shape=[3, 2]))
    # parameters that do not fit the shape, and negative sizes where JAX checks the shape
    case("error_gamma_shape_mismatch", lambda ns: ns.random.gamma(key(ns), np.ones((2, 3), np.float32), (3,)))
    case("error_beta_shape_mismatch", lambda ns: ns.random.beta(key(ns), np.ones((2, 3), np.float32), 1.0, (3,)))
    for name, call in {"gamma": lambda r, k: r.gamma(k, np.ones(3, np.float32), (-1,)),
                       "loggamma": lambda r, k: r.loggamma(k, 1.0, (-1,)),
                       "beta": lambda r, k: r.beta(k, 1.0, 1.0, (-1,)),
                       "dirichlet": lambda r, k: r.dirichlet(k, np.ones(2, np.float32), (-1,)),
                       "t": lambda r, k: r.t(k, 1.0, (-1,)), "chisquare": lambda r, k: r.chisquare(k, 1.0, (-1,)),
                       "f": lambda r, k: r.f(k, 1.0, 1.0, (-1,)),
                       "generalized_normal": lambda r, k: r.generalized_normal(k, 2.0, (-1,)),
                       "poisson": lambda r, k: r.poisson(k, 1.0, (-1,)),
                       "binomial": lambda r, k: r.binomial(k, 3.0, 0.5, (-1,)),
                       "multinomial": lambda r, k: r.multinomial(k, 3.0, probabilities, shape=(-1, 2)),
                       "choice": lambda r, k: r.choice(k, 5, (-2,)),
                       "ball": lambda r, k: r.ball(k, 2, shape=(-1,)),
                       "rademacher": lambda r, k: r.rademacher(k, (-1,)),
                       "categorical": lambda r, k: r.categorical(k, np.zeros(3, np.float32), shape=(-1,)),
                       "randint": lambda r, k: r.randint(k, (-1,), 0, 3),
                       "bernoulli": lambda r, k: r.bernoulli(k, 0.5, (-1,))}.items():
        case(f"error_{name}_negative_size", lambda ns, c=call: c(ns.random, key(ns)))
    negative = {"normal": lambda r, k: r.normal(k, (2, -3)), "uniform": lambda r, k: r.uniform(k, (-1,)),
                "bits": lambda r, k: r.bits(k, (-1,)), "split": lambda r, k: r.split(k, -1),
                "exponential": lambda r, k: r.exponential(k, (-1,))}
    for name, call in negative.items():
        case(f"jaxpr_{name}_negative_size", lambda ns, c=call: _text(ns, lambda k: c(ns.random, k), key(ns)))
        case(f"compile_error_{name}_negative_size", lambda ns, c=call: c(ns.random, key(ns)))
        case(f"compile_error_jit_{name}_negative_size", lambda ns, c=call: ns.jit(lambda k: c(ns.random, k))(key(ns)))
    case("compile_error_split_raw_negative_size", lambda ns: ns.random.split(ns.random.PRNGKey(0), (2, -1)))


CASES = _cases()


def record(ns: SimpleNamespace, value) -> dict:
    """A result as the golden stores it: text, a typed key array's dtype and data, or an array."""
    if isinstance(value, str):
        return {"text": value}
    if ns.numpy.issubdtype(getattr(value, "dtype", np.float32), ns.dtypes.prng_key):
        return {"key": str(value.dtype), **encode(ns.random.key_data(value))}
    return encode(value)


def run_case(ns: SimpleNamespace, name: str) -> dict:
    build, x64 = CASES[name]
    with ns.enable_x64(True) if x64 else contextlib.nullcontext():
        try:
            return record(ns, build(ns))
        except Exception as error:  # noqa: BLE001 - the golden records which exception a case raises
            return {"error": type(error).__name__, "message": str(error)}


if __name__ == "__main__":
    import json

    ns = keys_namespace(sys.argv[1])
    GOLDEN.write_text(json.dumps({name: run_case(ns, name) for name in CASES}, indent=0, sort_keys=True) + "\n")
