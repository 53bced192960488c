"""The compatibility shims for private ``jax._src`` modules (``jaxle._src``): chex's way of forbidding compilation
on a platform (wrapping ``compiler.backend_compile_and_load``) and of finding the started clients."""

import numpy as np
import pytest

import jaxle
from jaxle._src import compiler, core, dispatch, dtypes, flatten_util, traceback_util, xla_bridge


class Forbidden(RuntimeError):
    pass


def test_wrapping_the_compile_entry_point_sees_every_compilation():
    inner = compiler.backend_compile_and_load
    forbidden = jaxle.extend.backend.get_backend().platform
    platforms = []

    def wrapper(backend, *args, **kwargs):
        platforms.append(backend.platform)
        if backend.platform == forbidden:
            raise Forbidden(f"Compiling a JAX program for {backend.platform} is forbidden")
        return inner(backend, *args, **kwargs)

    compiler.backend_compile_and_load = wrapper
    try:
        with pytest.raises(Forbidden):
            jaxle.jit(lambda x: x * 3.0 + 1.0)(np.float32(2.0))
    finally:
        compiler.backend_compile_and_load = inner
    assert platforms == [forbidden]
    assert compiler.backend_compile_and_load is inner
    np.testing.assert_allclose(jaxle.jit(lambda x: x * 3.0 + 1.0)(np.float32(2.0)), 7.0)


def test_backends_lists_the_started_clients():
    jaxle.numpy.ones(2).block_until_ready()
    assert xla_bridge._backends == jaxle.extend.backend.backends()
    with pytest.raises(AttributeError):
        xla_bridge.no_such_name  # noqa: B018


def test_shims_are_attributes_of_the_package():
    import jaxle._src

    assert jaxle._src.xla_bridge is xla_bridge and jaxle._src.compiler is compiler
    assert jaxle._src.flatten_util is flatten_util


def test_flatten_util_is_the_public_ravel_pytree():
    assert flatten_util.ravel_pytree is jaxle.flatten_util.ravel_pytree


def test_traceback_util_excludes_registered_files_and_jaxle():
    import sys

    user_frame = sys._getframe()
    assert traceback_util.include_frame(user_frame)
    traceback_util.register_exclusion(__file__)
    try:
        assert not traceback_util.include_frame(user_frame)
    finally:
        traceback_util._excluded.remove(__file__)
    jaxle_frames = []

    def record(x):
        jaxle_frames.append(sys._getframe(1))  # tree_map's frame, in jaxle_tree
        return x

    jaxle.tree_util.tree_map(record, [1])
    assert "jaxle_tree" in jaxle_frames[0].f_code.co_filename
    assert not traceback_util.include_frame(jaxle_frames[0])


def test_dtypes_type_promotion_error_is_the_one_strict_promotion_raises():
    with jaxle.numpy_dtype_promotion("strict"), pytest.raises(dtypes.TypePromotionError):
        jaxle.numpy.ones(2, np.float32) + jaxle.numpy.ones(2, np.int32)


def test_dispatch_imports_without_wait_for_tokens():
    assert not hasattr(dispatch, "wait_for_tokens")


def test_trace_state_clean_is_false_under_every_transformation():
    # JAX 0.10.2: True eagerly and inside named_scope; False under jit, vmap, grad and ensure_compile_time_eval in jit.
    seen = []

    def record(x):
        seen.append(core.trace_state_clean())
        return x

    def compile_time(x):
        with jaxle.ensure_compile_time_eval():
            seen.append(core.trace_state_clean())
        return x

    record(1.0)
    jaxle.jit(record)(1.0)
    jaxle.vmap(record)(np.ones(2, np.float32))
    jaxle.grad(record)(1.0)
    jaxle.jit(compile_time)(1.0)
    with jaxle.named_scope("scope"):
        record(1.0)
    assert seen == [True, False, False, False, False, True]
