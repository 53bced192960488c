"""Write random_names.json: every public name of the named module's ``random`` namespace, its kind (module,
class, function or object) and, for functions, its signature as [name, kind, default repr] triples.

    /work/jaxpeer/bin/python packages/random/tests/golden/make_random_names.py jax
"""

import importlib
import inspect
import json
import pathlib
import sys


def kind(value) -> str:
    if inspect.ismodule(value):
        return "module"
    if inspect.isclass(value):
        return "class"
    return "function" if callable(value) else "object"


def signature(value) -> list:
    try:
        parameters = inspect.signature(value).parameters.values()
    except (TypeError, ValueError):
        return []
    return [[p.name, p.kind.name, "-" if p.default is p.empty else repr(p.default)] for p in parameters]


def record(value) -> dict:
    found = {"kind": kind(value)}
    if found["kind"] == "function":
        found["signature"] = signature(value)
    return found


if __name__ == "__main__":
    random = importlib.import_module(f"{sys.argv[1]}.random")
    names = {name: record(getattr(random, name)) for name in sorted(dir(random)) if not name.startswith("_")}
    path = pathlib.Path(__file__).parent / "random_names.json"
    path.write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")
