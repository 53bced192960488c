"""Programs over ``example_libraries`` (stax networks, optimizer trajectories, schedules) whose numbers are compared
with JAX 0.10.2's: the same code runs with ``jax`` (golden/make_example_libraries_golden.py) and with ``jaxle``
(test_example_libraries.py). It receives the top-level module and imports neither."""

from __future__ import annotations

import importlib

import numpy as np


def _tolist(tree, jax):
    return [np.asarray(leaf).tolist() for leaf in jax.tree_util.tree_leaves(tree)]


def _inputs(shape):
    return (np.sin(np.arange(np.prod(shape), dtype=np.float32) * 0.7).reshape(shape)).astype(np.float32)


def stax_networks(jax) -> dict:
    """Output shapes, initial parameters and outputs of networks covering every stax layer."""
    stax = importlib.import_module(f"{jax.__name__}.example_libraries.stax")
    networks = {
        "mlp": (stax.serial(stax.Dense(5), stax.Relu, stax.Dense(3), stax.LogSoftmax), (4, 6)),
        "activations": (stax.serial(stax.Dense(4), stax.FanOut(9),
                                    stax.parallel(stax.Tanh, stax.Exp, stax.Softmax, stax.Softplus, stax.Sigmoid,
                                                  stax.Elu, stax.LeakyRelu, stax.Selu, stax.Gelu),
                                    stax.FanInConcat()), (2, 3)),
        "conv": (stax.serial(stax.Conv(3, (3, 3), padding="SAME"), stax.BatchNorm(), stax.Relu,
                             stax.MaxPool((2, 2), strides=(2, 2)), stax.Conv(2, (2, 2), strides=(1, 2)),
                             stax.AvgPool((2, 2), padding="SAME"), stax.SumPool((1, 2)), stax.Flatten,
                             stax.Dense(2), stax.Softmax), (2, 8, 8, 1)),
        "general_conv": (stax.serial(stax.GeneralConv(("NCHW", "OIHW", "NCHW"), 2, (2, 3), strides=(2, 1)),
                                     stax.BatchNorm(axis=(0, 2, 3), center=False),
                                     stax.AvgPool((2, 2), spec="NCHW")), (1, 2, 6, 5)),
        "transpose": (stax.serial(stax.ConvTranspose(2, (3, 3), strides=(2, 2), padding="SAME"),
                                  stax.BatchNorm(scale=False)), (1, 3, 3, 2)),
        "transpose_1d": (stax.serial(stax.Conv1DTranspose(3, (2,), padding="VALID"), stax.Identity), (2, 4, 1)),
        "residual": (stax.serial(stax.FanOut(2), stax.parallel(stax.Dense(4), stax.Identity), stax.FanInSum),
                     (3, 4)),
        "shape_dependent": (stax.shape_dependent(lambda shape: stax.Dense(shape[-1] * 2)), (2, 3)),
    }
    results = {}
    for name, ((init_fun, apply_fun), input_shape) in networks.items():
        output_shape, params = init_fun(jax.random.key(1), input_shape)
        outputs = apply_fun(params, _inputs(input_shape))
        results[name] = {"output_shape": np.asarray(output_shape).tolist(), "params": _tolist(params, jax),
                         "outputs": _tolist(outputs, jax)}
    init_fun, apply_fun = stax.serial(stax.Dense(6), stax.Dropout(0.7), stax.Dense(2))
    _, params = init_fun(jax.random.key(2), (3, 4))
    train = apply_fun(params, _inputs((3, 4)), rng=jax.random.key(3))
    test_init, test_apply = stax.Dropout(0.7, mode="test")
    results["dropout"] = {"train": _tolist(train, jax),
                          "test": _tolist(test_apply((), _inputs((2, 2)), rng=jax.random.key(0)), jax)}
    return results


def optimizer_trajectories(jax, steps: int = 5) -> dict:
    """Parameters after ``steps`` updates of a quadratic-plus-sine loss over a small pytree, per optimizer."""
    optimizers = importlib.import_module(f"{jax.__name__}.example_libraries.optimizers")
    jnp = jax.numpy

    def loss(params):
        return sum(jnp.sum(jnp.square(leaf - 0.5) + 0.3 * jnp.sin(3 * leaf))
                   for leaf in jax.tree_util.tree_leaves(params))

    start = {"w": _inputs((2, 3)), "b": (_inputs((3,)) * 2, np.float32(0.25))}
    made = {
        "sgd": optimizers.sgd(0.1),
        "sgd_schedule": optimizers.sgd(optimizers.exponential_decay(0.2, 2, 0.5)),
        "momentum": optimizers.momentum(0.05, 0.9),
        "nesterov": optimizers.nesterov(optimizers.inverse_time_decay(0.1, 2, 0.5, staircase=True), 0.8),
        "adagrad": optimizers.adagrad(0.3),
        "rmsprop": optimizers.rmsprop(optimizers.polynomial_decay(0.05, 3, 0.01)),
        "rmsprop_momentum": optimizers.rmsprop_momentum(0.01),
        "adam": optimizers.adam(optimizers.piecewise_constant([1, 3], [0.1, 0.05, 0.02])),
        "adamax": optimizers.adamax(0.05),
        "sm3": optimizers.sm3(0.2),
    }
    results = {}
    for name, (init_fun, update_fun, get_params) in made.items():
        state = init_fun(start)

        def step(i, state, update_fun=update_fun, get_params=get_params):
            grads = jax.grad(loss)(get_params(state))
            return update_fun(i, optimizers.clip_grads(grads, 2.0), state)

        if name != "sm3":  # sm3's state holds each leaf's shape, which jit would turn into a traced array
            step = jax.jit(step)

        for i in range(steps):
            state = step(i, state)
        restored = optimizers.pack_optimizer_state(optimizers.unpack_optimizer_state(state))
        results[name] = {"params": _tolist(get_params(restored), jax),
                         "state": _tolist(state, jax),
                         "l2_norm": float(optimizers.l2_norm(get_params(state)))}
    return results
