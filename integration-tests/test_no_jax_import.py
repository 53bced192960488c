"""jaxle never imports the real ``jax``: exercise every package, then inspect sys.modules."""

import os
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
try:
    import jaxle_numpy as jnp
except ImportError:  # core-only environments
    jnp = None
if jnp is not None:
    a = jnp.arange(6.0).reshape(2, 3)
    column_sums = np.arange(6.0).reshape(2, 3).sum(0)
    assert float(jnp.einsum("ij,kj->", a, a, optimize="greedy")) == float((column_sums ** 2).sum())
    assert float(a.at[0, 1].add(1.0).sum()) == 16.0
"""

REPORT_JAX_MODULES = """
import sys
print(",".join(sorted(name for name in sys.modules if name == "jax" or name.startswith("jax."))))
"""

# Records every attempt to import jax, the failed ones included: jaxlib's C++ imports jax modules by name on some
# paths; with jax absent each attempt fails quietly (and costs time), with jax installed it would load jax.
WATCH_JAX_IMPORTS = """
import sys
jax_import_attempts = []

class WatchJaxImports:
    def find_spec(self, name, path=None, target=None):
        if name == "jax" or name.startswith("jax."):
            jax_import_attempts.append(name)
        return None

sys.meta_path.insert(0, WatchJaxImports())
"""

# The XLA bridge's work that never reads an array's value back: devices, transfers, eager dispatch, jit (donation,
# pruning, a pinned device, lowering, compiling, analyses), deletion; on two CPU devices. None of it may even try
# to import jax.
XLA_DISPATCH = """
import warnings
import ml_dtypes
import numpy as np
import jaxle_core as jc
import jaxle_xla
from jaxle_core import config, lax
from jaxle_xla import xla_backend

devices = jaxle_xla.devices()
assert len(devices) == 2 and jaxle_xla.device_count() == 2 and jaxle_xla.local_device_count() == 2
assert jaxle_xla.default_backend() == "cpu" and jaxle_xla.process_index() == 0 and jaxle_xla.process_count() == 1
assert jaxle_xla.local_devices() == jaxle_xla.devices("cpu") == devices

x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
assert (x.shape, x.ndim, x.size, x.itemsize, x.nbytes, x.weak_type) == ((3,), 1, 3, 4, 12, False)
y = lax.exp(lax.sin(x)) * 2.0 - x + 1.0
assert y.block_until_ready() is y and y.is_ready()
assert x.device == devices[0] and x.devices() == {devices[0]} and x.sharding.memory_kind == "device"
z = x + 0.0
z.delete()
assert z.is_deleted()

f = jc.jit(lambda a, unused, b: a * b + 1.0, donate_argnums=0)
a = jaxle_xla.device_put(np.ones(3, np.float32))
out = f(a, 5.0, x)
assert a.is_deleted() and f.trace_count == 1
f(np.ones(3, np.float32), 6.0, x)
lowered = jc.jit(lambda a, b: a * b).lower(x, x)
assert "func.func public @main" in lowered.as_text()
compiled = lowered.compile()
assert "HloModule" in compiled.as_text()
compiled(x, x).block_until_ready()
executable = xla_backend.compile(jc.make_jaxpr(lambda a: a * a)(x), "sq", (False,), False, "cpu")
assert executable.cost_analysis()["flops"] == 3.0 and executable.memory_analysis().output_size_in_bytes == 12
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    jc.jit(lambda a: a[0], donate_argnums=0)(x)

on_one = jaxle_xla.device_put(x, devices[1])
assert on_one.committed and (lax.cos(on_one) + x).device == devices[1]
assert jc.jit(lambda a, b: a - b)(on_one, x).device == devices[1]
assert jc.jit(lambda a: a, device=devices[0])(on_one).device == devices[0]
try:
    on_one + jaxle_xla.device_put(x, devices[0])
    raise AssertionError("devices")
except ValueError as err:
    assert "incompatible devices" in str(err)
copy = jaxle_xla.device_put(on_one, may_alias=False)
mapped = jc.pmap(lambda a: lax.psum(a, "i") * a, "i")
laid_out = mapped(np.arange(2, dtype=np.float32))
for _ in range(3):  # cached calls of a program partitioned over both devices: jaxlib's C++ dispatch
    laid_out = mapped(laid_out)
laid_out.block_until_ready()
jaxle_xla.device_put({"p": [1.0, np.int8(2)], "q": None}, devices[1])
with config.enable_x64(True):
    for dtype in [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                  np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128,
                  ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2, ml_dtypes.int4]:
        jaxle_xla.device_put(jaxle_xla.device_put(np.arange(4).astype(dtype)), devices[1]).block_until_ready()
