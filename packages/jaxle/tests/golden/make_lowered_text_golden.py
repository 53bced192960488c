"""Write lowered_text_golden.json: what JAX 0.10.2's ``Lowered.as_text(dialect, debug_info=...)`` shows of a jitted
function's arguments:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_lowered_text_golden.py jax

For each case: ``main``'s signature (its results named by ``jax.result_info``), the locations of ``main``'s
arguments in the StableHLO text with ``debug_info=True`` (none without it), and the parameter lines of the HLO
text with and without it. Operation locations (source lines, name stacks) are not recorded: jaxle has none.
"""

import importlib
import pathlib
import re
import sys

import numpy as np
from golden_writer import write_golden

HERE = pathlib.Path(__file__).parent
X = np.arange(3, dtype=np.float32)


def _cases(m):
    jnp = m.numpy
    return {
        "scalar": (m.jit(lambda a: a * 2), (1.0,), {}),
        "pytree_argument_unused": (m.jit(lambda a, b: a * 2), (X, {"u": X, "v": [X, 1.0]}), {}),
        "pytree_argument_kept": (m.jit(lambda a, b: a * 2, keep_unused=True), (X, {"u": X, "v": [X, 1.0]}), {}),
        "keyword_arguments": (m.jit(lambda a, *, scale: jnp.sin(a) * scale), (X,), {"scale": 2.0}),
        "static_argument": (m.jit(lambda a, n: a ** n, static_argnums=1), (X, 3), {}),
        "donated": (m.jit(lambda a, b: a + b, donate_argnums=0), (X, X), {}),
        "result_tree": (m.jit(lambda a: [a, {"b": (a, None), "c": a * 2}]), (X,), {}),
        "token_result": (m.jit(lambda t, x: (t, x * 2)), (m.lax.create_token(), 1.0), {}),
    }


def _main_signature(text):
    return next(line.strip() for line in text.splitlines() if "func.func public @main" in line)


def _main_arg_locations(text):
    return re.findall(r'loc\("([^"]*)"\)', _main_signature(text))


def _parameter_lines(text):
    return [line.strip() for line in text.splitlines() if " parameter(" in line]


def record(m):
    """Every case's argument locations and HLO parameters with ``m`` as jax."""
    out = {}
    for name, (f, args, kwargs) in _cases(m).items():
        lowered = f.lower(*args, **kwargs)
        out[name] = {
            "signature": _main_signature(lowered.as_text()),
            "locations": _main_arg_locations(lowered.as_text()),
            "debug_locations": _main_arg_locations(lowered.as_text(debug_info=True)),
            "stablehlo_is_default": lowered.as_text("stablehlo", debug_info=True) == lowered.as_text(debug_info=True),
            "hlo_parameters": _parameter_lines(lowered.as_text("hlo")),
            "debug_hlo_parameters": _parameter_lines(lowered.as_text("hlo", debug_info=True)),
        }
    try:
        m.jit(lambda a: a).lower(1.0).as_text("mhlo", debug_info=True)
    except ValueError as e:
        out["unknown_dialect"] = str(e)
    return out


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    write_golden(record(module), HERE / "lowered_text_golden.json")
