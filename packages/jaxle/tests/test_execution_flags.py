"""Flags that watch execution, on XLA: ``jax_debug_nans`` / ``jax_debug_infs`` re-run compiled functions op by op
to name the primitive (compiled control flow names its own primitive, as JAX's does), and ``jax_log_compiles``
reports compilations; JAX 0.10.2's notices and messages."""

import inspect

import numpy as np
import pytest

import jaxle as jax
import jaxle.numpy as jnp
from jaxle import lax

NOTICE = "Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.\n"


def test_jit_reruns_op_by_op_to_find_the_primitive(capsys):
    @jax.jit
    def f(x):
        return jnp.log(jnp.sin(x) - 2.0) * 3

    with jax.debug_nans(True):
        for _ in range(2):  # the second call takes the compiled fast path
            with pytest.raises(FloatingPointError, match=r"^invalid value \(nan\) encountered in log$"):
                f(1.0)
    assert capsys.readouterr().out == NOTICE * 2


def test_eager_jnp_and_control_flow():
    with jax.debug_nans(True):
        with pytest.raises(FloatingPointError, match=r"^invalid value \(nan\) encountered in div$"):
            jnp.zeros(2) / jnp.zeros(2)
        for name, run in [("scan", lambda: lax.scan(lambda c, x: (c + lax.log(x), None), 0.0, jnp.array([1.0, -1.0]))),
                          ("cond", lambda: lax.cond(True, lax.log, lambda x: x, -1.0)),
                          ("while", lambda: lax.while_loop(lambda c: c < 0, lax.log, -1.0))]:
            with pytest.raises(FloatingPointError, match=rf"^invalid value \(nan\) encountered in {name}$"):
                run()


def test_debug_infs_under_jit(capsys):
    with jax.debug_infs(True):
        with pytest.raises(FloatingPointError, match=r"^invalid value \(inf\) encountered in log$"):
            jax.jit(lambda x: jnp.log(x) + 1)(0.0)
        assert np.isnan(jax.jit(jnp.log)(-1.0))
    assert capsys.readouterr().out.startswith(NOTICE)


def test_config_update_turns_checks_on_and_off():
    jax.config.update("jax_debug_nans", True)
    try:
        with pytest.raises(FloatingPointError):
            jax.jit(jnp.sqrt)(-1.0)
    finally:
        jax.config.update("jax_debug_nans", False)
    assert np.isnan(jax.jit(jnp.sqrt)(-1.0))


def test_log_compiles_reports_in_jaxs_words(caplog):
    with jax.log_compiles():
        jax.jit(lambda x: x * 2)(jnp.ones(3))
    messages = [record.getMessage() for record in caplog.records]
    assert "Compiling jit(<lambda>) with global shapes and types (ShapedArray(float32[3]),). Argument mapping: " \
           "(UnspecifiedValue,)." in messages
    assert any(m.startswith("Finished XLA compilation of jit(<lambda>) in ") for m in messages)
    assert any(m.startswith("Finished jaxpr to MLIR module conversion jit(<lambda>) in ") for m in messages)


def test_compilation_reports_its_durations():
    ones = jnp.ones(2)  # made before listening: its own compilation is not this test's subject
    events = []
    jax.monitoring.register_event_duration_secs_listener(lambda e, d, **kw: events.append((e, kw)))
    try:
        def scaled(x):
            return x * 3

        jax.jit(scaled)(ones)
    finally:
        jax.monitoring.clear_event_listeners()
    assert events == [("/jax/core/compile/jaxpr_trace_duration", {"fun_name": "scaled"}),
                      ("/jax/core/compile/jaxpr_to_mlir_module_duration", {"fun_name": "jit(scaled)"}),
                      ("/jax/core/compile/backend_compile_duration", {"fun_name": "jit(scaled)"})]


DISALLOWED = ("INVALID_ARGUMENT: Disallowed host-to-device transfer: aval=ShapedArray({}), "
              "dst_sharding=SingleDeviceSharding(device=CpuDevice(id=0), memory_kind=device)")


def test_transfer_guard_refuses_implicit_host_to_device_transfers():
    x = jnp.ones(3)
    double = jax.jit(lambda a: a * 2)
    double(x)
    with jax.transfer_guard("disallow"):
        for run, aval in [(lambda: double(np.ones(3, np.float32)), "float32[3]"),
                          (lambda: double(2.0), "float32[], weak_type=True"),
                          (lambda: x + np.ones(3, np.float32), "float32[3]"),
                          (lambda: jnp.asarray(np.ones(2, np.int32)), "int32[2]")]:
            with pytest.raises(jax.errors.JaxRuntimeError) as info:
                run()
            assert str(info.value) == DISALLOWED.format(aval)
        # explicit transfers, and reading values back on CPU, are allowed
        put = jax.device_put(np.ones(3, np.float32))
        assert np.asarray(double(put)).tolist() == [2.0, 2.0, 2.0] and jax.device_get(x).shape == (3,)
    with jax.transfer_guard("disallow_explicit"), pytest.raises(jax.errors.JaxRuntimeError):
        jax.device_put(np.ones(3, np.float32))
    assert float(double(2.0)) == 4.0  # allowed again outside the block


def test_transfer_guard_log(caplog):
    x = jnp.ones(3)
    with jax.transfer_guard_host_to_device("log"):
        x + np.ones(3, np.float32)
    assert caplog.records[-1].getMessage() == DISALLOWED.format("float32[3]").removeprefix(
        "INVALID_ARGUMENT: Disallowed ")


def test_debug_key_reuse_through_the_public_names():
    jax.config.update("jax_debug_key_reuse", True)
    try:
        key = jax.random.key(0)
        first_draw_line = inspect.currentframe().f_lineno + 1
        jax.random.normal(key)
        with pytest.raises(jax.errors.KeyReuseError,
                           match=r"^Previously-consumed key passed to jit-compiled function at index 0\n") as caught:
            jax.random.uniform(key)
        # raised from an error whose traceback ends at the line that consumed the key
        cause = caught.value.__cause__
        assert isinstance(cause, jax.errors.KeyReuseError) and str(cause).startswith("PRNG key first used")
        last = cause.__traceback__
        while last.tb_next is not None:
            last = last.tb_next
        assert (last.tb_frame.f_code.co_filename, last.tb_lineno) == (__file__, first_draw_line)
    finally:
        jax.config.update("jax_debug_key_reuse", False)
    jax.random.normal(key)  # the flag off: nothing is checked