print(",".join(jax_import_attempts))
"""

# Reading values back, on top of the above: the Array's Python interface.
XLA_READS = """
import pickle
assert repr(x) == "Array([0., 1., 2.], dtype=float32)" and str(x) == "[0. 1. 2.]"
assert repr(jaxle_xla.device_put(np.zeros((2, 0), np.int32))) == "Array([], shape=(2, 0), dtype=int32)"
assert float(y[0]) == 3.0 and int(x[2]) == 2 and bool(x[1]) and complex(x[1]) == 1
assert [5, 6, 7][x.astype(np.int32)[2]] == 7
assert len(list(x)) == 3 and x.tolist() == [0.0, 1.0, 2.0] and x[1].item() == 1.0 and out.tolist() == [1, 2, 3]
assert y.copy_to_host_async() is None and np.asarray(y)[0] == 3.0
assert not np.asarray(x).flags.writeable
assert pickle.loads(pickle.dumps(jaxle_xla.device_put(2.0))).weak_type
for error, use in [(TypeError, hash), (TypeError, lambda a: a.__setitem__(0, 1)), (TypeError, float)]:
    try:
        use(x)
        raise AssertionError(use)
    except error:
        pass
try:
    np.asarray(z)
    raise AssertionError("deleted")
except RuntimeError as err:
    assert str(err) == "Array has been deleted with shape=float32[3]."
on_one.delete()
assert copy.tolist() == [0.0, 1.0, 2.0]
assert laid_out.tolist() == [0.0, 1.0]
negated = jc.pmap(lambda a: jc.pure_callback(np.negative, jc.ShapeDtypeStruct(a.shape, a.dtype), a))(laid_out)
assert negated.tolist() == [0.0, -1.0]
tree = jaxle_xla.device_get(jaxle_xla.device_put({"p": [1.0, np.int8(2)], "q": None}, devices[1]))
assert tree["p"][1].dtype == np.int8 and tree["q"] is None
with config.enable_x64(True):
    for dtype in [np.bool_, np.int64, np.uint64, ml_dtypes.bfloat16, np.complex128, ml_dtypes.float8_e5m2]:
        value = np.arange(4).astype(dtype)
        back = jaxle_xla.device_get(jaxle_xla.device_put(value, devices[1]))
        assert back.dtype == value.dtype and (back == value).all(), dtype
print(",".join(jax_import_attempts))
"""

# Reads that go through jaxlib's own host transfer (DLPack, 4-bit types): jaxlib looks jax up by name there,
# so these may attempt an import, but must never leave a jax module behind.
XLA_JAXLIB_READS = """
assert np.from_dlpack(x).tolist() == [0.0, 1.0, 2.0]
value = np.arange(4).astype(ml_dtypes.int4)
assert (jaxle_xla.device_get(jaxle_xla.device_put(value, devices[1])) == value).all()
"""


def test_no_module_named_jax_is_ever_imported():
    result = subprocess.run([sys.executable, "-c", PROGRAM + REPORT_JAX_MODULES], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "", f"jax modules were imported: {result.stdout}"


def test_the_xla_bridge_never_imports_jax():
    env = {k: v for k, v in os.environ.items() if k not in ("JAX_PLATFORMS", "XLA_FLAGS")}
    env["JAX_NUM_CPU_DEVICES"] = "2"
    program = WATCH_JAX_IMPORTS + XLA_DISPATCH + XLA_READS + XLA_JAXLIB_READS + REPORT_JAX_MODULES
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    attempts, attempts_reading, modules = result.stdout.splitlines()[-3:]
    assert attempts == "", f"imports of jax were attempted while dispatching: {attempts}"
    assert attempts_reading == "", f"imports of jax were attempted while reading CPU arrays: {attempts_reading}"
    assert modules == "", f"jax modules were imported: {modules}"


def test_the_check_would_see_a_jax_module():
    # Guard against a vacuous test: a module named jax.* placed in sys.modules is reported.
    program = "import sys, types\nsys.modules['jax.fake'] = types.ModuleType('jax.fake')\n" + REPORT_JAX_MODULES
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "jax.fake"


def test_the_watch_would_see_an_attempt_to_import_jax():
    program = WATCH_JAX_IMPORTS + "try:\n    import jax.fake\nexcept ImportError:\n    pass\n"
    result = subprocess.run([sys.executable, "-c", program + "print(jax_import_attempts)"], capture_output=True,
                            text=True, check=True)
    assert "'jax'" in result.stdout


# jaxle.compat (opt-in) puts jaxle's modules in sys.modules under jax's names: each must be a jaxle module, never
# one of an installed jax.
COMPAT = """
import importlib, sys
from jaxle.compat import install_as_jax
install_as_jax()
for name in ("jax", "jax.numpy", "jax.lax", "jax.random", "jax.tree_util"):
    importlib.import_module(name)
print(",".join(sorted(f"{name}={module.__name__}" for name, module in sys.modules.items()
                      if name == "jax" or name.startswith("jax."))))
"""


def test_compat_aliases_are_jaxle_modules():
    result = subprocess.run([sys.executable, "-c", COMPAT], capture_output=True, text=True, check=True)
    aliases = dict(entry.split("=") for entry in result.stdout.strip().split(","))
    assert {"jax", "jax.numpy", "jax.lax", "jax.random", "jax.tree_util"} <= set(aliases)
    assert all(target == "jaxle" + name[len("jax"):] for name, target in aliases.items()), aliases
