"""Write lax_names.json and lax_linalg_names.json: every public name of the named module's ``lax`` and
``lax.linalg`` namespaces, with what kind of object it is.

    /work/jaxpeer/bin/python packages/core/tests/golden/make_lax_names.py jax
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
    if hasattr(value, "bind") and hasattr(value, "multiple_results"):
        return "primitive"
    if callable(value):
        return "function"
    return "other"


def public_names(module_name: str) -> dict[str, str]:
    namespace = importlib.import_module(module_name)
    return {name: kind(getattr(namespace, name)) for name in sorted(dir(namespace)) if not name.startswith("_")}


if __name__ == "__main__":
    for namespace, filename in [("lax", "lax_names.json"), ("lax.linalg", "lax_linalg_names.json")]:
        names = public_names(f"{sys.argv[1]}.{namespace}")
        path = pathlib.Path(__file__).parent / filename
        path.write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")
        print(f"{len(names)} names -> {path}")
