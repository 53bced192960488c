"""The demo's golden values: what JAX 0.10.2 gives for the same training code, and the comparison with them.

``measure(jax, data)`` runs the default configuration and a short one and records the losses, accuracies and the
jaxprs of the loss and of the train step. ``packages/jaxle/tests/golden/make_demo_golden.py`` runs it with JAX
0.10.2 and commits the result as ``jax_golden.json`` beside this module, which the demo and its tests read.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
from functools import partial
from types import ModuleType

import numpy as np

from jaxle.demo.training import Config, Digits, batch_loss, initial_state, make_train_step, train

__all__ = ["GOLDEN_FILE", "DEFAULT", "SHORT", "jaxprs", "measure", "load_golden", "reference_epochs",
           "largest_relative_difference"]

GOLDEN_FILE = pathlib.Path(__file__).with_name("jax_golden.json")
DEFAULT = Config()
SHORT = Config(epochs=1, steps_per_epoch=5)


def jaxprs(jax: ModuleType, data: Digits, config: Config) -> dict[str, str]:
    """The jaxpr text of the batch loss and of one train step, traced on the first batch."""
    params, opt_state, _ = initial_state(jax, config)
    images, labels = data.train_images[:config.batch_size], data.train_labels[:config.batch_size]
    return {"loss": str(jax.make_jaxpr(partial(batch_loss, jax))(params, images, labels)),
            "train_step": str(jax.make_jaxpr(make_train_step(jax, config.learning_rate))(
                params, opt_state, images, labels))}


def measure(jax: ModuleType, data: Digits) -> dict:
    """Everything the golden file holds, computed with the given ``jax`` module."""
    full = train(jax, data, DEFAULT)
    short = train(jax, data, SHORT)
    return {"default": {"config": dataclasses.asdict(DEFAULT), "epoch_losses": full.epoch_losses,
                        "train_accuracy": full.train_accuracy, "test_accuracy": full.test_accuracy},
            "short": {"config": dataclasses.asdict(SHORT), "step_losses": short.step_losses},
            "jaxprs": jaxprs(jax, data, DEFAULT)}


def load_golden() -> dict:
    """The committed values of JAX 0.10.2."""
    return json.loads(GOLDEN_FILE.read_text())


def reference_epochs(config: Config, golden: dict) -> list[float] | None:
    """JAX's per-epoch losses for ``config``'s epochs, if the golden default run covers them.

    A run that differs from the default only by stopping earlier follows the same steps, so its epochs are a prefix
    of the default run's.
    """
    recorded = golden["default"]
    if dataclasses.replace(config, epochs=recorded["config"]["epochs"]) != Config(**recorded["config"]):
        return None
    if config.epochs > recorded["config"]["epochs"]:
        return None
    return recorded["epoch_losses"][:config.epochs]


def largest_relative_difference(actual: list[float], expected: list[float]) -> float:
    """max |actual - expected| / |expected| over the two sequences."""
    actual_values, expected_values = np.asarray(actual), np.asarray(expected)
    return float(np.max(np.abs(actual_values - expected_values) / np.abs(expected_values)))
