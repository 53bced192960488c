"""Write golden.json: what each program written with optax in examples/ prints on JAX 0.10.2.

    PYTHONPATH=<a folder holding optax 0.2.8> /work/jaxpeer/bin/python clients/optax/make_golden.py jax

Each program runs in its own interpreter (this one, which must have the named module and optax) from examples/.
"""

import importlib
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
EXAMPLES = HERE.parents[1] / "examples"
PROGRAMS = ["optax_getting_started.py"]

if __name__ == "__main__":
    importlib.import_module(sys.argv[1])  # fail early where the interpreter lacks the module the programs import
    importlib.import_module("optax")
    printed = {name: subprocess.run([sys.executable, name], check=True, capture_output=True, text=True,
                                    cwd=EXAMPLES).stdout.splitlines()
               for name in PROGRAMS}
    out = HERE / "golden.json"
    out.write_text(json.dumps(printed, indent=1) + "\n")
    print(f"wrote {out}")
