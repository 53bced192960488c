"""``jax_debug_nans`` / ``jax_debug_infs``: the FloatingPointError names the primitive, as JAX 0.10.2's does, eagerly
and under jit; ``jax_no_execution`` refuses to run; messages are JAX's. (The reference backend runs jitted functions
op by op already; the de-optimized re-run of compiled functions is tested on XLA, in
packages/jaxle/tests/test_execution_flags.py.)"""

import numpy as np
import pytest

import jaxle_core as jax
from jaxle_core import lax
from jaxle_core.config import debug_infs, debug_nans, no_execution


def test_eager_primitive_names_itself():
    with debug_nans(True), pytest.raises(FloatingPointError, match=r"^invalid value \(nan\) encountered in log$"):
        lax.log(np.float32(-1.0))
    with debug_nans(True), pytest.raises(FloatingPointError, match=r"^invalid value \(nan\) encountered in sqrt$"):
        lax.sqrt(np.complex64(complex("nan")))


def test_jit_names_the_primitive():
    @jax.jit
    def f(x):
        return lax.log(lax.sin(x) - 2.0) * 3.0

    with debug_nans(True):
        for _ in range(2):  # the second call takes the compiled fast path
            with pytest.raises(FloatingPointError, match=r"^invalid value \(nan\) encountered in log$"):
                f(np.float32(1.0))


def test_nested_jit_and_vmap():
    with debug_nans(True):
        with pytest.raises(FloatingPointError, match=r"encountered in log$"):
            jax.jit(lambda x: jax.jit(lax.log)(x) * 2.0)(np.float32(-1.0))
        with pytest.raises(FloatingPointError, match=r"encountered in log$"):
            jax.vmap(lax.log)(np.array([1.0, -1.0], np.float32))


def test_a_nan_the_op_by_op_run_does_not_produce():
    with debug_nans(True), pytest.raises(FloatingPointError) as info:
        jax.jit(lambda x: (x, np.float32("nan")))(np.float32(1.0))
    assert str(info.value).startswith("('jit(<lambda>)', 'nan'). Because jax_config.debug_nans.value and/or "
                                      "config.jax_debug_infs is set, the de-optimized function")


def test_infs_are_checked_apart_from_nans():
    with debug_infs(True):
        with pytest.raises(FloatingPointError, match=r"^invalid value \(inf\) encountered in log$"):
            lax.log(np.float32(0.0))
        assert np.isnan(lax.log(np.float32(-1.0)))
    with debug_nans(True):
        assert np.isneginf(lax.log(np.float32(0.0)))
        assert int(lax.div(np.int32(1), np.int32(0))) == -1  # integers are never checked


def test_off_by_default():
    assert np.isnan(jax.jit(lax.log)(np.float32(-1.0)))


def test_no_execution_refuses_to_run():
    double = jax.jit(lambda x: x * 2.0)
    with no_execution(True):
        with pytest.raises(RuntimeError, match=r"^JAX tried to execute function jit\(<lambda>\), but the no_execution "
                                               r"config option is set$"):
            double(np.float32(1.0))
        with pytest.raises(RuntimeError, match=r"execute function jit\(sin\)"):
            lax.sin(np.float32(1.0))
    assert float(double(np.float32(1.0))) == 2.0
