"""Several CPU devices in one process (``JAX_NUM_CPU_DEVICES=4``): placement follows committed arrays as in JAX.

The device count is read when the client starts, so the checks run in a fresh interpreter.
"""

import os
import subprocess
import sys

PROGRAM = r'''
import jaxle_core as jc
import jaxle_xla
import numpy as np
import pytest
from jaxle_core import lax
from jaxle_xla.dispatch_testing import counting_misses
from jaxle_xla.executable import Executable

devices = jaxle_xla.devices()
assert [d.id for d in devices] == [0, 1, 2, 3] and jaxle_xla.local_device_count() == 4
assert jaxle_xla.device_count() == 4 and jaxle_xla.process_count() == 1

value = np.arange(3, dtype=np.float32)
placed = [jaxle_xla.device_put(value, d) for d in devices]
for d, x in zip(devices, placed):
    assert x.device == d and x.committed and x.devices() == {d}
    np.testing.assert_array_equal(np.asarray(x), value)

# Eager operations stay on the committed device, and uncommitted operands follow it.
free = jaxle_xla.device_put(value)
assert free.device == devices[0] and not free.committed
for d, x in zip(devices, placed):
    y = lax.sin(x) * 2.0 + free
    assert y.device == d and y.committed
    np.testing.assert_allclose(np.asarray(y), np.sin(value) * 2 + value, rtol=1e-6)
assert not (free * 2.0).committed and (free * 2.0).device == devices[0]

# Each primitive compiles once per device.
before = Executable.compile_count
for x in placed + placed:
    lax.cos(x)
assert Executable.compile_count - before == 4

# jit follows committed arguments, once compiled per device.
f = jc.jit(lambda a, b: a * b + 1.0)
before = Executable.compile_count
for d, x in zip(devices, placed):
    out = f(x, free)
    assert out.device == d and out.committed
    np.testing.assert_array_equal(np.asarray(out), value * value + 1)
f(placed[3], placed[3])
assert Executable.compile_count - before == 4 and f.trace_count == 1
out = f(free, value)
assert out.device == devices[0] and not out.committed

# Arguments committed to different devices are an error, in jit and eagerly.
with pytest.raises(ValueError, match=(
        r"Received incompatible devices for jitted computation. Got argument a of <lambda> with shape float32\[3\] "
        r"and with device ids \[1\] on platform CPU and argument b of <lambda> with shape float32\[3\] and with "
        r"device ids \[2\] on platform CPU")):
    f(placed[1], placed[2])
with pytest.raises(ValueError, match=r"Got argument args\[0\] of add .* device ids \[3\] .* argument args\[1\] of "
                                     r"add .* device ids \[0\]"):
    lax.add(placed[3], placed[0])
with pytest.raises(ValueError, match=r"argument d\['q'\] of <lambda>"):
    jc.jit(lambda d: d["p"] + d["q"])({"p": placed[0], "q": placed[1]})

# jit(device=...) moves its arguments there and commits its outputs.
g = jc.jit(lambda a: a - 1.0, device=devices[2])
misses = counting_misses(g)
for _ in range(2):  # calls with arrays already there run in C++; the others keep being moved by core's path
    for x in (placed[1], placed[2], free, value, placed[2], placed[1]):
        out = g(x)
        assert out.device == devices[2] and out.committed and not placed[1].is_deleted()
        np.testing.assert_array_equal(np.asarray(out), value - 1)
assert misses[0] == 2 * 3 + 2 and g.trace_count == 1

# Moving arrays between devices.
moved = jaxle_xla.device_put(placed[1], devices[3])
assert moved.device == devices[3] and placed[1].device == devices[1]
np.testing.assert_array_equal(np.asarray(moved), value)
tree = jaxle_xla.device_put({"a": placed[0], "b": 2.0}, {"a": devices[2], "b": devices[1]})
assert (tree["a"].device, tree["b"].device) == (devices[2], devices[1]) and tree["b"].weak_type
assert jaxle_xla.device_put(value, placed[2].sharding).device == devices[2]

# Donation on a non-default device.
h = jc.jit(lambda a: a * 3.0, donate_argnums=0)
x = jaxle_xla.device_put(value, devices[3])
y = h(x)
assert x.is_deleted() and y.device == devices[3]
np.testing.assert_array_equal(np.asarray(y), value * 3)
print("ok")
'''


def test_four_cpu_devices():
    env = {k: v for k, v in os.environ.items() if k not in ("JAX_PLATFORMS", "XLA_FLAGS")}
    env["JAX_NUM_CPU_DEVICES"] = "4"
    result = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip().endswith("ok"), result.stderr[-3000:]
