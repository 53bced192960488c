"""What configuration options do, observed: the default platform (``jax_platform_name``), seed offsets,
high-dynamic-range Gumbel samples, static index checks, the library's log handlers, IR dumps.

Usage: ``python make_config_behaviour_golden.py jax`` (run with JAX 0.10.2's interpreter) writes the goldens to
``config_behaviour_golden.json``; with ``jaxle`` it prints jaxle's answers. Each case runs in a child process of its
own, since options such as the platform are fixed once the backends start.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile

from golden_writer import write_golden

PLATFORM_NAMES = ["cpu", "gpu", "CPU", "nope"]

CASES = {
    "platform": """
import sys
jax.config.update("jax_platform_name", sys.argv[2])
out = {}
for label, call in [("default_backend", lambda: jax.default_backend()), ("devices", lambda: str(jax.devices())),
                    ("ones", lambda: str(jnp.ones(2))), ("jit", lambda: str(jax.jit(lambda x: x + 1)(1.0))),
                    ("cpu_devices", lambda: str(jax.devices("cpu")))]:
    out[label] = attempt(call)
""",
    "seed_offset": """
jax.config.update("jax_random_seed_offset", 3)
out = {"key_data": str(jax.random.key_data(jax.random.key(0))), "PRNGKey": str(jax.random.PRNGKey(0)),
       "key3": str(jax.random.key_data(jax.random.key(3))),
       "jaxpr": str(jax.make_jaxpr(lambda: jax.random.PRNGKey(0))()),
       "uniform": str(jax.random.uniform(jax.random.key(1), (3,)))}
jax.config.update("jax_random_seed_offset", 0)
out["after_reset"] = str(jax.random.key_data(jax.random.key(0)))
""",
    "gumbel": """
key = jax.random.key(0)
out = {"low": str(jax.random.gumbel(key, (4,)))}
jax.config.update("jax_high_dynamic_range_gumbel", True)
out["high"] = str(jax.random.gumbel(key, (4,)))
out["high_jaxpr"] = str(jax.make_jaxpr(lambda k: jax.random.gumbel(k, (2,)))(key))
out["categorical"] = str(jax.random.categorical(key, jnp.arange(5.0), shape=(6,)))
out["explicit_low"] = str(jax.random.gumbel(key, (4,), mode="low"))
""",
    "static_indices": """
import numpy as np
x = jnp.arange(5)
calls = [("int", lambda: x[7]), ("negative", lambda: x[-9]), ("at_set", lambda: x.at[7].set(1)),
         ("second_axis", lambda: jnp.arange(6).reshape(2, 3)[1, 5]), ("slice", lambda: x[2:9]),
         ("jit", lambda: jax.jit(lambda y: y[7])(x)), ("array", lambda: x[np.array([7])]),
         ("fill", lambda: x.at[7].get(mode="fill")), ("clip", lambda: x.at[7].get(mode="clip")),
         ("no_wrap", lambda: x.at[-1].get(wrap_negative_indices=False)), ("numpy_int", lambda: x[np.int32(5)]),
         ("ellipsis", lambda: x[..., 5]), ("newaxis", lambda: x[None, 6]), ("in_bounds", lambda: x[-5])]
out = {"off": {k: attempt(c) for k, c in calls}}
jax.config.update("jax_check_static_indices", True)
out["on"] = {k: attempt(c) for k, c in calls}
""",
    "logging": """
import logging
def seen(name):
    logger = logging.getLogger(name)
    return [logging.getLevelName(logger.level), [(type(h).__name__, logging.getLevelName(h.level),
                                                  h.formatter._fmt if h.formatter else None) for h in logger.handlers]]
out = {"start": seen("jax")}
jax.config.update("jax_logging_level", "DEBUG")
out["debug"] = seen("jax")
jax.config.update("jax_logging_level", "ERROR")
out["error"] = seen("jax")
jax.config.update("jax_logging_level", "NOTSET")
out["notset"] = seen("jax")
logging.getLogger("my.module").setLevel(logging.ERROR)
jax.config.update("jax_debug_log_modules", "my.module,other")
out["modules"] = [seen("my.module"), seen("other")]
jax.config.update("jax_debug_log_modules", "")
out["modules_reset"] = [seen("my.module"), seen("other")]
""",
    "dump_ir": """
import os, sys
import numpy as np
jax.config.update("jax_dump_ir_to", sys.argv[2])
def f(x):
    return x * 2
g = jax.jit(f)
g(np.ones(3, np.float32))
g(np.ones(3, np.float32))
g(np.ones(2, np.float32))
out = {"files": sorted(os.listdir(sys.argv[2]))}
out["first_lines"] = [open(os.path.join(sys.argv[2], name)).read().split("module @")[1].split(" ")[0]
                      for name in out["files"]]
""",
}

PRELUDE = """
import importlib, json, sys
jax = importlib.import_module(sys.argv[1])
jnp = importlib.import_module(sys.argv[1] + ".numpy")
def attempt(call):
    try:
        return {"value": str(call())}
    except Exception as err:
        return {"error": type(err).__name__, "message": str(err).split("\\n")[0]}
"""


def run_case(module_name: str, name: str, argument: str = "") -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    code = PRELUDE + CASES[name] + "\nprint(json.dumps(out))\n"
    proc = subprocess.run([sys.executable, "-c", code, module_name, argument], env=env, capture_output=True,
                          text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"case {name} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def probe(module_name: str) -> dict:
    result = {f"platform_{p}": run_case(module_name, "platform", p) for p in PLATFORM_NAMES}
    for name in ("seed_offset", "gumbel", "static_indices", "logging"):
        result[name] = run_case(module_name, name)
    with tempfile.TemporaryDirectory() as directory:
        result["dump_ir"] = run_case(module_name, "dump_ir", directory)
    return result


if __name__ == "__main__":
    write_golden(probe(sys.argv[1]), pathlib.Path(__file__).parent / "config_behaviour_golden.json")
