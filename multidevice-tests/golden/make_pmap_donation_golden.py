"""Write pmap_donation_golden.json: what JAX 0.10.2's ``pmap(..., donate_argnums=)`` donates on 8 CPU devices: the
arguments its lowered program aliases to results (whole arguments, counted without the static ones, keyword ones
after the positional ones), what its lowered stage reports (``args_info``'s donated flags and ``donate_argnums``:
the same numbers read as flat argument positions), its refusal of static donated arguments, and the warnings about
donations no result can reuse:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_pmap_donation_golden.py jax

With another module (jaxle) it prints its outcomes as JSON instead of writing them. The device count is read when
the client starts, so it runs in a fresh interpreter.
"""

import importlib
import json
import os
import pathlib
import re
import sys
import warnings

HERE = pathlib.Path(__file__).parent


def _aliased(lowered) -> list[bool]:
    """Which arguments of the lowered program's ``main`` are donated (aliased to a result, or buffer donors)."""
    signature = next(line for line in lowered.as_text().splitlines() if "func.func public @main" in line)
    parameters = re.split(r"%arg\d+:", signature.split(") -> (")[0])[1:]
    return [("aliasing_output" in p or "buffer_donor" in p) for p in parameters]


def _lowered(m, fun, *args, static=(), donate=(), **kwargs):
    lowered = m.pmap(fun, static_broadcasted_argnums=static, donate_argnums=donate).lower(*args, **kwargs)
    return {"aliased": _aliased(lowered), "reported": [i.donated for i in m.tree.leaves(lowered.args_info)],
            "donate_argnums": list(lowered.donate_argnums)}


def _cases(m):
    jnp = m.numpy
    block = lambda: jnp.ones((8, 3))  # noqa: E731 - small cases read best inline
    pair = (block(), block())
    with_pair_first = lambda a, b: (a[0] + a[1] + b, a[0] * 2, b * 3)  # noqa: E731
    with_pair_second = lambda a, b: (a + b[0] + b[1], a * 2, b[0] * 3)  # noqa: E731
    scaled = lambda n, a, b: (a * n + b, a * 2, b * 3)  # noqa: E731
    scaled_middle = lambda a, n, b: (a * n + b, a * 2, b * 3)  # noqa: E731
    return {
        "first_of_pair": lambda: _lowered(m, with_pair_first, pair, block(), donate=0),
        "second_argument_after_pair": lambda: _lowered(m, with_pair_first, pair, block(), donate=1),
        "past_the_arguments": lambda: _lowered(m, with_pair_first, pair, block(), donate=2),
        "both": lambda: _lowered(m, with_pair_first, pair, block(), donate=(0, 2)),
        "pair_second": lambda: _lowered(m, with_pair_second, block(), pair, donate=1),
        "pair_second_past": lambda: _lowered(m, with_pair_second, block(), pair, donate=2),
        "negative": lambda: _lowered(m, with_pair_first, pair, block(), donate=-1),
        "out_of_range": lambda: _lowered(m, with_pair_first, pair, block(), donate=5),
        "after_static": lambda: _lowered(m, scaled, 2, block(), block(), static=0, donate=1),
        "last_after_static": lambda: _lowered(m, scaled, 2, block(), block(), static=0, donate=2),
        "around_static": lambda: _lowered(m, scaled_middle, block(), 2, block(), static=1, donate=2),
        "keyword": lambda: _lowered(m, lambda a, b: (a + b, a * 2), block(), b=block(), donate=1),
        "dict_argument": lambda: _lowered(m, lambda a, b: a["x"] + a["y"] + b, {"y": block(), "x": block()},
                                          block(), donate=1),
        "static_donated": lambda: m.pmap(scaled_middle, static_broadcasted_argnums=1, donate_argnums=1),
        "statics_donated": lambda: m.pmap(scaled_middle, static_broadcasted_argnums=(1, 0), donate_argnums=(0, 1, 2)),
        "unusable_warning": lambda: m.pmap(lambda a, b: a + b, donate_argnums=(0, 1))(block(), block()).shape,
    }


def _outcome(case) -> list:
    """What ``case`` returns (its repr for objects JSON cannot hold), or its error's type and message, and the
    warnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = case()
            result = value if isinstance(value, dict) else repr(value) if not callable(value) else "function"
        except Exception as error:  # noqa: BLE001 - every error is an outcome to compare
            result = f"{type(error).__name__}: {error}"
    return [result, [str(w.message) for w in caught if issubclass(w.category, UserWarning)]]


def record(m):
    return {name: _outcome(case) for name, case in _cases(m).items()}


if __name__ == "__main__":
    os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    module = importlib.import_module(sys.argv[1])
    outcomes = record(module)
    if sys.argv[1] == "jax":
        (HERE / "pmap_donation_golden.json").write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n")
    else:
        print(json.dumps(outcomes))
