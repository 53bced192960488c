"""Write scipy_names.json: every public name of the named module's ``scipy.special`` (with each function's
signature) and of ``scipy.stats`` (each distribution module with its functions' signatures).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_names.py jax
"""

import importlib
import inspect
import json
import pathlib
import sys

from make_creation_signatures import signature_record


def function_records(namespace) -> dict:
    """name -> signature record for a namespace's public functions, or -> kind for its other public names."""
    records = {}
    for name in sorted(dir(namespace)):
        if name.startswith("_"):
            continue
        value = getattr(namespace, name)
        if inspect.ismodule(value):
            records[name] = "module"
        elif inspect.isclass(value):
            records[name] = "class"
        else:
            records[name] = signature_record(value)
    return records


if __name__ == "__main__":
    special = importlib.import_module(f"{sys.argv[1]}.scipy.special")
    stats = importlib.import_module(f"{sys.argv[1]}.scipy.stats")
    names = {"special": function_records(special), "stats": function_records(stats),
             "stats_modules": {name: function_records(getattr(stats, name)) for name in dir(stats)
                               if inspect.ismodule(getattr(stats, name)) and not name.startswith("_")}}
    path = pathlib.Path(__file__).parent / "scipy_names.json"
    path.write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")
    print(f"{len(names['special'])} special, {len(names['stats'])} stats names -> {path}")
