"""Seed 002 (JAX's README): its single-device examples, run with the module named on the command line.

``/work/jaxpeer/bin/python integration-tests/golden/make_seed_002_golden.py jax`` writes seed_002_golden.json.
The README's timing example uses 5000x5000 matrices only to time them; here they are 8x8. Its pmap examples
(the 8-GPU matmul, ``normalize`` with ``lax.psum`` and the nested pmaps differentiated by ``grad``) are recorded by
multidevice-tests/golden/make_pmap_golden.py.
"""

from __future__ import annotations

import sys
from functools import partial

import seed_golden


def tanh_of(jnp):
    def tanh(x):
        y = jnp.exp(-2.0 * x)
        return (1.0 - y) / (1.0 + y)
    return tanh


def grad_tanh(jax):
    grad_tanh = jax.grad(tanh_of(jax.numpy))
    return grad_tanh(1.0)


def third_derivative_of_tanh(jax):
    grad = jax.grad
    return grad(grad(grad(tanh_of(jax.numpy))))(1.0)


def hessian_by_jacfwd_of_jacrev(jax):
    jit, jacfwd, jacrev = jax.jit, jax.jacfwd, jax.jacrev

    def hessian(fun):
        return jit(jacfwd(jacrev(fun)))

    return hessian(lambda x: tanh_of(jax.numpy)(x).sum() * x[0])(jax.numpy.array([0.5, 1.0, -2.0]))


def abs_val(x):
    if x > 0:
        return x
    else:
        return -x


def grad_of_python_control_flow(jax):
    abs_val_grad = jax.grad(abs_val)
    return abs_val_grad(1.0), abs_val_grad(-1.0)


def jit_fuses_elementwise_ops(jax):
    jnp = jax.numpy

    def slow_f(x):
        return x * x + x * 2.0

    x = jnp.ones((8, 8))
    fast_f = jax.jit(slow_f)
    return fast_f(x), slow_f(x)


def mlp_params(jax, sizes=(3, 4, 2)):
    """Deterministic layers (W, b) for the README's ``predict`` from a fixed key."""
    keys = jax.random.split(jax.random.PRNGKey(0), 2 * (len(sizes) - 1))
    return [(jax.random.normal(keys[2 * i], (m, n)), jax.random.normal(keys[2 * i + 1], (n,)))
            for i, (m, n) in enumerate(zip(sizes[:-1], sizes[1:]))]


def batch_data(jax, batch=5, sizes=(3, 4, 2)):
    key_in, key_out = jax.random.split(jax.random.PRNGKey(1))
    return jax.random.normal(key_in, (batch, sizes[0])), jax.random.normal(key_out, (batch, sizes[-1]))


def first_example(jax):
    """The README's opening example: a compiled gradient and fast per-example gradients."""
    jnp = jax.numpy
    grad, jit, vmap = jax.grad, jax.jit, jax.vmap

    def predict(params, inputs):
        for W, b in params:
            outputs = jnp.dot(inputs, W) + b
            inputs = jnp.tanh(outputs)  # inputs to the next layer
        return outputs                # no activation on last layer

    def loss(params, inputs, targets):
        preds = predict(params, inputs)
        return jnp.sum((preds - targets)**2)

    grad_loss = jit(grad(loss))  # compiled gradient evaluation function
    perex_grads = jit(vmap(grad_loss, in_axes=(None, 0, 0)))  # fast per-example grads
    params = mlp_params(jax)
    inputs, targets = batch_data(jax)
    return grad_loss(params, inputs, targets), perex_grads(params, inputs, targets)


def vmap_of_unbatched_predict(jax):
    """``predict`` written for one input vector, batched by hand, by ``map`` and by ``vmap`` two ways."""
    jnp, vmap, grad = jax.numpy, jax.vmap, jax.grad

    def predict(params, input_vec):
        assert input_vec.ndim == 1
        activations = input_vec
        for W, b in params:
            outputs = jnp.dot(W, activations) + b  # `activations` on the right-hand side!
            activations = jnp.tanh(outputs)        # inputs to the next layer
        return outputs                           # no activation on last layer

    def loss(params, inputs, targets):
        return jnp.sum((predict(params, inputs) - targets) ** 2)

    params = [(W.T, b) for W, b in mlp_params(jax)]
    input_batch, targets = batch_data(jax)
    by_map = jnp.stack(list(map(partial(predict, params), input_batch)))
    by_vmap = vmap(partial(predict, params))(input_batch)
    by_in_axes = vmap(predict, in_axes=(None, 0))(params, input_batch)
    per_example_gradients = vmap(partial(grad(loss), params))(input_batch, targets)
    return by_map, by_vmap, by_in_axes, per_example_gradients


def single_precision_by_default(jax):
    """A Python scalar does not widen a float32 array."""
    jnp = jax.numpy
    return jnp.add(1, jnp.array([2], jnp.float32))


def in_place_update_is_refused(jax):
    x = jax.numpy.zeros(3)
    x[0] += 1.0
    return x


def functional_update(jax):
    x = jax.numpy.zeros(3)
    return x.at[0].add(1.0), x


EXAMPLES = {
    "grad_tanh": grad_tanh,
    "third_derivative_of_tanh": third_derivative_of_tanh,
    "hessian_by_jacfwd_of_jacrev": hessian_by_jacfwd_of_jacrev,
    "grad_of_python_control_flow": grad_of_python_control_flow,
    "jit_fuses_elementwise_ops": jit_fuses_elementwise_ops,
    "first_example": first_example,
    "vmap_of_unbatched_predict": vmap_of_unbatched_predict,
    "single_precision_by_default": single_precision_by_default,
    "in_place_update_is_refused": in_place_update_is_refused,
    "functional_update": functional_update,
}

if __name__ == "__main__":
    seed_golden.write(EXAMPLES, sys.argv[2] if len(sys.argv) > 2 else "002")
