"""Seed 000 (JAX's API reference page of the ``jax`` package): its single-device examples, run with the module named
on the command line.

``/work/jaxpeer/bin/python integration-tests/golden/make_seed_000_golden.py jax`` writes seed_000_golden.json.
``eval_shape``'s example keeps its 2000x3000 shapes (nothing is computed). Not here: the body-less
``closure_convert`` sketch (its minimizer is elided; the conversion itself is an example here), ``pmap``'s examples
(maps, ``psum`` collectives, nested pmaps, ``devices=``), which multidevice-tests/golden/make_pmap_golden.py records,
and those of ``xla_computation``, ``device_put_replicated`` and ``device_put_sharded``, which JAX 0.10.2 no longer
has: multidevice-tests/test_seed_000_older_api.py checks them against the page's own results.
"""

from __future__ import annotations

import contextlib
import io
import types
from functools import partial

import numpy as np
import seed_golden


def selu_of_normal_draws(jax):
    @jax.jit
    def selu(x, alpha=1.67, lmbda=1.05):
        return lmbda * jax.numpy.where(x > 0, x, alpha * jax.numpy.exp(x) - alpha)

    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (10,))
    return selu(x)


def disable_jit_shows_concrete_values(jax):
    """What ``f`` prints under jit (a tracer) and under ``disable_jit`` (the value), and its results."""
    @jax.jit
    def f(x):
        y = x * 2
        print("Value of y is", y)
        return y + 3

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        jitted = f(jax.numpy.array([1, 2, 3]))
        with jax.disable_jit():
            eager = f(jax.numpy.array([1, 2, 3]))
    return printed.getvalue(), jitted, eager


def sin_cos(jax):
    return lambda x: jax.numpy.sin(jax.numpy.cos(x))


def value_of_sin_cos(jax):
    return sin_cos(jax)(3.0)


def jaxpr_of_sin_cos(jax):
    return str(jax.make_jaxpr(sin_cos(jax))(3.0))


def jaxpr_of_grad_of_sin_cos(jax):
    return str(jax.make_jaxpr(jax.grad(sin_cos(jax)))(3.0))


def eval_shape_of_duck_typed_arguments(jax):
    jnp = jax.numpy

    def f(A, x):
        return jnp.tanh(jnp.dot(A, x))

    class MyArgArray:
        def __init__(self, shape, dtype):
            self.shape = shape
            self.dtype = jnp.dtype(dtype)

    A = MyArgArray((2000, 3000), jnp.float32)
    x = MyArgArray((3000, 1000), jnp.float32)
    out = jax.eval_shape(f, A, x)  # no FLOPs performed
    return out.shape, str(out.dtype)


def device_get(jax):
    x = jax.numpy.array([1., 2., 3.])
    host = jax.device_get(x)
    return host, type(host).__name__, jax.device_get(1)


def grad_of_tanh(jax):
    grad_tanh = jax.grad(jax.numpy.tanh)
    return grad_tanh(0.2)


def jacobian_example(jnp):
    def f(x):
        return jnp.asarray(
            [x[0], 5*x[2], 4*x[1]**2 - 2*x[2], x[2] * jnp.sin(x[0])])
    return f


def jacfwd(jax):
    return jax.jacfwd(jacobian_example(jax.numpy))(jax.numpy.array([1., 2., 3.]))


def jacrev(jax):
    return jax.jacrev(jacobian_example(jax.numpy))(jax.numpy.array([1., 2., 3.]))


def hessian(jax):
    def g(x):
        return x[0]**3 - 2*x[0]*x[1] - x[1]**6
    return jax.hessian(g)(jax.numpy.array([1., 2.]))


def hessian_of_pytrees(jax):
    jnp = jax.numpy

    def f(dct):
        return {"c": jnp.power(dct["a"], dct["b"])}
    return jax.hessian(f)({"a": jnp.arange(2.) + 1., "b": jnp.arange(2.) + 2.})


def jvp_of_sin(jax):
    y, v = jax.jvp(jax.numpy.sin, (0.1,), (0.2,))
    return y, v


def linearize(jax):
    jnp = jax.numpy

    def f(x):
        return 3. * jnp.sin(x) + jnp.cos(x / 2.)

    y, f_jvp = jax.linearize(f, 2.)
    return jax.jvp(f, (2.,), (3.,)), y, f_jvp(3.), f_jvp(4.)


def linear_transpose(jax):
    def f(x, y):
        return 0.5 * x - 0.5 * y

    scalar = types.SimpleNamespace(shape=(), dtype=np.dtype(np.float32))
    f_transpose = jax.linear_transpose(f, scalar, scalar)
    return f_transpose(1.0)


