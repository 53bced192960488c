"""The top-level namespace's own behaviour: configuration, waiting and host copies, live arrays, process queries,
ravel_pytree, dlpack, custom_gradient, fwd_and_bwd and user contexts (values from JAX 0.10.2 where not analytic)."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import jaxle as jax
import jaxle.numpy as jnp
from jaxle.flatten_util import ravel_pytree


def test_config_object_reads_and_updates_flags():
    assert jax.config.jax_enable_x64 is False and jax.config.values["jax_enable_x64"] is False
    jax.config.update("jax_enable_x64", True)
    try:
        assert jnp.arange(3).dtype == np.int64 and jax.config.jax_enable_x64
    finally:
        jax.config.update("jax_enable_x64", False)
    assert jnp.arange(3).dtype == np.int32
    with pytest.raises(AttributeError, match="Unrecognized config option: jax_foo"):
        jax.config.update("jax_foo", 1)


def test_context_managers_set_their_flag_in_the_block():
    with jax.enable_x64(True):
        assert jnp.ones(2, np.float64).dtype == np.float64
    with jax.numpy_rank_promotion("raise"), pytest.raises(ValueError, match="jax_numpy_rank_promotion=.raise."):
        jnp.ones(3) + jnp.ones((2, 3))
    with jax.log_compiles(), jax.default_matmul_precision("highest"), jax.debug_key_reuse(True):
        assert jax.config.jax_log_compiles and jax.config.jax_default_matmul_precision == "highest"
    with jax.transfer_guard("disallow"):
        assert {jax.config.jax_transfer_guard_host_to_device, jax.config.jax_transfer_guard_device_to_host,
                jax.config.jax_transfer_guard_device_to_device} == {"disallow"}
    assert jax.config.jax_transfer_guard_host_to_device is None
    with jax.checking_leaks():
        assert jax.config.jax_check_tracer_leaks
    assert str(jax.config.jax_legacy_prng_key) == "allow" and jax.config.jax_default_prng_impl == "threefry2x32"


@pytest.mark.parametrize("name,value,message", [
    ("jax_default_prng_impl", "foo", "new enum value must be in ['threefry2x32', 'threefry4x32', 'rbg', "
                                     "'unsafe_rbg', 'philox2x32', 'philox4x32'], got foo of type <class 'str'>."),
    ("jax_transfer_guard", "foo", "new enum value must be None or in ['allow', 'log', 'disallow', 'log_explicit', "
                                  "'disallow_explicit'], got foo of type <class 'str'>."),
    ("jax_legacy_prng_key", "bogus", "'bogus' is not a valid LegacyPrngKeyState"),
    ("jax_default_device", "bogus", "jax.default_device must be passed either a Device object (e.g. "
                                    "`jax.devices('cpu')[0]`) or a platform name string like 'cpu' or 'gpu', got: "
                                    "'bogus'"),
])
def test_bad_flag_values_get_jaxs_errors(name, value, message):
    with pytest.raises(ValueError) as info:
        jax.config.update(name, value)
    assert str(info.value) == message


def test_context_manager_without_a_value():
    with pytest.raises(TypeError, match="Context manager for default_device config option requires an argument"):
        jax.default_device()


def test_default_device_places_new_arrays():
    device = jax.devices()[0]
    with jax.default_device(device):
        assert jnp.ones(2).device == device
    with jax.default_device("cpu"):
        assert jnp.ones(2).device.platform == "cpu"


def test_block_until_ready_and_copy_to_host_async_walk_pytrees():
    tree = {"a": jnp.arange(3.0) * 2, "b": [1, "text"]}
    assert jax.block_until_ready(tree) is tree and tree["a"].is_ready()
    assert jax.copy_to_host_async(tree) is tree
    assert np.asarray(tree["a"]).tolist() == [0.0, 2.0, 4.0]


def test_block_until_ready_waits_for_arrays_keys_and_objects_that_wait():
    waited = []

    class Waits:
        def block_until_ready(self):
            waited.append(self)

    other = Waits()
    tree = ([jnp.arange(3.0) + i for i in range(4)], jax.random.key(0), other, None, 2.5)
    assert jax.block_until_ready(tree) is tree and waited == [other]
    assert all(a.is_ready() for a in tree[0]) and np.asarray(tree[0][3]).tolist() == [3.0, 4.0, 5.0]


def test_block_until_ready_of_a_deleted_array_raises_jaxs_error():
    x = jnp.arange(3.0)
    x.delete()
    with pytest.raises(jax.errors.JaxRuntimeError,
                       match=r"^INVALID_ARGUMENT: BlockHostUntilReady\(\) called on deleted or donated buffer$"):
        jax.block_until_ready({"x": x, "y": jnp.ones(2)})


def test_live_arrays_lists_the_arrays_alive():
    x = jnp.arange(5.0) + 1
    assert any(a is x for a in jax.live_arrays())
    x.delete()
    assert not any(a is x for a in jax.live_arrays("cpu"))


def test_process_queries_and_their_old_names():
    assert jax.process_indices() == [0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert (jax.host_count(), jax.host_id(), jax.host_ids()) == (1, 0, [0])
    assert [str(w.message) for w in caught] == [
        f"jax.{old} has been renamed to jax.{new}. This alias will eventually be removed; please update your code."
        for old, new in [("process_count", "process_count"), ("process_index", "process_index"),
                         ("process_indexs", "process_indices")]]
    assert isinstance(jax.devices()[0], jax.Device)


def test_float0_and_jacobian():
    assert jax.float0 == np.dtype([("float0", "V")])
    assert jax.grad(lambda x, i: x * 2.0, argnums=1, allow_int=True)(1.0, 3).dtype == jax.float0
    np.testing.assert_array_equal(jax.jacobian(lambda v: v ** 2)(jnp.arange(3.0)), np.diag([0.0, 2.0, 4.0]))


def test_ravel_pytree_round_trips_mixed_dtypes():
    tree = {"a": jnp.ones((2, 2)), "b": (jnp.arange(3), 2.0), "c": np.float16(1)}
    flat, unravel = ravel_pytree(tree)
    assert flat.dtype == np.float32 and flat.tolist() == [1, 1, 1, 1, 0, 1, 2, 2, 1]
    back = unravel(flat)
    assert back["b"][0].dtype == np.int32 and back["c"].dtype == np.float16 and back["a"].shape == (2, 2)
    assert ravel_pytree({})[0].shape == (0,) and ravel_pytree({})[1](jnp.zeros(0)) == {}
    with pytest.raises(TypeError, match="unravel function given array of dtype int32, but expected dtype float32"):
        unravel(jnp.ones(9, np.int32))
    with pytest.raises(ValueError, match=r"Sum of sizes 9 must be equal to dimension 0 of the operand shape \[3\]"):
        unravel(jnp.ones(3))


def test_ravel_pytree_jaxprs_are_jaxs():
    tree = {"a": jnp.ones(2), "b": jnp.ones(3, np.int32)}
    assert str(jax.make_jaxpr(lambda t: ravel_pytree(t)[0])(tree)) == (
        "{ lambda ; a:f32[2] b:i32[3]. let\n"
        "    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b\n"
        "    d:f32[5] = concatenate[dimension=0] a c\n"
        "  in (d,) }")
    flat, unravel = ravel_pytree([jnp.ones(2)])
    assert str(jax.make_jaxpr(unravel)(flat)) == \
        "{ lambda ; a:f32[2]. let b:f32[2] = split[axis=0 sizes=(2,)] a in (b,) }"


def test_dlpack():
    np.testing.assert_array_equal(jax.dlpack.from_dlpack(np.arange(3.0)), np.arange(3.0))
    assert jax.dlpack.from_dlpack(np.arange(3.0), device=jax.devices()[0]).committed
    assert jax.dlpack.is_supported_dtype(ml_dtypes.bfloat16) and jax.dlpack.is_supported_dtype(np.uint64)
    assert not jax.dlpack.is_supported_dtype(ml_dtypes.float8_e4m3fn) and not jax.dlpack.is_supported_dtype(np.str_)


def test_custom_gradient_under_jit():
    @jax.custom_gradient
    def clip_gradient(x):
        return x * 3.0, lambda g: (jnp.clip(g, -1.0, 1.0),)

    assert float(jax.jit(jax.grad(lambda x: 5.0 * clip_gradient(x)))(2.0)) == 1.0


def test_fwd_and_bwd_compiles_bwd_once():
    fwd, bwd = jax.fwd_and_bwd(lambda x, w: jnp.sin(x) * w, argnums=(0, 1))
    for x in (2.0, 2.5):
        y, residuals = fwd(x, 3.0)
        dx, dw = bwd(residuals, 1.0)
        np.testing.assert_allclose([float(y), float(dx), float(dw)], [np.sin(x) * 3, np.cos(x) * 3, np.sin(x)],
                                   rtol=1e-6)
    assert bwd.trace_count == 1


def test_user_context_is_part_of_the_jit_cache_key():
    context = jax.make_user_context(default_value=None)
    traces = []

    @jax.jit
    def double(x):
        traces.append(x)
        return x * 2

    for value in (1, 1, 2):
        with context(value):
            double(1.0)
    assert len(traces) == 2


def test_print_environment_info(capsys):
    text = jax.print_environment_info(return_string=True)
    assert text.startswith(f"jaxle: {jax.version.jaxle_version} (the API of jax 0.10.2)\n")
    assert "jaxlib: 0.10.2" in text and "device info: cpu-" in text
    assert jax.print_environment_info() is None and capsys.readouterr().out.startswith("jaxle: ")


def test_tree_and_typing_submodules():
    assert jax.tree.map(lambda v: v + 1, {"a": 1, "b": (2,)}) == {"a": 2, "b": (3,)}
    assert jax.tree.leaves([1, (2, None)]) == [1, 2]
    assert int in jax.typing.ArrayLike.__args__ and str in jax.typing.DTypeLike.__args__


def test_segment_sum_runs_on_xla_under_jit():
    ids = np.array([0, 2, 2, 5])
    out = jax.jit(lambda d: jax.ops.segment_sum(d, ids, num_segments=3))(jnp.arange(4.0))
    np.testing.assert_array_equal(out, [0.0, 0.0, 3.0])  # rows 1 and 2 in segment 2; id 5 is out of range: dropped


def test_image_resize_runs_on_xla_under_jit():
    x = jnp.arange(12.0).reshape(3, 4)
    out = jax.jit(lambda a: jax.image.resize(a, (2, 2), "linear"))(x)
    np.testing.assert_allclose(out, [[2.2142859, 3.785715], [7.2142873, 8.785716]], rtol=1e-5)  # JAX 0.10.2's


def test_core_types():
    assert isinstance(jax.typeof(1.0), jax.core.AbstractValue)
    assert issubclass(jax.core.ShapedArray, jax.core.AbstractValue)
    with jax.core.eval_context():
        out = jax.jit(lambda x: (jnp.sin(2.0), x))(1.0)
    np.testing.assert_allclose(out[0], np.sin(2.0), rtol=1e-6)


def test_device_get_leaves_key_arrays_as_they_are():
    # NumPy cannot hold keys: JAX returns key arrays unchanged and fetches the rest.
    key = jax.random.key(0)
    out = jax.device_get({"key": key, "x": jnp.ones(2)})
    assert out["key"] is key and isinstance(out["x"], np.ndarray)
    np.testing.assert_array_equal(out["x"], np.ones(2, np.float32))


def test_names_jax_removed_answer_with_its_message():
    # JAX 0.10.2's message for jnp.fix, which it removed (recorded from its jax.numpy.__getattr__)
    message = ("jax.numpy.fix was deprecated in JAX v0.9.0, and will be removed in JAX v0.10.0. Use jax.numpy.trunc "
               "instead.")
    with pytest.raises(AttributeError) as raised:
        jnp.fix  # noqa: B018 - the attribute lookup is what is tested
    assert str(raised.value) == message and not hasattr(jnp, "fix")
    with pytest.raises(AttributeError, match="module 'jaxle.numpy' has no attribute 'no_such_name'"):
        jnp.no_such_name  # noqa: B018
