"""Host callbacks, debugging and profiling as a JAX program spells them: ``jax.pure_callback``,
``jax.experimental.io_callback``, ``jax.debug``, ``jax.effects_barrier`` and ``jax.profiler``."""

from __future__ import annotations

import numpy as np
import pytest

import jaxle as jax
import jaxle.numpy as jnp
from jaxle.experimental import io_callback


def test_pure_callback_in_a_jitted_vmapped_program():
    def host_logsumexp(a):
        a = np.asarray(a)
        return np.log(np.exp(a).sum(-1)).astype(a.dtype)

    @jax.jit
    def f(x):
        out = jax.ShapeDtypeStruct(x.shape[:-1], x.dtype)
        return jax.pure_callback(host_logsumexp, out, x, vmap_method="expand_dims")

    x = jnp.arange(12.0).reshape(3, 4)
    expected = np.log(np.exp(np.arange(12.0).reshape(3, 4)).sum(-1))
    np.testing.assert_allclose(np.asarray(f(x)), expected, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jax.vmap(f)(x[None])), expected[None], rtol=1e-6)


def test_pure_callback_under_custom_jvp_and_grad():
    @jax.custom_jvp
    def host_exp(x):
        return jax.pure_callback(np.exp, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    host_exp.defjvp(lambda p, t: (host_exp(p[0]), host_exp(p[0]) * t[0]))
    g = jax.grad(lambda x: jnp.sum(host_exp(x)))(jnp.array([0.0, 1.0]))
    np.testing.assert_allclose(np.asarray(g), np.exp([0.0, 1.0]), rtol=1e-6)


def test_io_callback_effects_and_debug_print(capsys):
    seen = []

    def record(x):
        seen.append(int(x))
        return np.int32(len(seen))

    @jax.jit
    def step(x):
        count = io_callback(record, jax.ShapeDtypeStruct((), jnp.int32), x, ordered=True)
        jax.debug.print("step {x} made {count} calls", x=x, count=count)
        return count

    for i in range(3):
        step(i)
    jax.effects_barrier()
    assert seen == [0, 1, 2]
    assert capsys.readouterr().out == "step 0 made 1 calls\nstep 1 made 2 calls\nstep 2 made 3 calls\n"


def test_callback_errors_are_jax_runtime_errors():
    def fail(x):
        raise ValueError("no")

    with pytest.raises(jax.errors.JaxRuntimeError, match="ValueError: no"):
        jax.jit(lambda x: jax.pure_callback(fail, jax.ShapeDtypeStruct((), jnp.float32), x))(1.0)


def test_profiler_trace_of_a_jitted_function(tmp_path):
    with jax.profiler.trace(str(tmp_path)):
        with jax.profiler.StepTraceAnnotation("step", step_num=0):
            jax.jit(lambda x: x @ x)(jnp.ones((8, 8))).block_until_ready()
    assert list((tmp_path / "plugins" / "profile").glob("*/*.xplane.pb"))
