"""Write structural_slicing_golden.json from an implementation of the ``jax`` API.

Usage: python structural_slicing_make_golden.py jax   (run with JAX 0.10.2's interpreter)
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))

import structural_slicing_cases as cases  # noqa: E402


def main(module_name: str) -> None:
    api = importlib.import_module(module_name)
    lax = importlib.import_module(f"{module_name}.lax")
    values = {}
    for name, build in cases.value_cases():
        fn, args = build(lax)
        values[name] = cases.describe_array(fn(*args))
    jaxprs = {}
    for name, build in cases.jaxpr_cases():
        fn, args = build(lax)
        closed = api.make_jaxpr(fn)(*args)
        jaxprs[name] = {"eqns": [cases.describe_eqn(e) for e in closed.jaxpr.eqns],
                        "outs": [[list(a.shape), a.dtype.name, bool(a.weak_type)] for a in closed.out_avals]}
    out = HERE / "structural_slicing_golden.json"
    out.write_text(json.dumps({"values": values, "jaxprs": jaxprs}, indent=0, sort_keys=True))
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1])
