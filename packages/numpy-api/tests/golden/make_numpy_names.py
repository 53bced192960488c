"""Write numpy_names.json (every public name of the named module's ``numpy`` namespace and its kind),
fft_names.json and linalg_names.json (the same for ``numpy.fft`` and ``numpy.linalg``, with each function's
signature) and array_attributes.json (the attributes of its ``Array`` type: methods, properties and operators).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_numpy_names.py jax

Kinds: module, class, ufunc (a ``numpy.ufunc`` object), function, or ``value:<repr>`` for constants.
"""

import importlib
import inspect
import json
import pathlib
import sys

from make_creation_signatures import signature_record


def kind(value, ufunc_type) -> str:
    if inspect.ismodule(value):
        return "module"
    if isinstance(value, ufunc_type):
        return "ufunc"
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "function"
    if isinstance(value, (float, type(None))):
        return f"value:{value!r}"
    return "object"


def public_names(module_name: str, submodule: str = "numpy") -> dict[str, str]:
    numpy = importlib.import_module(f"{module_name}.numpy")
    namespace = importlib.import_module(f"{module_name}.{submodule}")
    return {name: kind(getattr(namespace, name), numpy.ufunc) for name in sorted(dir(namespace))
            if not name.startswith("_")}


def array_attributes(module_name: str) -> list[str]:
    """Public and dunder attributes of ``Array`` beyond those every Python object has."""
    array_type = importlib.import_module(module_name).Array
    return sorted(name for name in dir(array_type)
                  if not (name.startswith("_") and not name.startswith("__")) and name not in dir(object))


if __name__ == "__main__":
    here = pathlib.Path(__file__).parent
    names = public_names(sys.argv[1])
    (here / "numpy_names.json").write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")
    submodule_names = {}
    for submodule in ("fft", "linalg"):
        module = importlib.import_module(f"{sys.argv[1]}.numpy.{submodule}")
        submodule_names[submodule] = {name: {"kind": kind_of, "signature": signature_record(getattr(module, name))}
                                      for name, kind_of in public_names(sys.argv[1], f"numpy.{submodule}").items()}
        (here / f"{submodule}_names.json").write_text(
            json.dumps(submodule_names[submodule], indent=1, sort_keys=True) + "\n")
    attributes = array_attributes(sys.argv[1])
    (here / "array_attributes.json").write_text(json.dumps(attributes, indent=1) + "\n")
    print(f"{len(names)} names, {len(submodule_names['fft'])} fft names, {len(submodule_names['linalg'])} linalg "
          f"names, {len(attributes)} Array attributes -> {here}")
