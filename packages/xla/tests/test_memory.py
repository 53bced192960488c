"""Long runs hold constant memory: device-resident loops, eager loops, and a quiet start."""

import os
import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np

import jaxle_core as jc
import jaxle_xla
from jaxle_core import lax


def _growth(step, state, iterations: int) -> int:
    """Bytes of Python memory still allocated after ``iterations`` more calls of ``state = step(state)``."""
    for _ in range(500):  # warm every cache first
        state = step(state)
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for _ in range(iterations):
            state = step(state)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    return sum(stat.size_diff for stat in after.compare_to(before, "filename"))


def test_a_jitted_loop_over_device_arrays_holds_constant_memory():
    step = jc.jit(lambda p: lax.add(lax.mul(p, np.float32(0.5)), np.float32(1.0)))
    state = jaxle_xla.device_put(np.zeros(64, np.float32))
    # A leak of even one small object per call would show as hundreds of kilobytes here.
    assert _growth(step, state, 20_000) < 16_384
    np.testing.assert_allclose(np.asarray(step(state)), np.ones(64), rtol=0)


def test_an_eager_loop_holds_constant_memory():
    state = jaxle_xla.device_put(np.zeros(8, np.int32))
    assert _growth(lambda p: lax.add(p, np.int32(1)), state, 5_000) < 16_384


def _stderr_of(program: str, **env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"} | env
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(program)], capture_output=True, text=True,
                            env=environment, check=True, timeout=120)
    return result.stderr


_PROGRAM = """
    import numpy as np
    import jaxle_core as jc
    import jaxle_xla
    from jaxle_core import lax
    print(np.asarray(jc.jit(lambda x: lax.sin(x))(np.ones(3, np.float32))))
"""


def test_a_program_prints_nothing_on_stderr():
    assert _stderr_of(_PROGRAM) == ""


def test_xla_logging_still_follows_the_users_level():
    assert "pjrt_client" in _stderr_of(_PROGRAM, TF_CPP_MIN_LOG_LEVEL="0")
