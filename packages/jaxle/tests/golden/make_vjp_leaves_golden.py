"""Write vjp_leaves_golden.json: the leaves of the functions JAX 0.10.2's eager ``vjp`` and ``linearize`` return.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_vjp_leaves_golden.py jax

Called at concrete arguments, ``vjp``'s pullback (and ``linearize``'s jvp function) is a pytree whose leaves are
the values its derivative reads: the primal inputs first, then the residuals. Each case records those leaves
(dtype, shape, values) and the pullback's cotangents for a cotangent of ones.
"""

import importlib
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parents[3] / "numpy-api" / "tests" / "golden"))

import jnp_golden  # noqa: E402 - found through the path set just above
from golden_writer import write_golden
from jnp_golden import rand  # noqa: E402

HERE = pathlib.Path(__file__).parent

X = rand((3,), "float32", 1) + 2.0
Y = rand((3,), "float32", 2)


def _programs(m):
    jnp, lax = m.numpy, m.lax

    @m.custom_jvp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

    softplus.defjvp(lambda primals, tangents: (softplus(primals[0]), tangents[0] / (1.0 + jnp.exp(-primals[0]))))

    @m.custom_vjp
    def clip_gradient(x):
        return x

    clip_gradient.defvjp(lambda x: (x, x), lambda x, g: (jnp.clip(g * x, -1.0, 1.0),))

    @m.jit
    def scaled_by_constant(a):  # the constant closed over is a residual its derivative reads
        return jnp.sin(a) * Y

    @m.jit
    def nested_scaled_by_constant(a):
        return scaled_by_constant(a) * 2.0

    return {
        "sin": (jnp.sin, (X,)),
        "exp": (jnp.exp, (X,)),
        "product_of_inputs": (lambda a, b: a * b, (X, Y)),
        "square_of_one_input": (lambda a: a * a, (X,)),
        "same_input_twice": (lambda a, b: jnp.sin(a) * b, (X, X)),
        "python_float_factor": (lambda a: a * 2.0, (X,)),
        "python_int_factor": (lambda a: 2 * a, (X,)),
        "python_float_divisor": (lambda a: a / 3.0, (X,)),
        "numpy_scalar_factor": (lambda a: a * np.float32(2.0), (X,)),
        "numpy_0d_factor": (lambda a: a * np.array(2.0, np.float32), (X,)),
        "numpy_vector_factor": (lambda a: a * np.arange(3.0), (X,)),
        "lax_mul_python_float": (lambda a: lax.mul(a, 2.0), (X,)),
        "subtract_from_python_float": (lambda a: 1.0 - a, (X,)),
        "integer_power": (lambda a: jnp.sum(a ** 3), (X,)),
        "tanh_sum_scaled": (lambda a: jnp.sum(jnp.tanh(a) * 2.0), (X,)),
        "sin_times_input": (lambda a: jnp.sin(a) * a, (X,)),
        "where": (lambda a: jnp.where(a > 2.5, a, 0.0), (X,)),
        "mean": (jnp.mean, (X,)),
        "var": (jnp.var, (X,)),
        "logsumexp": (lambda a: m.nn.logsumexp(a), (X,)),
        "softmax": (lambda a: m.nn.softmax(a), (X,)),
        "matmul": (lambda w, a: jnp.tanh(w @ a), (np.outer(Y, X).astype(np.float32), X)),
        "tuple_output": (lambda a, b: (a * b, jnp.sin(b)), (X, 2.0)),
        "dict_input": (lambda d: d["a"] * d["b"], ({"a": X, "b": Y},)),
        "integer_input": (lambda a, n: a * n, (X, 3)),
        "jit_inside": (m.jit(lambda a: jnp.sin(a) * a), (X,)),
        "jit_closing_over_array": (scaled_by_constant, (X,)),
        "nested_jit_closing_over_array": (nested_scaled_by_constant, (X,)),
        "custom_jvp": (lambda a: jnp.sum(softplus(a)), (X,)),
        "custom_vjp": (lambda a: jnp.sum(clip_gradient(a) * 3.0), (X,)),
        "cond": (lambda a: lax.cond(True, jnp.sin, jnp.cos, a), (X,)),
        "scan": (lambda a: lax.scan(lambda c, x: (c * x, c), 1.0, a)[0], (X,)),
    }


def _records(m, tree) -> list:
    return [jnp_golden.value_record(leaf) for leaf in m.tree_util.tree_leaves(tree)]


def record(m) -> dict:
    """Per program: the pullback's leaves, its cotangents for ones, and the leaves of linearize's jvp function."""
    records = {}
    for name, (fun, args) in _programs(m).items():
        out, pullback = m.vjp(fun, *args)
        ones = m.tree_util.tree_map(lambda o: np.ones(np.shape(o), np.asarray(o).dtype), out)
        _, jvp_fun = m.linearize(fun, *args)
        records[name] = {"pullback_leaves": _records(m, pullback), "cotangents": _records(m, pullback(ones)),
                         "jvp_function_leaves": _records(m, jvp_fun)}
    return records


if __name__ == "__main__":
    jax = importlib.import_module(sys.argv[1])
    write_golden(record(jax), HERE / "vjp_leaves_golden.json")
