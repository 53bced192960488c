"""``python -m jaxle.demo``: train the digits MLP on jaxle, show its jaxpr, compare with JAX 0.10.2, plot the loss."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import pathlib
import statistics
import sys
from collections.abc import Sequence

import jaxle as jax
from jaxle.demo.golden import jaxprs, largest_relative_difference, load_golden, reference_epochs
from jaxle.demo.training import CLASSES, IMAGE_SIZE, Config, History, load_digits, steps_per_epoch, train

__all__ = ["main", "parse_config", "plot_losses"]

JAXPR_HEAD_LINES, JAXPR_TAIL_LINES = 10, 4  # the excerpt of the train step's jaxpr that the demo prints
DEMO_EXTRA = {"sklearn": "scikit-learn", "matplotlib": "matplotlib", "tqdm": "tqdm"}  # import name: distribution
ROUNDING = 1e-5  # the largest relative difference from JAX's losses that float32 rounding explains


def parse_config(argv: Sequence[str] | None = None) -> tuple[Config, pathlib.Path, bool]:
    """The training configuration, where the loss curve goes, and whether to show a progress bar."""
    defaults = Config()
    parser = argparse.ArgumentParser(prog="python -m jaxle.demo", description=__doc__)
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--steps-per-epoch", type=int, default=None, help="cap on minibatches per epoch")
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument("--hidden", type=int, default=defaults.hidden, help="width of the hidden layer")
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--plot", type=pathlib.Path, default=pathlib.Path("jaxle-demo-loss.png"),
                        help="where to write the loss curve (PNG); default: jaxle-demo-loss.png here")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    config = Config(hidden=args.hidden, batch_size=args.batch_size, epochs=args.epochs,
                    learning_rate=args.learning_rate, seed=args.seed, steps_per_epoch=args.steps_per_epoch)
    return config, args.plot, not args.no_progress


def plot_losses(history: History, batches: int, path: pathlib.Path) -> pathlib.Path:
    """Write the per-step and per-epoch training loss as a PNG; returns the absolute path."""
    # Figure without pyplot: no GUI backend is looked for, so this works on a headless machine.
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6, 4))
    axes = figure.add_subplot()
    axes.plot(range(1, len(history.step_losses) + 1), history.step_losses, lw=0.8, alpha=0.6, label="step")
    axes.plot([batches * (epoch + 1) for epoch in range(len(history.epoch_losses))], history.epoch_losses, "o-",
              label="epoch mean")
    axes.set(xlabel="step", ylabel="cross-entropy", yscale="log", title="jaxle: MLP on 8x8 digits")
    axes.legend()
    path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100, bbox_inches="tight")
    return path


def _show_jaxprs(data, config: Config, golden: dict) -> None:
    traced = jaxprs(jax, data, config)
    lines = traced["train_step"].splitlines()
    print(f"jaxpr of one train step (value_and_grad of the vmapped loss, then Adam), its first {JAXPR_HEAD_LINES} "
          f"and last {JAXPR_TAIL_LINES} of {len(lines)} lines:")
    print("\n".join("  " + line for line in lines[:JAXPR_HEAD_LINES] + ["  ..."] + lines[-JAXPR_TAIL_LINES:]))
    if (config.hidden, config.batch_size) != (Config().hidden, Config().batch_size):
        print("(JAX's jaxprs are recorded for the default --hidden and --batch-size only)")
        return
    for name, text in traced.items():
        expected = golden["jaxprs"][name]
        if text == expected:
            print(f"jaxpr of the {name.replace('_', ' ')}: identical to JAX 0.10.2's ({len(text.splitlines())} lines)")
        else:
            differing = sum(a != b for a, b in zip(text.splitlines(), expected.splitlines()))
            print(f"jaxpr of the {name.replace('_', ' ')}: {differing} of {len(expected.splitlines())} lines differ "
                  "from JAX 0.10.2's")


def _compare_with_jax(history: History, config: Config, golden: dict) -> bool:
    """Print how the run's epoch losses compare with JAX's; False where they differ beyond float32 rounding."""
    expected = reference_epochs(config, golden)
    if expected is None:
        print(f"no JAX 0.10.2 values recorded for this configuration (they are for "
              f"{dataclasses.asdict(Config(**golden['default']['config']))} and its first epochs)")
        return True
    difference = largest_relative_difference(history.epoch_losses, expected)
    if difference == 0:
        verdict = "equal to JAX 0.10.2's, bit for bit"
    elif difference <= ROUNDING:
        # XLA's CPU code may round differently on another processor than on the machine that recorded JAX's values.
        verdict = f"equal to JAX 0.10.2's to {difference:.0e} (relative)"
    else:
        verdict = f"DIFFERENT from JAX 0.10.2's, by up to {difference:.1e} (relative)"
    print(f"fixed-seed check: the {len(expected)} epoch losses (last {history.epoch_losses[-1]:.8f}) are {verdict} "
          f"(JAX's last: {expected[-1]:.8f})")
    return difference <= ROUNDING


def _progress(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, desc="training", unit="step", disable=not enabled, file=sys.stderr, leave=False)


def _require_demo_extra() -> None:
    missing = [name for name in DEMO_EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        sys.exit(f"the demo needs {', '.join(DEMO_EXTRA.values())}, which come with jaxle's demo extra: "
                 f"pip install 'jaxle[demo]' (missing: {', '.join(missing)})")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the demo; see ``python -m jaxle.demo --help``. Exits with status 1 where the losses are not JAX's."""
    config, plot_path, show_progress = parse_config(argv)
    _require_demo_extra()
    data = load_digits()
    golden = load_golden()
    batches = steps_per_epoch(data, config)
    print(f"jaxle {jax.version.jaxle_version} on {jax.default_backend()} (XLA through jaxlib): an MLP "
          f"{IMAGE_SIZE}-{config.hidden}-{CLASSES} on scikit-learn's 8x8 digits, {len(data.train_images)} training "
          f"and {len(data.test_images)} test images, Adam, batches of {config.batch_size}, seed {config.seed}")
    _show_jaxprs(data, config, golden)

    progress = _progress(config.epochs * batches, show_progress)

    def on_step(loss: float) -> None:
        progress.set_postfix(loss=f"{loss:.4f}", refresh=False)
        progress.update()

    def on_epoch(epoch: int, history: History) -> None:
        progress.write(f"epoch {epoch + 1:>3}/{config.epochs}  loss {history.epoch_losses[-1]:.4f}  "
                       f"train accuracy {history.train_accuracy[-1]:.4f}  "
                       f"test accuracy {history.test_accuracy[-1]:.4f}", file=sys.stdout)

    history = train(jax, data, config, on_step=on_step, on_epoch=on_epoch)
    progress.close()

    print(f"final test accuracy: {history.test_accuracy[-1]:.4f}")
    if history.step_seconds:
        print(f"time per step: {statistics.median(history.step_seconds) * 1e3:.3f} ms (median of "
              f"{len(history.step_seconds)} steps; the first step, compiling it, took "
              f"{history.compile_seconds:.2f} s)")
    print(f"loss curve: {plot_losses(history, batches, plot_path)}")
    if not _compare_with_jax(history, config, golden):
        sys.exit(1)
