"""Programs written with equinox 0.13.8, each returning plain numbers (nested lists), run on jaxle and on JAX 0.10.2.

    python clients/equinox/scenarios.py jax    # on JAX 0.10.2: rewrites golden.json beside this file

``test_scenarios.py`` runs every scenario under ``import jax`` (jaxle through ``jaxle.compat``'s pytest plugin, or
JAX for the baseline) and compares its numbers with ``golden.json``. Each scenario takes the ``jax`` module.
"""

from __future__ import annotations

import importlib
import io
import json
import pathlib
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

GOLDEN = pathlib.Path(__file__).with_name("golden.json")
SCENARIOS: dict[str, Callable[[Any], Any]] = {}


def scenario(fun: Callable[[Any], Any]) -> Callable[[Any], Any]:
    SCENARIOS[fun.__name__] = fun
    return fun


def plain(tree: Any) -> Any:
    """Arrays as nested lists of Python numbers (float32 values rounded to 6 significant digits by the compare)."""
    if isinstance(tree, (list, tuple)):
        return [plain(x) for x in tree]
    if isinstance(tree, dict):
        return {key: plain(value) for key, value in sorted(tree.items())}
    if isinstance(tree, (bool, int, float, str)) or tree is None:
        return tree
    array = np.asarray(tree)
    return {"dtype": str(array.dtype), "shape": list(array.shape), "values": array.astype(np.float64).ravel().tolist()}


def _eqx():
    return importlib.import_module("equinox")


@scenario
def nn_layers(jax):
    eqx, jnp = _eqx(), jax.numpy
    keys = jax.random.split(jax.random.key(0), 8)
    x = jnp.linspace(-1.0, 1.0, 12).reshape(3, 4)
    linear = eqx.nn.Linear(4, 5, key=keys[0])
    mlp = eqx.nn.MLP(4, 2, 8, 2, activation=jax.nn.tanh, key=keys[1])
    conv = eqx.nn.Conv2d(1, 2, kernel_size=2, padding=1, key=keys[2])
    norm = eqx.nn.LayerNorm(4)
    attention = eqx.nn.MultiheadAttention(2, 4, key=keys[3])
    lstm = eqx.nn.LSTMCell(4, 3, key=keys[4])
    gru = eqx.nn.GRUCell(4, 3, key=keys[5])
    embedding = eqx.nn.Embedding(6, 3, key=keys[6])
    hidden = (jnp.zeros(3), jnp.zeros(3))
    for row in x:
        hidden = lstm(row, hidden)
    return {
        "linear": jax.vmap(linear)(x),
        "mlp": jax.vmap(mlp)(x),
        "conv": conv(x[None]),
        "layer_norm": jax.vmap(norm)(x),
        "attention": attention(x, x, x),
        "lstm": hidden,
        "gru": gru(x[0], jnp.ones(3)),
        "embedding": embedding(jnp.asarray(4)),
        "pool": eqx.nn.MaxPool2d(2, stride=1)(x[None]),
    }


@scenario
def batch_norm_state(jax):
    eqx, jnp = _eqx(), jax.numpy
    model, state = eqx.nn.make_with_state(eqx.nn.BatchNorm)(3, axis_name="batch", momentum=0.5)
    x = jnp.arange(12.0).reshape(4, 3) ** 1.5
    run = jax.vmap(model, axis_name="batch", in_axes=(0, None), out_axes=(0, None))
    out1, state = run(x, state)
    out2, state = run(x * 2.0, state)
    inference = eqx.nn.inference_mode(model)
    out3, _ = jax.vmap(inference, axis_name="batch", in_axes=(0, None), out_axes=(0, None))(x, state)
    return {"train1": out1, "train2": out2, "inference": out3}


@scenario
def dropout(jax):
    eqx, jnp = _eqx(), jax.numpy
    layer = eqx.nn.Dropout(0.5)
    x = jnp.ones((2, 8))
    return {"train": layer(x, key=jax.random.key(3)), "inference": layer(x, inference=True)}


@scenario
def filter_transformations(jax):
    eqx, jnp = _eqx(), jax.numpy
    mlp = eqx.nn.MLP(3, 1, 4, 1, key=jax.random.key(1))
    x = jnp.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]])

    @eqx.filter_jit
    @eqx.filter_value_and_grad
    def loss(model, x):
        return jnp.sum(jax.vmap(model)(x) ** 2)

    value, grads = loss(mlp, x)
    vmapped = eqx.filter_vmap(lambda model, v: model(v), in_axes=(None, 0))(mlp, x)
    ensemble = eqx.filter_vmap(lambda key: eqx.nn.Linear(2, 2, key=key))(jax.random.split(jax.random.key(2), 3))
    pmapped = eqx.filter_pmap(lambda v: v * 2 + 1)(x[:1])
    checkpointed = eqx.filter_grad(eqx.filter_checkpoint(lambda v: jnp.sum(jnp.sin(v) * v)))(x)
    return {
        "value": value,
        "grad_leaves": [leaf for leaf in jax.tree_util.tree_leaves(eqx.filter(grads, eqx.is_array))],
        "vmapped": vmapped,
        "ensemble_weight": ensemble.weight,
        "pmapped": pmapped,
        "checkpointed": checkpointed,
    }


