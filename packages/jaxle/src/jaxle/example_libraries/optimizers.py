"""``jax.example_libraries.optimizers``: first-order optimizers over pytrees of arrays.

An optimizer is a triple ``(init_fun, update_fun, get_params)``: ``init_fun(params)`` gives an ``OptimizerState``,
``update_fun(step, grads, state)`` the next state and ``get_params(state)`` the parameters. Each optimizer is written
for a single array and lifted to pytrees by the ``optimizer`` decorator. Step sizes are numbers or schedules
(functions of the step number).
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable
from typing import Any, NamedTuple

import jaxle.numpy as jnp
from jaxle.tree_util import register_pytree_node, tree_flatten, tree_map, tree_unflatten

__all__ = ["Array", "InitFn", "JoinPoint", "Optimizer", "OptimizerState", "Params", "ParamsFn", "Schedule", "State",
           "Step", "UpdateFn", "Updates", "adagrad", "adam", "adamax", "clip_grads", "constant", "exponential_decay",
           "inverse_time_decay", "l2_norm", "make_schedule", "momentum", "nesterov", "optimizer",
           "pack_optimizer_state", "piecewise_constant", "polynomial_decay", "rmsprop", "rmsprop_momentum", "sgd",
           "sm3", "unpack_optimizer_state"]

# The flattened per-leaf states, the parameters' tree structure and each leaf state's tree structure.
OptimizerState = namedtuple("OptimizerState", ["packed_state", "tree_def", "subtree_defs"])
register_pytree_node(OptimizerState,
                     lambda state: ((state.packed_state,), (state.tree_def, state.subtree_defs)),
                     lambda aux, children: OptimizerState(children[0], *aux))

Array = Any
Params = Any
State = Any
Updates = Params
Step = int
Schedule = Callable[[Step], float]
InitFn = Callable[[Params], OptimizerState]
UpdateFn = Callable[[Step, Updates, OptimizerState], OptimizerState]
ParamsFn = Callable[[OptimizerState], Params]


class Optimizer(NamedTuple):
    """An optimizer's three functions."""

    init_fn: InitFn
    update_fn: UpdateFn
    params_fn: ParamsFn


def _flatten_each(trees):
    flat = [tree_flatten(tree) for tree in trees]
    return tuple(leaves for leaves, _ in flat), tuple(treedef for _, treedef in flat)


def optimizer(opt_maker: Callable[..., tuple[Callable, Callable, Callable]]) -> Callable[..., Optimizer]:
    """Lifts an optimizer written for one array to one over pytrees of arrays."""

    @functools.wraps(opt_maker)
    def tree_opt_maker(*args, **kwargs):
        init, update, get_params = opt_maker(*args, **kwargs)

        @functools.wraps(init)
        def tree_init(x0_tree):
            x0_flat, tree = tree_flatten(x0_tree)
            states_flat, subtrees = _flatten_each([init(x0) for x0 in x0_flat])
            return OptimizerState(states_flat, tree, subtrees)

        @functools.wraps(update)
        def tree_update(i, grad_tree, opt_state):
            states_flat, tree, subtrees = opt_state
            grad_flat, grad_tree_def = tree_flatten(grad_tree)
            if grad_tree_def != tree:
                raise TypeError("optimizer update function was passed a gradient tree that did not match the "
                                f"parameter tree structure with which it was initialized: parameter tree {tree} "
                                f"and grad tree {grad_tree_def}.")
            states = [tree_unflatten(subtree, flat) for subtree, flat in zip(subtrees, states_flat)]
            new_states = [update(i, g, state) for g, state in zip(grad_flat, states)]
            new_states_flat, new_subtrees = _flatten_each(new_states)
            for subtree, new_subtree in zip(subtrees, new_subtrees):
                if new_subtree != subtree:
                    raise TypeError("optimizer update function produced an output structure that did not match its "
                                    f"input structure: input {subtree} and output {new_subtree}.")
            return OptimizerState(new_states_flat, tree, subtrees)

        @functools.wraps(get_params)
        def tree_get_params(opt_state):
            states_flat, tree, subtrees = opt_state
            states = [tree_unflatten(subtree, flat) for subtree, flat in zip(subtrees, states_flat)]
            return tree_unflatten(tree, [get_params(state) for state in states])

        return Optimizer(tree_init, tree_update, tree_get_params)

    return tree_opt_maker


