"""Write nn_golden.json: jaxprs, values, weak types and errors of ``jax.nn``'s functions (activations, softmax and
its relatives, one_hot, their gradients), replayed by test_nn.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_nn_golden.py jax
"""

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parents[3] / "numpy-api" / "tests" / "golden"))

import jnp_golden  # noqa: E402 - found through the path set just above

X = np.array([-7.0, -1.0, -0.25, 0.0, 0.5, 1.0, 6.0, 40.0], np.float32)
MATRIX = jnp_golden.rand((2, 4), "float32", seed=3)
INTS = np.array([-2, 0, 3], np.int32)
LABELS = np.array([[0, 2], [3, 1]], np.int32)

ACTIVATIONS = ["celu", "elu", "gelu", "glu", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "identity",
               "leaky_relu", "log_sigmoid", "mish", "relu", "relu6", "selu", "sigmoid", "silu", "soft_sign",
               "softplus", "sparse_plus", "sparse_sigmoid", "squareplus", "swish", "tanh"]
INT_OK = ["celu", "elu", "gelu", "hard_sigmoid", "hard_tanh", "identity", "leaky_relu", "log_sigmoid", "mish", "relu",
          "relu6", "selu", "soft_sign", "softplus", "sparse_plus", "squareplus"]


def nn_case(name, *args, **kwargs):
    return lambda m: (lambda *a: getattr(m.nn, name)(*a, **kwargs), list(args))


def grad_case(name, x, **kwargs):
    return lambda m: (m.vmap(m.grad(lambda v: getattr(m.nn, name)(v, **kwargs))), [x])


CASES = {}
for _name in ACTIVATIONS:
    CASES[_name] = nn_case(_name, X)
    CASES[f"{_name}_scalar"] = nn_case(_name, 0.5)
    if _name != "glu":
        CASES[f"{_name}_grad"] = grad_case(_name, X)
for _name in INT_OK:
    CASES[f"{_name}_int"] = nn_case(_name, INTS)
CASES.update({
    "sigmoid_int_error": nn_case("sigmoid", INTS),
    "log1mexp": nn_case("log1mexp", np.abs(X) + np.float32(0.01)),
    "log1mexp_grad": grad_case("log1mexp", np.abs(X) + np.float32(0.01)),
    "gelu_exact": nn_case("gelu", X, approximate=False),
    "gelu_exact_scalar": nn_case("gelu", 0.5, approximate=False),
    "gelu_exact_grad": grad_case("gelu", X, approximate=False),
    "elu_alpha": lambda m: (lambda x, a: m.nn.elu(x, a), [X, np.float32(0.5)]),
    "celu_alpha": lambda m: (lambda x: m.nn.celu(x, 2.0), [X]),
    "leaky_relu_slope": lambda m: (lambda x: m.nn.leaky_relu(x, 0.2), [X]),
    "squareplus_b": lambda m: (lambda x: m.nn.squareplus(x, 1.5), [X]),
    "glu_axis0": nn_case("glu", MATRIX, axis=0),
    "glu_odd_error": nn_case("glu", np.ones(3, np.float32)),
    "softmax": nn_case("softmax", MATRIX),
    "softmax_axis0": nn_case("softmax", MATRIX, axis=0),
    "softmax_axes": nn_case("softmax", MATRIX, axis=(0, 1)),
    "softmax_int": nn_case("softmax", INTS),
    "softmax_where": lambda m: (lambda x: m.nn.softmax(x, where=x > 0), [MATRIX]),
    "softmax_grad": lambda m: (m.grad(lambda x: m.nn.softmax(x)[1, 2]), [MATRIX]),
    "log_softmax": nn_case("log_softmax", MATRIX),
    "log_softmax_axis0": nn_case("log_softmax", MATRIX, axis=0),
    "log_softmax_where": lambda m: (lambda x: m.nn.log_softmax(x, where=x > 0), [MATRIX]),
    "log_softmax_grad": lambda m: (m.grad(lambda x: m.nn.log_softmax(x)[0, 1]), [MATRIX]),
    "log_softmax_large": nn_case("log_softmax", np.array([1000.0, 0.0, -1000.0], np.float32)),
    "logsumexp": nn_case("logsumexp", MATRIX, axis=1),
    "logmeanexp": nn_case("logmeanexp", MATRIX),
    "logmeanexp_axis_keepdims": nn_case("logmeanexp", MATRIX, axis=0, keepdims=True),
    "logmeanexp_where": lambda m: (lambda x: m.nn.logmeanexp(x, axis=1, where=x > 0), [MATRIX]),
    "standardize": nn_case("standardize", MATRIX),
    "standardize_stable": nn_case("standardize", MATRIX, algorithm="stable"),
    "standardize_axis0_where": lambda m: (lambda x: m.nn.standardize(x, axis=0, where=x > -1), [MATRIX]),
    "standardize_given": lambda m: (lambda x: m.nn.standardize(x, mean=1.0, variance=2.0, epsilon=0.1), [MATRIX]),
    "standardize_bad_algorithm": nn_case("standardize", MATRIX, algorithm="precise"),
    "standardize_grad": lambda m: (m.grad(lambda x: m.nn.standardize(x)[0, 0]), [MATRIX]),
    "one_hot": nn_case("one_hot", LABELS, 4),
    "one_hot_axis0_int8": nn_case("one_hot", LABELS, 3, axis=0, dtype=np.int8),
    "one_hot_float_labels": nn_case("one_hot", np.array([0.0, 2.0, 5.0], np.float32), 3),
    "one_hot_scalar": nn_case("one_hot", 1, 3),
    "one_hot_uint8": nn_case("one_hot", np.array([1, 2], np.uint8), 3, axis=-2),
    "one_hot_bad_axis": nn_case("one_hot", LABELS, 3, axis=3),
    "one_hot_traced_classes": lambda m: (m.jit(lambda n: m.nn.one_hot(LABELS, n)), [3]),
})


