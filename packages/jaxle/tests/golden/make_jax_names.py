"""Write jax_names.json: every public name of the named module's top-level namespace and of the public submodules
a user program imports, each with its kind.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_jax_names.py jax

Kinds: module, class, alias (a typing annotation such as a Union), function (anything else callable), or object
(configuration, dtypes, namespaces).
"""

import importlib
import inspect
import json
import pathlib
import sys

# The submodules whose names are listed, besides the top level ("").
SUBMODULES = ["tree", "tree_util", "flatten_util", "dtypes", "errors", "typing", "test_util", "custom_derivatives",
              "ad_checkpoint", "stages", "core", "custom_batching", "api_util", "debug", "profiler", "experimental",
              "ops", "dlpack", "export", "monitoring", "image", "nn", "nn.initializers", "ffi", "lib", "extend",
              "extend.core", "extend.core.primitives", "extend.backend", "extend.linear_util", "extend.random",
              "extend.sharding", "interpreters", "interpreters.ad", "interpreters.batching",
              "interpreters.partial_eval", "interpreters.mlir", "interpreters.pxla", "interpreters.xla", "distributed",
              "experimental.multihost_utils", "experimental.compilation_cache.compilation_cache", "sharding",
              "example_libraries", "example_libraries.stax", "example_libraries.optimizers", "experimental.sparse",
              "experimental.sparse.linalg", "experimental.layout", "experimental.pjit"]
# Submodules that import helpers (numpy, jax's internal modules) under public names: only the functions and
# classes they define count.
OWN_NAMES_ONLY = {"experimental.multihost_utils"}
# Submodules whose public-looking names include the modules and helpers they import for their own code (typing
# constructs, functools, JAX's internal list utilities): those are left out, everything the module defines or re-exports
# as its API (initializers, activations, type aliases) stays.
IMPORTED_HELPERS = {
    "example_libraries.stax": set(),
    "example_libraries.optimizers": {"Any", "Callable", "NamedTuple", "annotations", "map", "namedtuple", "partial",
                                     "safe_map", "safe_zip", "unzip2", "zip"},
    "experimental.sparse.linalg": {"Callable", "annotations", "functools", "np"},
}


def kind(value) -> str:
    if inspect.ismodule(value):
        return "module"
    if inspect.isclass(value):
        return "class"
    if type(value).__module__ == "typing":
        return "alias"
    if callable(value):
        return "function"
    return "object"


def public_names(module_name: str, own_only: bool = False) -> dict[str, str]:
    namespace = importlib.import_module(module_name)
    names = [name for name in sorted(dir(namespace)) if not name.startswith("_")]
    if own_only:
        names = [name for name in names if getattr(getattr(namespace, name), "__module__", None) == module_name]
    helpers = IMPORTED_HELPERS.get(module_name.partition(".")[2])
    if helpers is not None:
        names = [name for name in names if name not in helpers and not inspect.ismodule(getattr(namespace, name))]
    return {name: kind(getattr(namespace, name)) for name in names}


if __name__ == "__main__":
    root = sys.argv[1]
    listing = {"": public_names(root)}
    listing.update({sub: public_names(f"{root}.{sub}", sub in OWN_NAMES_ONLY) for sub in SUBMODULES})
    out = pathlib.Path(__file__).parent / "jax_names.json"
    out.write_text(json.dumps(listing, indent=1, sort_keys=True) + "\n")
    print(f"{sum(map(len, listing.values()))} names in {len(listing)} namespaces -> {out}")