@optimizer
def sgd(step_size):
    """Stochastic gradient descent."""
    step_size = make_schedule(step_size)

    def init(x0):
        return x0

    def update(i, g, x):
        return x - step_size(i) * g

    def get_params(x):
        return x

    return Optimizer(init, update, get_params)


def _first(state):
    return state[0]


def _init_with_zeros(count: int) -> Callable:
    """The init of an optimizer whose state is the parameters and ``count`` zero-initialized moments like them."""

    def init(x0):
        return (x0, *(jnp.zeros_like(x0) for _ in range(count)))

    return init


@optimizer
def momentum(step_size: Schedule, mass: float):
    """Gradient descent with momentum ``mass``."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * velocity, velocity

    return _init_with_zeros(1), update, _first


@optimizer
def nesterov(step_size: Schedule, mass: float):
    """Gradient descent with Nesterov momentum ``mass``."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * (mass * velocity + g), velocity

    return _init_with_zeros(1), update, _first


@optimizer
def adagrad(step_size, momentum=0.9):
    """Adagrad (steps scaled by the inverse root of the summed squared gradients), with momentum."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, g_sq, m = state
        g_sq += jnp.square(g)
        g_sq_inv_sqrt = jnp.where(g_sq > 0, 1.0 / jnp.sqrt(g_sq), 0.0)
        m = (1.0 - momentum) * (g * g_sq_inv_sqrt) + momentum * m
        return x - step_size(i) * m, g_sq, m

    return _init_with_zeros(2), update, _first


@optimizer
def rmsprop(step_size, gamma=0.9, eps=1e-8):
    """RMSProp: steps scaled by the root of a running mean of squared gradients."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq_grad = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        return x - step_size(i) * g / jnp.sqrt(avg_sq_grad + eps), avg_sq_grad

    return _init_with_zeros(1), update, _first


@optimizer
def rmsprop_momentum(step_size, gamma=0.9, eps=1e-8, momentum=0.9):
    """RMSProp with momentum."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq_grad, mom = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        mom = momentum * mom + step_size(i) * g / jnp.sqrt(avg_sq_grad + eps)
        return x - mom, avg_sq_grad, mom

    return _init_with_zeros(2), update, _first


def _bias_correction(decay, dtype, i):
    return 1 - jnp.asarray(decay, dtype) ** (i + 1)


@optimizer
def adam(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """Adam: bias-corrected running means of the gradients and of their squares."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * jnp.square(g) + b2 * v
        mhat = m / _bias_correction(b1, m.dtype, i)
        vhat = v / _bias_correction(b2, m.dtype, i)
        return x - step_size(i) * mhat / (jnp.sqrt(vhat) + eps), m, v

    return _init_with_zeros(2), update, _first


@optimizer
def adamax(step_size, b1=0.9, b2=0.999, eps=1e-8):
    """AdaMax: Adam with the infinity norm of past gradients in place of the second moment."""
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = jnp.maximum(b2 * u, jnp.abs(g))
        return x - (step_size(i) / _bias_correction(b1, m.dtype, i)) * m / (u + eps), m, u

    return _init_with_zeros(2), update, _first


def _without_axis(seq, axis):
    return [item for j, item in enumerate(seq) if j != axis]


