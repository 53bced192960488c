"""jaxle never imports the real ``jax``: exercise every package, then inspect sys.modules."""

import subprocess
import sys

PROGRAM = """
import sys
import numpy as np
import jaxle_tree as tree
import jaxle_core as jc
from jaxle_core import lax

leaves, treedef = tree.tree_flatten({"a": [1.0, 2.0], "b": (np.float32(3.0),)})
assert tree.tree_unflatten(treedef, leaves)["a"] == [1.0, 2.0]
f = jc.jit(lambda x, y: lax.sin(x) * y + 1.0)
out = f(np.arange(3, dtype=np.float32), np.float32(2.0))
np.testing.assert_allclose(np.asarray(out), np.sin(np.arange(3, dtype=np.float32)) * 2 + 1, rtol=1e-6)
jc.make_jaxpr(lambda x: jc.jit(lambda y: y * 2.0)(x) + x)(1.0)
jc.eval_shape(lambda x: x.T, np.ones((2, 3)))
try:
    import jaxle_xla  # noqa: F401  (present once the XLA bridge is installed)
except ImportError:
    pass
"""

REPORT_JAX_MODULES = """
import sys
print(",".join(sorted(name for name in sys.modules if name == "jax" or name.startswith("jax."))))
"""


def test_no_module_named_jax_is_ever_imported():
    result = subprocess.run([sys.executable, "-c", PROGRAM + REPORT_JAX_MODULES], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "", f"jax modules were imported: {result.stdout}"


def test_the_check_would_see_a_jax_module():
    # Guard against a vacuous test: a module named jax.* placed in sys.modules is reported.
    program = "import sys, types\nsys.modules['jax.fake'] = types.ModuleType('jax.fake')\n" + REPORT_JAX_MODULES
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "jax.fake"
