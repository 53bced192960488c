"""Print the jaxpr of every case in ``jaxpr_text_cases`` (and of its DCE cases, pruned), as JSON.

Usage: ``python jaxpr_text_make.py jax [OUT.json]`` (run with JAX 0.10.2's
interpreter) writes the goldens; with ``jaxle_core`` it prints jaxle's text
for comparison. The module must provide ``lax``, ``jit`` and ``make_jaxpr``.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))

from jaxpr_text_cases import CASES, DCE_CASES  # noqa: E402

# Where each implementation keeps dead-code elimination of a jaxpr.
DCE_FUNCTIONS = {"jax": "jax._src.interpreters.partial_eval", "jaxle_core": "jaxle_core.jaxpr_util"}


def render(module_name: str) -> dict[str, dict]:
    """For each case: the printed jaxpr and the ``repr`` of each of its equations."""
    impl = importlib.import_module(module_name)
    lax = importlib.import_module(f"{module_name}.lax")
    printed = {}
    for name, build, args in CASES:
        closed = impl.make_jaxpr(build(lax, impl.jit))(*args())
        printed[name] = {"text": str(closed), "eqns": [repr(e) for e in closed.jaxpr.eqns]}
    dce_jaxpr = importlib.import_module(DCE_FUNCTIONS[module_name]).dce_jaxpr
    for name, build, args, used_outputs, instantiate in DCE_CASES:
        closed = impl.make_jaxpr(build(lax, impl.jit))(*args())
        pruned, used_inputs = dce_jaxpr(closed.jaxpr, used_outputs, instantiate)
        printed[name] = {"text": str(pruned), "used_inputs": [bool(u) for u in used_inputs]}
    return printed


def main() -> None:
    module_name = sys.argv[1]
    out = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else HERE / "jaxpr_text_golden.json"
    printed = render(module_name)
    if module_name == "jax":
        out.write_text(json.dumps({"jax_version": importlib.import_module("jax").__version__, "cases": printed},
                                  indent=1) + "\n")
    else:
        print(json.dumps(printed, indent=1))


if __name__ == "__main__":
    main()