@optimizer
def sm3(step_size, momentum=0.9):
    """SM3: Adagrad with one accumulator per row/column slice of each array, to save memory."""
    step_size = make_schedule(step_size)

    def along_axis(ndim, v, axis):
        index = [None] * ndim
        index[axis:axis + 1] = [slice(None)]  # a slice assignment, so that a scalar's gradient (ndim 0) works
        return v[tuple(index)]

    def init(x0):
        shape = x0.shape
        x0 = jnp.atleast_1d(x0)
        accumulators = [jnp.zeros(size, dtype=x0.dtype) for size in x0.shape]
        return x0, jnp.zeros_like(x0), accumulators, shape

    def update(i, g, state):
        x, m, accumulators, shape = state
        expanded = [along_axis(g.ndim, v, axis) for axis, v in enumerate(accumulators)]
        accum = functools.reduce(jnp.minimum, expanded) + jnp.square(g)
        accum_inv_sqrt = jnp.where(accum > 0, 1.0 / jnp.sqrt(accum), 0)
        m = (1.0 - momentum) * (g * accum_inv_sqrt) + momentum * m
        x = x - step_size(i) * m
        accumulators = [accum.max(tuple(_without_axis(range(x.ndim), axis))) for axis in range(x.ndim)]
        return x, m, accumulators, shape

    def get_params(state):
        x, _, _, shape = state
        return x.reshape(shape)

    return init, update, get_params


def constant(step_size) -> Schedule:
    """The schedule of a fixed step size."""

    def schedule(i):
        return step_size

    return schedule


def exponential_decay(step_size, decay_steps, decay_rate):
    """``step_size * decay_rate ** (i / decay_steps)``."""

    def schedule(i):
        return step_size * decay_rate ** (i / decay_steps)

    return schedule


def inverse_time_decay(step_size, decay_steps, decay_rate, staircase=False):
    """``step_size / (1 + decay_rate * i / decay_steps)``, with ``i / decay_steps`` floored if ``staircase``."""
    if staircase:
        def schedule(i):
            return step_size / (1 + decay_rate * jnp.floor(i / decay_steps))
    else:
        def schedule(i):
            return step_size / (1 + decay_rate * i / decay_steps)
    return schedule


def polynomial_decay(step_size, decay_steps, final_step_size, power=1.0):
    """From ``step_size`` to ``final_step_size`` over ``decay_steps`` steps along ``(1 - i / decay_steps) ** power``,
    constant after."""

    def schedule(step_num):
        step_num = jnp.minimum(step_num, decay_steps)
        step_mult = (1 - step_num / decay_steps) ** power
        return step_mult * (step_size - final_step_size) + final_step_size

    return schedule


def piecewise_constant(boundaries: Any, values: Any):
    """``values[k]`` for steps past ``k`` of the ``boundaries``."""
    boundaries = jnp.array(boundaries)
    values = jnp.array(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ValueError("boundaries and values must be sequences")
    if not boundaries.shape[0] == values.shape[0] - 1:
        raise ValueError("boundaries length must be one shorter than values length")

    def schedule(i):
        return values[jnp.sum(i > boundaries)]

    return schedule


def make_schedule(scalar_or_schedule: float | Schedule) -> Schedule:
    """A schedule as is, or a number as a constant schedule."""
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(type(scalar_or_schedule))


def l2_norm(tree):
    """The l2 norm of all the leaves of a pytree together."""
    leaves, _ = tree_flatten(tree)
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree, max_norm):
    """Scales a gradient pytree down so that its l2 norm is at most ``max_norm``."""
    norm = l2_norm(grad_tree)
    return tree_map(lambda g: jnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree)


class JoinPoint:
    """A marker standing for one leaf's optimizer state in ``unpack_optimizer_state``'s pytree."""

    def __init__(self, subtree):
        self.subtree = subtree

    def __iter__(self):
        yield self.subtree


def unpack_optimizer_state(opt_state):
    """An ``OptimizerState`` as a pytree of ``JoinPoint``s shaped like the parameters (for saving)."""
    states_flat, tree_def, subtree_defs = opt_state
    subtrees = [tree_unflatten(subtree, flat) for subtree, flat in zip(subtree_defs, states_flat)]
    return tree_unflatten(tree_def, [JoinPoint(subtree) for subtree in subtrees])


def pack_optimizer_state(marked_pytree):
    """The inverse of ``unpack_optimizer_state``."""
    sentinels, tree_def = tree_flatten(marked_pytree)
    if not all(isinstance(sentinel, JoinPoint) for sentinel in sentinels):
        raise AssertionError()
    states_flat, subtree_defs = _flatten_each([sentinel.subtree for sentinel in sentinels])
    return OptimizerState(states_flat, tree_def, subtree_defs)
