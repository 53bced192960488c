"""``import jaxle`` leaves out the modules only some functions need: SciPy (the special functions' and window
functions' references), ``numpy.polynomial`` (``owens_t``'s quadrature rule) and ``pdb`` (``debug.breakpoint``).
Checked in a fresh interpreter, since this test session has imported them already."""

import os
import subprocess
import sys

IMPORTED_ON_FIRST_USE = ("scipy", "numpy.polynomial", "pdb")

PROGRAM = f"""
import sys
import jaxle
import jaxle.numpy
print(sorted(m for m in sys.modules if any(m == p or m.startswith(p + ".") for p in {IMPORTED_ON_FIRST_USE!r})))
"""


def test_import_jaxle_imports_no_module_that_only_some_functions_need():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "[]"
