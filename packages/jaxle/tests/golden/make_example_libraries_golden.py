"""Write example_libraries_golden.json: JAX 0.10.2's numbers for the programs of example_libraries_cases.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_example_libraries_golden.py jax
"""

import importlib
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

import example_libraries_cases  # noqa: E402  (the shared programs live beside the tests)

if __name__ == "__main__":
    jax = importlib.import_module(sys.argv[1])
    golden = {"stax": example_libraries_cases.stax_networks(jax),
              "optimizers": example_libraries_cases.optimizer_trajectories(jax)}
    out = HERE / "example_libraries_golden.json"
    out.write_text(json.dumps(golden, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {out}")
