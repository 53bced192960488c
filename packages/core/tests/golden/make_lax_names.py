"""Write lax_names.json: every public name of the named module's ``lax`` namespace, with what kind of object it is.

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
    lax = importlib.import_module(f"{module_name}.lax")
    return {name: kind(getattr(lax, name)) for name in sorted(dir(lax)) if not name.startswith("_")}


if __name__ == "__main__":
    names = public_names(sys.argv[1])
    path = pathlib.Path(__file__).parent / "lax_names.json"
    path.write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")
    print(f"{len(names)} names -> {path}")