def with_softmax_rule(build):
    """``build``'s function run with ``jax_softmax_custom_jvp`` set (softmax as a custom_jvp function)."""
    def wrapped(m):
        fn, args = build(m)

        def under_flag(*a):
            with m.softmax_custom_jvp(True):
                return fn(*a)
        return under_flag, args
    return wrapped


for _case in ["softmax", "softmax_where", "softmax_grad", "softmax_int"]:
    CASES[f"{_case}_custom_jvp"] = with_softmax_rule(CASES[_case])
CASES["softmax_where_grad_custom_jvp"] = with_softmax_rule(
    lambda m: (m.jit(m.grad(lambda x: m.nn.softmax(x, where=x > 0)[1, 2])), [MATRIX]))

# Attention: [batch, length, heads, head_dim]; 4 query heads over 2 key/value heads.
QUERY = jnp_golden.rand((2, 3, 4, 4), "float32", seed=4)
KEY = jnp_golden.rand((2, 5, 2, 4), "float32", seed=5)
VALUE = jnp_golden.rand((2, 5, 2, 4), "float32", seed=6)
BIAS = jnp_golden.rand((2, 1, 3, 5), "float32", seed=7)
MASK = jnp_golden.rand((2, 4, 3, 5), "bool", seed=8)
LENGTHS = (np.array([2, 3], np.int32), np.array([4, 1], np.int32))


def attention_case(*extra, qkv=(QUERY, KEY, VALUE), **kwargs):
    return lambda m: (lambda *a: m.nn.dot_product_attention(*a, **kwargs), [*qkv, *extra])


CASES.update({
    "attention": attention_case(),
    "attention_unbatched": attention_case(qkv=(QUERY[0], KEY[0], VALUE[0])),
    "attention_heads_equal": attention_case(qkv=(QUERY[:, :, :2], KEY, VALUE), implementation="xla"),
    "attention_bias_mask": attention_case(BIAS, MASK, scale=0.3),
    "attention_causal": attention_case(is_causal=True),
    "attention_window": attention_case(local_window_size=(1, 0)),
    "attention_seq_lengths": lambda m: (lambda q, k, v, lq, lkv: m.nn.dot_product_attention(
        q, k, v, query_seq_lengths=lq, key_value_seq_lengths=lkv), [QUERY, KEY, VALUE, *LENGTHS]),
    "attention_residual": attention_case(return_residual=True),
    "attention_bfloat16": attention_case(qkv=tuple(a.astype("bfloat16") for a in (QUERY, KEY, VALUE))),
    "attention_grad": lambda m: (m.grad(lambda q, k, v: m.nn.dot_product_attention(q, k, v, is_causal=True).sum(),
                                        argnums=(0, 1, 2)), [QUERY, KEY, VALUE]),
    "attention_cudnn_error": attention_case(implementation="cudnn"),
    "attention_implementation_error": attention_case(implementation="flash"),
    "attention_value_shape_error": attention_case(qkv=(QUERY, KEY, VALUE[:, :4])),
    "attention_dtype_error": attention_case(qkv=(QUERY, KEY, VALUE.astype(np.float16))),
    "attention_heads_error": attention_case(qkv=(QUERY[:, :, :3], KEY, VALUE)),
    "attention_mask_dtype_error": attention_case(None, MASK.astype(np.float32)),
    "attention_lengths_shape_error": attention_case(query_seq_lengths=np.array([1, 2, 3], np.int32)),
})

if __name__ == "__main__":
    jnp_golden.write(CASES, str(pathlib.Path(__file__).parent / "nn_golden.json"))  # an absolute path: written here