@scenario
def tree_surgery(jax):
    eqx, jnp = _eqx(), jax.numpy
    mlp = eqx.nn.MLP(2, 2, 3, 1, key=jax.random.key(4))
    replaced = eqx.tree_at(lambda m: m.layers[-1].bias, mlp, jnp.full(2, 7.0))
    params, static = eqx.partition(replaced, eqx.is_inexact_array)
    combined = eqx.combine(params, static)
    buffer = io.BytesIO()
    eqx.tree_serialise_leaves(buffer, combined)
    buffer.seek(0)
    skeleton = eqx.nn.MLP(2, 2, 3, 1, key=jax.random.key(5))
    loaded = eqx.tree_deserialise_leaves(buffer, skeleton)
    return {
        "bias": loaded.layers[-1].bias,
        "equal": bool(eqx.tree_equal(loaded, combined)),
        "output": loaded(jnp.array([1.0, -2.0])),
        "num_leaves": len(jax.tree_util.tree_leaves(params)),
    }


@scenario
def custom_vjp_symbolic_zeros(jax):
    jnp = jax.numpy

    @jax.custom_vjp
    def f(x, y):
        return jnp.sin(x) * y

    def f_fwd(x, y):
        return f(x.value, y.value), (x.perturbed, y.perturbed, x.value, y.value)

    def f_bwd(residuals, g):
        x_perturbed, y_perturbed, x, y = residuals
        gx = g * jnp.cos(x) * y if x_perturbed else None
        gy = g * jnp.sin(x) if y_perturbed else None
        return gx, gy

    f.defvjp(f_fwd, f_bwd, symbolic_zeros=True)
    x, y = jnp.array(0.3), jnp.array(2.0)
    return {"grad_x": jax.grad(f)(x, y), "grad_both": jax.grad(f, argnums=(0, 1))(x, y),
            "jit_grad_y": jax.jit(jax.grad(f, argnums=1))(x, y), "value": f(x, y)}


@scenario
def filter_custom_vjp(jax):
    eqx, jnp = _eqx(), jax.numpy

    @eqx.filter_custom_vjp
    def scaled(vjp_arg, scale):
        return vjp_arg * scale

    @scaled.def_fwd
    def scaled_fwd(perturbed, vjp_arg, scale):
        return scaled(vjp_arg, scale), None

    @scaled.def_bwd
    def scaled_bwd(residuals, grad_out, perturbed, vjp_arg, scale):
        return grad_out * scale * 10.0

    return {"grad": jax.grad(lambda v: jnp.sum(scaled(v, 3.0)))(jnp.arange(3.0))}


@scenario
def filter_jvp_symbolic_zeros(jax):
    eqx, jnp = _eqx(), jax.numpy
    marker = object()

    def f(*x):
        return 1 + x[0] ** 2, 2 + x[1] * 3, 3 + x[2] * 4, x[3] + 1, marker

    # outputs that carry no tangent come back as None (also through filter_jit); a tangent given as a Python number
    # comes back as an array
    primals = (jnp.array(1.0), jnp.array(1), jnp.array(1.0), 2.0, object())
    results = {}
    for name, tangents in [("first", (jnp.array(5.0), None, None, None, None)),
                           ("first_third", (jnp.array(5.0), None, jnp.array(3.0), None, None)),
                           ("python_number", (None, None, None, 1.0, None))]:
        for wrapper, fun in (("plain", f), ("filter_jit", eqx.filter_jit(f))):
            outs, tangents_out = eqx.filter_jvp(fun, primals, tangents)
            results[f"{name}_{wrapper}"] = [list(outs[:4]), outs[4] is marker, list(tangents_out)]
    return results


@scenario
def filter_custom_vjp_python_numbers(jax):
    eqx, jnp = _eqx(), jax.numpy
    seen = []

    @eqx.filter_custom_vjp
    def f(x_and_y, *, foo):
        x, y = x_and_y
        return x + y + foo, x, y, foo

    @f.def_fwd
    def f_fwd(perturbed, x_and_y, *, foo):
        return f(x_and_y, foo=foo), object()  # a residual that is no array

    @f.def_bwd
    def f_bwd(residuals, cotangents, perturbed, x_and_y, *, foo):
        seen.append([list(perturbed), [c is None for c in cotangents]])
        first, _, third, _ = cotangents
        return first * 2.0, third

    def loss(x, y):
        out1, _, out3, _ = f((x, jnp.array(1.0)), foo=y)
        return out1 + out3

    return {"grad": jax.grad(loss)(1.0, 2.0), "jit_grad": jax.jit(jax.grad(loss))(1.0, 2.0), "seen": seen}


