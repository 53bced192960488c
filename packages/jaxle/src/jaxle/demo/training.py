"""An MLP classifier for scikit-learn's 8x8 digits, trained with minibatch Adam, written against JAX's public API.

Every function takes the ``jax`` module as its first parameter: the demo passes ``jaxle``, the golden generator
passes JAX 0.10.2, and the two runs of this same code can be compared number for number.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from jaxle.demo.adam import adam, apply_updates

__all__ = ["Config", "Digits", "History", "load_digits", "init_params", "predict", "batch_loss", "accuracy",
           "make_train_step", "initial_state", "steps_per_epoch", "train"]

IMAGE_SIZE = 64
CLASSES = 10


@dataclass(frozen=True)
class Config:
    """What to train: layer width, minibatch size, epochs, Adam's step size, the seed, and an optional cap on steps."""

    hidden: int = 64
    batch_size: int = 64
    epochs: int = 10
    learning_rate: float = 1e-2
    seed: int = 0
    steps_per_epoch: int | None = None


class Digits(NamedTuple):
    """Images scaled to [0, 1] as float32 rows of 64 pixels, labels as int32, split into train and test."""

    train_images: np.ndarray
    train_labels: np.ndarray
    test_images: np.ndarray
    test_labels: np.ndarray


@dataclass
class History:
    """What a run produced: the loss of every step, per-epoch means and accuracies, and seconds per step."""

    step_losses: list[float] = field(default_factory=list)
    epoch_losses: list[float] = field(default_factory=list)
    train_accuracy: list[float] = field(default_factory=list)
    test_accuracy: list[float] = field(default_factory=list)
    step_seconds: list[float] = field(default_factory=list)
    compile_seconds: float = 0.0
    params: Any = None


def load_digits(test_every: int = 5) -> Digits:
    """scikit-learn's digits (1797 images, shipped with it): every ``test_every``-th image is in the test set."""
    from sklearn.datasets import load_digits as sklearn_digits

    images, labels = sklearn_digits(return_X_y=True)
    images = (images / 16.0).astype(np.float32)
    labels = labels.astype(np.int32)
    # A strided split rather than a cut: the images come grouped by writer, and the test set should not hold
    # writers the model never saw.
    test = np.arange(len(images)) % test_every == 0
    return Digits(images[~test], labels[~test], images[test], labels[test])


def init_params(jax: ModuleType, key: Any, sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    """He-initialised dense layers ``{"w", "b"}`` for consecutive ``sizes``, one PRNG key per layer."""
    jnp = jax.numpy
    keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(k, (fan_in, fan_out)) * np.float32(np.sqrt(2.0 / fan_in)),
             "b": jnp.zeros(fan_out)}
            for k, fan_in, fan_out in zip(keys, sizes[:-1], sizes[1:])]


def predict(jax: ModuleType, params: list[dict[str, Any]], image: Any) -> Any:
    """The logits of one image: ReLU hidden layers, a linear last layer."""
    jnp = jax.numpy
    activations = image
    for layer in params[:-1]:
        activations = jnp.maximum(activations @ layer["w"] + layer["b"], 0.0)
    return activations @ params[-1]["w"] + params[-1]["b"]


def _example_loss(jax: ModuleType, params: list[dict[str, Any]], image: Any, label: Any) -> Any:
    """Cross-entropy of one image: log-sum-exp of the logits minus the logit of the true class."""
    jnp = jax.numpy
    logits = predict(jax, params, image)
    # Shifting by the (constant) largest logit keeps exp from overflowing without changing the result.
    shift = jax.lax.stop_gradient(jnp.max(logits))
    return shift + jnp.log(jnp.sum(jnp.exp(logits - shift))) - logits[label]


def batch_loss(jax: ModuleType, params: list[dict[str, Any]], images: Any, labels: Any) -> Any:
    """Mean cross-entropy over a batch: the per-example loss mapped over the batch with ``vmap``."""
    losses = jax.vmap(partial(_example_loss, jax), in_axes=(None, 0, 0))(params, images, labels)
    return jax.numpy.mean(losses)


def accuracy(jax: ModuleType, params: list[dict[str, Any]], images: Any, labels: Any) -> Any:
    """Fraction of images whose largest logit is the true class."""
    jnp = jax.numpy
    logits = jax.vmap(partial(predict, jax), in_axes=(None, 0))(params, images)
    return jnp.mean(jnp.argmax(logits, axis=-1) == labels)


def make_train_step(jax: ModuleType, learning_rate: float) -> Callable:
    """``step(params, opt_state, images, labels) -> (params, opt_state, loss)``: one Adam step on a batch."""
    optimizer = adam(jax, learning_rate)

    def step(params: Any, opt_state: Any, images: Any, labels: Any) -> tuple[Any, Any, Any]:
        loss, grads = jax.value_and_grad(partial(batch_loss, jax))(params, images, labels)
        updates, opt_state = optimizer.update(grads, opt_state)
        return apply_updates(jax, params, updates), opt_state, loss

    return step


def initial_state(jax: ModuleType, config: Config) -> tuple[Any, Any, Any]:
    """``(params, opt_state, shuffle_key)`` from ``PRNGKey(config.seed)``: one key initialises, one shuffles."""
    init_key, shuffle_key = jax.random.split(jax.random.PRNGKey(config.seed))
    params = init_params(jax, init_key, (IMAGE_SIZE, config.hidden, CLASSES))
    return params, adam(jax, config.learning_rate).init(params), shuffle_key


def steps_per_epoch(data: Digits, config: Config) -> int:
    """Whole batches in the training set, capped by ``config.steps_per_epoch``."""
    batches = len(data.train_images) // config.batch_size
    return batches if config.steps_per_epoch is None else min(batches, config.steps_per_epoch)


def train(jax: ModuleType, data: Digits, config: Config, on_step: Callable[[float], None] | None = None,
          on_epoch: Callable[[int, History], None] | None = None) -> History:
    """Train with a jitted Adam step on minibatches reshuffled every epoch by ``jax.random.permutation``."""
    params, opt_state, shuffle_key = initial_state(jax, config)
    step = jax.jit(make_train_step(jax, config.learning_rate))
    evaluate = jax.jit(partial(accuracy, jax))
    batches = steps_per_epoch(data, config)
    history = History()
    for epoch in range(config.epochs):
        order = np.asarray(jax.random.permutation(jax.random.fold_in(shuffle_key, epoch), len(data.train_images)))
        epoch_losses = []
        for batch in range(batches):
            chosen = order[batch * config.batch_size:(batch + 1) * config.batch_size]
            started = time.perf_counter()
            params, opt_state, loss = step(params, opt_state, data.train_images[chosen], data.train_labels[chosen])
            loss = float(loss)  # waits for the step, so the time below is the step's whole cost
            elapsed = time.perf_counter() - started
            if epoch == 0 and batch == 0:
                history.compile_seconds = elapsed
            else:
                history.step_seconds.append(elapsed)
            epoch_losses.append(loss)
            if on_step is not None:
                on_step(loss)
        history.step_losses += epoch_losses
        history.epoch_losses.append(float(np.mean(epoch_losses)))
        history.train_accuracy.append(float(evaluate(params, data.train_images, data.train_labels)))
        history.test_accuracy.append(float(evaluate(params, data.test_images, data.test_labels)))
        if on_epoch is not None:
            on_epoch(epoch, history)
    history.params = params
    return history
