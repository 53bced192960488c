"""Every configuration option of an implementation, probed: its default, how ``config.update`` validates
values, ``config.read``, the context manager, and its environment variable.

Usage: ``python make_config_options_golden.py jax`` (run with JAX 0.10.2's interpreter) writes the goldens to
``config_options_golden.json``; with ``jaxle`` it prints jaxle's answers for comparison. The module must provide
``config`` (with ``update``, ``read`` and ``values``).
"""

from __future__ import annotations

import enum
import importlib
import json
import os
import pathlib
import subprocess
import sys
from typing import Any

from golden_writer import write_golden

# Values offered to every option's ``config.update``: each kind of option rejects some of them.
PROBES = {"str": "__bad__", "int": 7, "float": 2.5, "bool": True, "none": None, "list": []}
# What an option's environment variable is set to when the probe reads an invalid text.
BAD_ENV_TEXT = "zz!"


def encode(value: Any) -> dict[str, str]:
    """A value as JSON: its type's name and its repr (enum members also by their value)."""
    out = {"type": type(value).__name__, "repr": repr(value)}
    if isinstance(value, enum.Enum):
        out["value"] = repr(value.value)
    return out


def outcome(call: Any) -> dict[str, Any]:
    """What ``call()`` gives: {"value": ...} or {"error": type name, "message": text}."""
    try:
        return {"value": encode(call())}
    except Exception as err:  # noqa: BLE001 - the probe records whatever the implementation raises
        return {"error": type(err).__name__, "message": str(err)}


def probe_updates(config: Any, name: str) -> dict[str, Any]:
    """``config.update(name, probe)`` for each probe: the value read back or the error; the default restored."""
    default = config.values[name]
    answers = {}
    for label, probe in PROBES.items():
        def update_and_read(probe: Any = probe) -> Any:
            config.update(name, probe)
            return config.values[name]
        answers[label] = outcome(update_and_read)
        config.update(name, default)
    return answers


def probe_context_manager(module: Any, name: str) -> dict[str, Any] | None:
    """The public ``<module>.<name without jax_>`` context manager entered with no argument, if it exists."""
    holder = getattr(module, name.removeprefix("jax_"), None)
    if holder is None or not callable(holder):
        return None

    def enter_without_argument() -> Any:
        with holder():
            return module.config.values[name]
    return outcome(enter_without_argument)


def env_text(option: dict[str, Any]) -> str | None:
    """A valid environment text that differs from the default, chosen from how the option validated updates."""
    default = option["default"]
    rejected_str = "error" in option["update"]["str"]
    message = option["update"]["str"].get("message", "")
    if default["type"] == "bool":
        return "0" if default["repr"] == "True" else "1"
    if "new enum value must be" in message:
        choices = eval(message.split("in ", 1)[1].split("], got")[0] + "]")  # the list printed in the message
        return next(c for c in choices if repr(c) != default["repr"])
    if "value" in default:  # an enum class: its first other member's value
        return None
    if default["type"] == "int" or "int config" in message:
        return "3"
    if default["type"] == "float" or "float config" in message:
        return "2.5"
    return None if rejected_str else "abc"


def read_env(module_name: str, env_vars: dict[str, str]) -> dict[str, Any]:
    """Import the module in a child process with ``env_vars`` set; every option's value, or the import's error."""
    code = ("import importlib, json, sys; sys.path.insert(0, sys.argv[2]); "
            "from make_config_options_golden import encode; "
            "m = importlib.import_module(sys.argv[1]); "
            "print(json.dumps({n: encode(v) for n, v in m.config.values.items()}))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env.update(env_vars)
    proc = subprocess.run([sys.executable, "-c", code, module_name, str(pathlib.Path(__file__).parent)],
                          env=env, capture_output=True, text=True, timeout=300)
    if proc.returncode == 0:
        return {"values": json.loads(proc.stdout.strip().splitlines()[-1])}
    return {"error": (proc.stderr.strip().splitlines() or ["(no output)"])[-1]}


def probe(module_name: str, env_module_name: str | None = None, env_names: list[str] | None = None
          ) -> dict[str, Any]:
    """Every option's answers. The environment probes import ``env_module_name`` (default: the module; any
    module with the same ``config``): every option's valid text together, then an invalid text for each of
    ``env_names`` (all options when None) alone."""
    env_module_name = env_module_name or module_name
    module = importlib.import_module(module_name)
    config = module.config
    options = {}
    for name in sorted(config.values):
        option = {"default": encode(config.values[name]), "update": probe_updates(config, name),
                  "read": outcome(lambda name=name: config.read(name)),
                  "attribute": outcome(lambda name=name: getattr(config, name)),
                  "context_manager": probe_context_manager(module, name)}
        options[name] = option
    names = sorted(options) if env_names is None else env_names
    texts = {n: t for n in sorted(options) if (t := env_text(options[n])) is not None}
    read_back = read_env(env_module_name, {n.upper(): t for n, t in texts.items()})
    env = {"texts": texts, "read_back": {n: read_back.get("values", {}).get(n) for n in texts},
           "invalid": {n: read_env(env_module_name, {n.upper(): BAD_ENV_TEXT}).get("error") for n in names}}
    unknown = {"update": outcome(lambda: config.update("jax_no_such_option", 1)),
               "read": outcome(lambda: config.read("jax_no_such_option")),
               "attribute": outcome(lambda: config.jax_no_such_option)}
    return {"options": options, "env": env, "unknown": unknown}


if __name__ == "__main__":
    write_golden(probe(sys.argv[1]), pathlib.Path(__file__).parent / "config_options_golden.json")