@scenario
def integer_pools(jax):
    eqx, jnp = _eqx(), jax.numpy
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # equinox pools integers with an init of -inf: nothing to warn about
        return {"max1d": eqx.nn.MaxPool1d(2, 3)(jnp.arange(14).reshape(1, 14)),
                "max2d": eqx.nn.MaxPool2d(2, (3, 2))(jnp.arange(36).reshape(1, 6, 6)),
                "avg1d": eqx.nn.AvgPool1d(2, 3)(jnp.arange(14).reshape(1, 14))}


@scenario
def errors(jax):
    eqx, jnp = _eqx(), jax.numpy

    def checked(x):
        return eqx.error_if(x, x < 0, "x must be non-negative") + 1

    def branched(x, index):
        return eqx.branched_error_if(x, x > 5, index, ["first message", "second message"])

    outcomes = {"ok": checked(jnp.array(2.0)), "jit_ok": jax.jit(checked)(jnp.array(2.0))}
    for name, call in [("eager", lambda: checked(jnp.array(-1.0))),
                       ("filter_jit", lambda: eqx.filter_jit(checked)(jnp.array(-1.0))),
                       ("vmap", lambda: jax.vmap(checked)(jnp.array([1.0, -1.0]))),
                       ("grad", lambda: jax.grad(checked)(jnp.array(-1.0))),
                       ("branched", lambda: eqx.filter_jit(branched)(jnp.array(6.0), 1)),
                       ("jit", lambda: jax.jit(checked)(jnp.array(-1.0)))]:
        try:
            call()
            outcomes[name] = "no error"
        except (ValueError, RuntimeError) as error:
            # equinox's own error where it can raise one; under a bare jax.jit, the runtime error of the failed
            # callback (a ValueError or a JaxRuntimeError on JAX, depending on what ran before)
            message = str(error)
            outcomes[name] = [type(error).__name__ if type(error).__name__ == "EquinoxRuntimeError" else "runtime",
                              [text for text in ("x must be non-negative", "first message", "second message",
                                                 "equinox.filter_jit") if text in message]]
    return outcomes


@scenario
def while_loops(jax):
    eqxi, jnp = importlib.import_module("equinox.internal"), jax.numpy

    def run(kind, x):
        def body(carry):
            step, value = carry
            return step + 1, jnp.sin(value) * 1.1 + 0.1

        _, final = eqxi.while_loop(lambda carry: carry[0] < 6, body, (0, x), max_steps=8 if kind == "bounded" else None,
                                   kind=kind, checkpoints=2 if kind == "checkpointed" else None)
        return jnp.sum(final)

    x = jnp.array([0.2, -0.4, 1.0])
    results = {kind: jax.jit(lambda v, kind=kind: run(kind, v))(x) for kind in ("lax", "bounded", "checkpointed")}
    # the equinox loops are reverse-differentiable (lax.while_loop is not)
    results.update({f"grad_{kind}": jax.jit(jax.grad(lambda v, kind=kind: run(kind, v)))(x)
                    for kind in ("bounded", "checkpointed")})
    return results


@scenario
def noinline(jax):
    eqxi, jnp = importlib.import_module("equinox.internal"), jax.numpy
    cube = eqxi.noinline(lambda v: v**3)  # compiled once, called from the host: lowered by emit_python_callback
    x = jnp.array([0.5, -1.0, 2.0])
    return {"grad": jax.jit(jax.grad(lambda v: jnp.sum(cube(v))))(x), "vmap": jax.jit(jax.vmap(cube))(x)}


@scenario
def stateful_module(jax):
    eqx, jnp = _eqx(), jax.numpy

    class Counter(eqx.Module):
        index: Any
        linear: Any

        def __init__(self, key):
            self.index = eqx.nn.StateIndex(jnp.zeros(2))
            self.linear = eqx.nn.Linear(2, 2, key=key)

        def __call__(self, x, state):
            total = state.get(self.index) + x
            return self.linear(total), state.set(self.index, total)

    model, state = eqx.nn.make_with_state(Counter)(jax.random.key(6))
    step = eqx.filter_jit(lambda m, s, v: m(v, s))
    outs = []
    for i in range(3):
        out, state = step(model, state, jnp.array([1.0, float(i)]))
        outs.append(out)
    return {"outs": outs, "state": state.get(model.index)}


def run_all(jax) -> dict[str, Any]:
    return {name: plain(fun(jax)) for name, fun in SCENARIOS.items()}


if __name__ == "__main__":
    results = run_all(importlib.import_module(sys.argv[1]))
    lines = [f"{json.dumps(name)}: {json.dumps(result, sort_keys=True)}" for name, result in sorted(results.items())]
    GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # one scenario a line
    print(f"{len(results)} scenarios -> {GOLDEN}")