def vjp(jax):
    def f(x, y):
        return jax.numpy.sin(x), jax.numpy.cos(y)

    primals, f_vjp = jax.vjp(f, 0.5, 1.0)
    xbar, ybar = f_vjp((-0.7, 0.3))
    return primals, xbar, ybar


def derivatives_of(jax, f):
    """Value, both partial derivatives by ``grad`` and a ``jvp`` of ``f(x, y)`` at one point."""
    x, y = 0.7, 2.0
    return (f(x, y), jax.grad(f, argnums=(0, 1))(x, y), jax.jvp(f, (x, y), (1.0, 0.5)),
            jax.vmap(jax.grad(f))(jax.numpy.arange(3.), jax.numpy.ones(3)))


def custom_jvp(jax):
    jnp = jax.numpy

    @jax.custom_jvp
    def f(x, y):
        return jnp.sin(x) * y

    @f.defjvp
    def f_jvp(primals, tangents):
        x, y = primals
        x_dot, y_dot = tangents
        primal_out = f(x, y)
        tangent_out = jnp.cos(x) * x_dot * y + jnp.sin(x) * y_dot
        return primal_out, tangent_out

    return derivatives_of(jax, f)


def custom_jvp_defjvps(jax):
    jnp = jax.numpy

    @jax.custom_jvp
    def f(x, y):
        return jnp.sin(x) * y

    f.defjvps(lambda x_dot, primal_out, x, y: jnp.cos(x) * x_dot * y,
              lambda y_dot, primal_out, x, y: jnp.sin(x) * y_dot)
    return derivatives_of(jax, f)


def custom_vjp(jax):
    jnp = jax.numpy

    @jax.custom_vjp
    def f(x, y):
        return jnp.sin(x) * y

    def f_fwd(x, y):
        return f(x, y), (jnp.cos(x), jnp.sin(x), y)

    def f_bwd(res, g):
        cos_x, sin_x, y = res
        return (cos_x * g * y, sin_x * g)

    f.defvjp(f_fwd, f_bwd)
    return f(0.7, 2.0), jax.grad(f, argnums=(0, 1))(0.7, 2.0)


def custom_vjp_refuses_forward_mode(jax):
    @jax.custom_vjp
    def f(x):
        return jax.numpy.sin(x)

    f.defvjp(lambda x: (f(x), jax.numpy.cos(x)), lambda cos_x, g: (cos_x * g,))
    return jax.jvp(f, (0.7,), (1.0,))


def closure_convert(jax):
    """The conversion ``closure_convert``'s sketch relies on: hoisted closure values become explicit arguments."""
    jnp = jax.numpy
    scale = jnp.array([2.0, 3.0])

    def objective_fn(x):
        return jnp.sum(scale * x ** 2)

    x0 = jnp.array([1.0, -1.0])
    converted_fn, aux_args = jax.closure_convert(objective_fn, x0)
    return converted_fn(x0, *aux_args), list(aux_args), jax.grad(converted_fn)(x0, *aux_args)


def checkpoint(jax):
    jnp = jax.numpy

    @jax.checkpoint
    def g(x):
        y = jnp.sin(x)
        z = jnp.sin(y)
        return z

    return jax.grad(g)(2.0)


