"""The main job (``python -m jaxle.demo``): its numbers and jaxprs are JAX 0.10.2's, its Adam is Adam, its CLI runs."""

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

import jaxle as jax
from jaxle.demo import (
    DEFAULT,
    SHORT,
    Config,
    History,
    adam,
    apply_updates,
    cli,
    jaxprs,
    load_digits,
    load_golden,
    reference_epochs,
    train,
)


@pytest.fixture(scope="module")
def digits():
    return load_digits()


@pytest.fixture(scope="module")
def golden():
    return load_golden()


def test_digits_split(digits):
    assert digits.train_images.shape == (1437, 64) and digits.test_images.shape == (360, 64)
    assert digits.train_images.dtype == np.float32 and digits.train_labels.dtype == np.int32
    assert 0.0 <= digits.train_images.min() and digits.train_images.max() <= 1.0
    assert set(np.unique(digits.test_labels)) == set(range(10))


def test_short_run_has_jax_losses(digits, golden):
    history = train(jax, digits, SHORT)
    assert dataclasses.asdict(SHORT) == golden["short"]["config"]
    np.testing.assert_allclose(history.step_losses, golden["short"]["step_losses"], rtol=1e-6)


def test_first_epochs_of_the_default_run_have_jax_losses_and_accuracies(digits, golden):
    config = dataclasses.replace(DEFAULT, epochs=2)
    history = train(jax, digits, config)
    np.testing.assert_allclose(history.epoch_losses, reference_epochs(config, golden), rtol=1e-6)
    np.testing.assert_allclose(history.test_accuracy, golden["default"]["test_accuracy"][:2], rtol=1e-6)


def test_the_jaxprs_of_the_loss_and_the_train_step_are_jax_text(digits, golden):
    assert jaxprs(jax, digits, DEFAULT) == golden["jaxprs"]


def test_reference_epochs_only_for_the_recorded_run(golden):
    assert reference_epochs(dataclasses.replace(DEFAULT, epochs=3), golden) == golden["default"]["epoch_losses"][:3]
    assert reference_epochs(dataclasses.replace(DEFAULT, epochs=DEFAULT.epochs + 1), golden) is None
    assert reference_epochs(dataclasses.replace(DEFAULT, seed=1), golden) is None
    assert reference_epochs(SHORT, golden) is None


def test_adam_against_numpy():
    """Three steps on a two-leaf pytree against Adam's update rule written out in NumPy."""
    rng = np.random.default_rng(0)
    params = {"w": rng.normal(size=(3, 2)).astype(np.float32), "b": rng.normal(size=2).astype(np.float32)}
    grads = [{"w": rng.normal(size=(3, 2)).astype(np.float32), "b": rng.normal(size=2).astype(np.float32)}
             for _ in range(3)]
    optimizer = adam(jax, 0.1)
    state = optimizer.init(params)
    expected = {name: value.astype(np.float64) for name, value in params.items()}
    mu = {name: 0.0 for name in params}
    nu = {name: 0.0 for name in params}
    for t, grad in enumerate(grads, start=1):
        updates, state = optimizer.update(grad, state)
        params = apply_updates(jax, params, updates)
        for name, g in grad.items():
            mu[name] = 0.9 * mu[name] + 0.1 * g
            nu[name] = 0.999 * nu[name] + 0.001 * g.astype(np.float64) ** 2
            expected[name] = expected[name] - 0.1 * (mu[name] / (1 - 0.9 ** t)) / (
                np.sqrt(nu[name] / (1 - 0.999 ** t)) + 1e-8)
    assert int(state.count) == 3
    for name in expected:
        np.testing.assert_allclose(np.asarray(params[name]), expected[name], rtol=1e-5, atol=1e-5)


def test_training_learns(digits):
    history = train(jax, digits, Config(epochs=2))
    assert history.epoch_losses[1] < history.epoch_losses[0] < 2.3
    assert history.test_accuracy[-1] > 0.9


def test_cli_runs_one_epoch(tmp_path, golden):
    plot = tmp_path / "curve" / "loss.png"
    done = subprocess.run([sys.executable, "-m", "jaxle.demo", "--epochs", "1", "--plot", str(plot)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "jaxpr of the loss: identical to JAX 0.10.2's" in out
    assert "jaxpr of the train step: identical to JAX 0.10.2's" in out
    assert f"loss {golden['default']['epoch_losses'][0]:.4f}" in out
    assert "fixed-seed check: the 1 epoch losses" in out and "JAX 0.10.2's" in out
    assert "final test accuracy" in out and "time per step" in out
    assert f"loss curve: {plot}" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_without_a_jax_reference(tmp_path):
    done = subprocess.run([sys.executable, "-m", "jaxle.demo", "--epochs", "1", "--steps-per-epoch", "2", "--seed",
                           "3", "--no-progress", "--plot", "loss.png"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "no JAX 0.10.2 values recorded for this configuration" in done.stdout
    assert (tmp_path / "loss.png").exists()


def test_the_check_fails_on_losses_that_are_not_jax(golden, capsys):
    config = dataclasses.replace(DEFAULT, epochs=2)
    expected = reference_epochs(config, golden)
    assert cli._compare_with_jax(History(epoch_losses=list(expected)), config, golden)
    assert "equal to JAX 0.10.2's, bit for bit" in capsys.readouterr().out
    assert cli._compare_with_jax(History(epoch_losses=[expected[0], expected[1] * (1 + 1e-7)]), config, golden)
    assert "equal to JAX 0.10.2's to 1e-07 (relative)" in capsys.readouterr().out
    assert not cli._compare_with_jax(History(epoch_losses=[expected[0], expected[1] * 1.001]), config, golden)
    assert "DIFFERENT from JAX 0.10.2's, by up to 1.0e-03" in capsys.readouterr().out


def test_without_the_demo_extra_the_demo_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if tqdm were not installed
    with pytest.raises(SystemExit, match=r"pip install 'jaxle\[demo\]' \(missing: tqdm\)"):
        cli.main(["--epochs", "1"])
