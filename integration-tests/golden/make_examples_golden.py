"""Write examples_golden.json: what each JAX program of examples/jax_programs prints when run with JAX 0.10.2.

    /work/jaxpeer/bin/python integration-tests/golden/make_examples_golden.py jax

Each program runs in its own interpreter (this one's, which must have the named module) from the examples folder.
"""

import importlib
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
PROGRAMS = HERE.parents[1] / "examples" / "jax_programs"

if __name__ == "__main__":
    importlib.import_module(sys.argv[1])  # fail early where the interpreter lacks the module the programs import
    printed = {path.name: subprocess.run([sys.executable, str(path)], check=True, capture_output=True, text=True,
                                         cwd=PROGRAMS).stdout.splitlines()
               for path in sorted(PROGRAMS.glob("*.py"))}
    out = HERE / "examples_golden.json"
    out.write_text(json.dumps(printed, indent=1) + "\n")
    print(f"wrote {out}")