def recursive_checkpoint(jax):
    def recursive_checkpoint(funs):
        if len(funs) == 1:
            return funs[0]
        elif len(funs) == 2:
            f1, f2 = funs
            return lambda x: f1(f2(x))
        else:
            f1 = recursive_checkpoint(funs[:len(funs)//2])
            f2 = recursive_checkpoint(funs[len(funs)//2:])
            return lambda x: f1(jax.checkpoint(f2)(x))

    jnp = jax.numpy
    f = recursive_checkpoint([jnp.sin, jnp.cos, jnp.tanh, jnp.exp, jnp.sin])
    return f(0.5), jax.grad(f)(0.5)


def vmap_of_vdot(jax):
    jnp, vmap = jax.numpy, jax.vmap
    vv = lambda x, y: jnp.vdot(x, y)  # ([a], [a]) -> []
    mv = vmap(vv, (0, None), 0)      # ([b,a], [a]) -> [b]      (b is the mapped axis)
    mm = vmap(mv, (None, 1), 1)      # ([b,a], [a,c]) -> [b,c]  (c is the mapped axis)
    mv1 = vmap(vv, (0, 0), 0)   # ([b,a], [b,a]) -> [b]        (b is the mapped axis)
    mv2 = vmap(vv, (0, 1), 0)   # ([b,a], [a,b]) -> [b]        (b is the mapped axis)
    mm2 = vmap(mv2, (1, 1), 0)  # ([b,c,a], [a,c,b]) -> [c,b]  (c is the mapped axis)
    a, b, c = 3, 4, 2
    m_ba = jnp.arange(b * a, dtype=jnp.float32).reshape(b, a)
    v_a = jnp.arange(a, dtype=jnp.float32) - 1
    m_ac = jnp.arange(a * c, dtype=jnp.float32).reshape(a, c) / 2
    t_bca = jnp.arange(b * c * a, dtype=jnp.float32).reshape(b, c, a)
    t_acb = jnp.cos(jnp.arange(a * c * b, dtype=jnp.float32)).reshape(a, c, b)
    return mv(m_ba, v_a), mm(m_ba, m_ac), mv1(m_ba, m_ba + 1), mv2(m_ba, m_ba.T), mm2(t_bca, t_acb)


def vmap_over_tree_axes(jax):
    jnp, vmap = jax.numpy, jax.vmap
    A, B, C, D = 2, 3, 4, 5
    x = jnp.ones((A, B))
    y = jnp.ones((B, C))
    z = jnp.ones((C, D))

    def foo(tree_arg):
        x, (y, z) = tree_arg
        return jnp.dot(x, jnp.dot(y, z))

    tree = (x, (y, z))
    unbatched = foo(tree)
    K = 6  # batch size
    x = jnp.ones((K, A, B))  # batch axis in different locations
    y = jnp.ones((B, K, C))
    z = jnp.ones((C, D, K))
    tree = (x, (y, z))
    vfoo = vmap(foo, in_axes=((0, (1, 2)),))
    return unbatched, vfoo(tree).shape


def vmap_over_dict_axes(jax):
    jnp, vmap = jax.numpy, jax.vmap
    dct = {'a': 0., 'b': jnp.arange(5.)}
    x = 1.

    def foo(dct, x):
        return dct['a'] + dct['b'] + x

    return vmap(foo, in_axes=({'a': None, 'b': 0}, None))(dct, x)


def vmap_unmapped_outputs(jax):
    jnp, vmap = jax.numpy, jax.vmap
    kept = vmap(lambda x, y: (x + y, y * 2.), in_axes=(0, None), out_axes=(0, None))(jnp.arange(2.), 4.)
    broadcast = vmap(lambda x, y: (x + y, y * 2.), in_axes=(0, None), out_axes=0)(jnp.arange(2.), 4.)
    return kept, broadcast


def vectorized(jnp):
    @partial(jnp.vectorize, signature='(k),(k)->(k)')
    def cross_product(a, b):
        assert a.shape == b.shape and a.ndim == b.ndim == 1
        return jnp.array([a[1] * b[2] - a[2] * b[1],
                          a[2] * b[0] - a[0] * b[2],
                          a[0] * b[1] - a[1] * b[0]])

    @partial(jnp.vectorize, signature='(n,m),(m)->(n)')
    def matrix_vector_product(matrix, vector):
        assert matrix.ndim == 2 and matrix.shape[1:] == vector.shape
        return matrix @ vector

    return cross_product, matrix_vector_product


def vectorize_shapes(jax):
    jnp = jax.numpy
    cross_product, matrix_vector_product = vectorized(jnp)
    return (cross_product(jnp.ones(3), jnp.ones(3)).shape,
            cross_product(jnp.ones((2, 3)), jnp.ones(3)).shape,
            cross_product(jnp.ones((1, 2, 3)), jnp.ones((2, 1, 3))).shape,
            matrix_vector_product(jnp.ones((2, 3)), jnp.ones(3)).shape,
            matrix_vector_product(jnp.ones((2, 3)), jnp.ones((4, 3))).shape)


def vectorize_values(jax):
    jnp = jax.numpy
    cross_product, matrix_vector_product = vectorized(jnp)
    a = jnp.arange(6.).reshape(2, 3)
    return cross_product(a, jnp.array([1., -2., 0.5])), matrix_vector_product(a, a[::-1] * 2)


def vectorize_needs_core_dimensions(jax):
    jnp = jax.numpy
    matrix_vector_product = vectorized(jnp)[1]
    return matrix_vector_product(jnp.ones(3), jnp.ones(3))


def matmul_contracting_mismatch(jax):
    jnp = jax.numpy
    return jnp.matmul(jnp.ones((2, 3)), jnp.ones((4, 3)))


EXAMPLES = {name: example for name, example in list(globals().items())
            if callable(example) and getattr(example, "__module__", None) == __name__
            and name not in {"sin_cos", "jacobian_example", "derivatives_of", "vectorized"}}

if __name__ == "__main__":
    seed_golden.write(EXAMPLES, "000")
