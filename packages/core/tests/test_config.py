"""Config flags: JAX's names, defaults, validation, context managers, environment variables."""

import os
import subprocess
import sys
import threading

import pytest

from jaxle_core import config as cfg
from jaxle_core.config import config


@pytest.fixture
def restore_flags():
    saved = {name: flag._global for name, flag in config._flags.items()}
    yield
    for name, value in saved.items():
        config._flags[name]._global = value


def test_defaults_match_jax():
    # The test process may be run with JAX_* set; the defaults are checked in a clean child process.
    code = ("from jaxle_core.config import config as c; print(repr([c.jax_enable_x64, c.jax_disable_jit, "
            "c.jax_platforms, c.jax_num_cpu_devices, c.jax_default_matmul_precision, c.jax_numpy_rank_promotion, "
            "c.jax_debug_nans, c.jax_debug_infs, str(c.jax_numpy_dtype_promotion)]))")
    assert run_python(code, {}) == "[False, False, None, -1, None, 'allow', False, False, 'standard']"


def run_python(code, env_vars):
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env.update(env_vars)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    return proc.stdout.strip() if proc.returncode == 0 else proc.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("text,expected", [("1", "True"), ("TRUE", "True"), ("yes", "True"), ("on", "True"),
                                           ("0", "False"), ("Off", "False"), ("n", "False")])
def test_enable_x64_from_environment(text, expected):
    code = "from jaxle_core import config; print(config.x64_enabled())"
    assert run_python(code, {"JAX_ENABLE_X64": text}) == expected


@pytest.mark.parametrize("text", ["maybe", ""])
def test_bad_truth_value_in_environment_fails_at_import(text):
    out = run_python("import jaxle_core.config", {"JAX_ENABLE_X64": text})
    assert out == f"ValueError: invalid truth value {text!r} for environment 'JAX_ENABLE_X64'"


def test_other_flags_from_environment():
    code = ("from jaxle_core.config import config as c; print(repr([c.jax_num_cpu_devices, c.jax_platforms, "
            "c.jax_default_matmul_precision, c.jax_numpy_rank_promotion, c.jax_debug_nans, c.jax_disable_jit, "
            "str(c.jax_numpy_dtype_promotion)]))")
    env = {"JAX_NUM_CPU_DEVICES": "4", "JAX_PLATFORMS": "cpu", "JAX_DEFAULT_MATMUL_PRECISION": "highest",
           "JAX_NUMPY_RANK_PROMOTION": "raise", "JAX_DEBUG_NANS": "1", "JAX_DISABLE_JIT": "true",
           "JAX_NUMPY_DTYPE_PROMOTION": "strict"}
    assert run_python(code, env) == "[4, 'cpu', 'highest', 'raise', True, True, 'strict']"


@pytest.mark.parametrize("var,name", [("JAX_NUM_CPU_DEVICES", "jax_num_cpu_devices"),
                                      ("JAX_NUMPY_RANK_PROMOTION", "jax_numpy_rank_promotion"),
                                      ("JAX_NUMPY_DTYPE_PROMOTION", "jax_numpy_dtype_promotion")])
def test_invalid_environment_values_fail_at_import(var, name):
    expected = f'ValueError: Invalid value "bad" for JAX flag {name}'
    assert run_python("import jaxle_core.config", {var: "bad"}) == expected


def test_update_and_read(restore_flags):
    config.update("jax_enable_x64", True)
    assert config.jax_enable_x64 is True and config.read("jax_enable_x64") is True and cfg.x64_enabled()
    config.update("jax_enable_x64", 0)
    assert config.jax_enable_x64 is False and not config.x64_enabled
    config.update("jax_num_cpu_devices", 8)
    assert config.jax_num_cpu_devices == 8
    config.update("jax_numpy_dtype_promotion", "strict")
    assert config.jax_numpy_dtype_promotion == cfg.NumpyDtypePromotion.STRICT == "strict"
    assert config.values["jax_num_cpu_devices"] == 8


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="Unrecognized config option: jax_foo"):
        config.update("jax_foo", 1)
    with pytest.raises(AttributeError):
        config.jax_foo  # noqa: B018
    with pytest.raises(AttributeError, match="Unrecognized"):
        config.read("jax_foo")


@pytest.mark.parametrize("name,value,error,message", [
    ("jax_num_cpu_devices", "3", ValueError, "new int config value must be None or of type int"),
    ("jax_platforms", 3, ValueError, "new string config value must be None or of type str"),
    ("jax_numpy_rank_promotion", "bad", ValueError, r"new enum value must be in \['allow', 'warn', 'raise'\]"),
    ("jax_default_matmul_precision", "bad", ValueError, "new enum value must be None or in"),
    ("jax_numpy_dtype_promotion", "bad", ValueError, "'bad' is not a valid NumpyDtypePromotion"),
    ("jax_explicit_x64_dtypes", 2, TypeError, "new enum value must be an instance of"),
])
def test_update_validates(name, value, error, message, restore_flags):
    before = config.values[name]
    with pytest.raises(error, match=message):
        config.update(name, value)
    assert config.values[name] == before


def test_enable_x64_context_manager_is_thread_local(restore_flags):
    config.update("jax_enable_x64", False)
    with cfg.enable_x64(True):
        assert cfg.x64_enabled() and config.jax_enable_x64
        seen = []
        worker = threading.Thread(target=lambda: seen.append(cfg.x64_enabled()))
        worker.start()
        worker.join()
        assert seen == [False]
        config.update("jax_enable_x64", False)  # a global update does not reach through the override
        assert cfg.x64_enabled()
        with cfg.enable_x64(False):
            assert not cfg.x64_enabled()
        assert cfg.x64_enabled()
    assert not cfg.x64_enabled()


def test_bool_context_managers_default_to_true_and_decorate(restore_flags):
    config.update("jax_enable_x64", False)
    with cfg.enable_x64():
        assert cfg.x64_enabled()

    @cfg.debug_nans(True)
    def read_debug_nans():
        return config.jax_debug_nans

    assert read_debug_nans() and not config.jax_debug_nans
    with pytest.raises(TypeError, match="requires an argument"):
        cfg.numpy_rank_promotion()
    with pytest.raises(ValueError):
        cfg.numpy_rank_promotion("bad")


def test_context_manager_restores_after_exceptions(restore_flags):
    config.update("jax_numpy_rank_promotion", "allow")
    with pytest.raises(RuntimeError), cfg.numpy_rank_promotion("raise"):
        assert config.jax_numpy_rank_promotion == "raise"
        raise RuntimeError
    assert config.jax_numpy_rank_promotion == "allow"


def test_trace_context_tracks_tracing_flags(restore_flags):
    config.update("jax_enable_x64", False)
    base = cfg.trace_context()
    hash(base)
    assert config.trace_context() == base
    with cfg.enable_x64(True):
        assert cfg.trace_context() != base
    with cfg.numpy_rank_promotion("raise"):
        assert cfg.trace_context() != base
    with cfg.default_matmul_precision("highest"):
        assert cfg.trace_context() != base
    with cfg.debug_nans(True):
        assert cfg.trace_context() == base
    assert cfg.trace_context() == base


def test_observers_see_global_and_local_changes(restore_flags):
    seen = []
    config.add_observer("jax_debug_infs", seen.append)
    config.update("jax_debug_infs", True)
    with cfg.debug_infs(False):
        pass
    config.update("jax_debug_infs", False)
    assert seen == [True, False, True, False]
    with pytest.raises(AttributeError):
        config.add_observer("jax_foo", seen.append)


def test_more_flags_defaults_match_jax():
    code = ("from jaxle_core.config import config as c; print(repr([c.jax_log_compiles, c.jax_check_tracer_leaks, "
            "c.jax_allow_f16_reductions, c.jax_threefry_partitionable, c.jax_default_prng_impl, "
            "str(c.jax_legacy_prng_key), c.jax_default_device, c.jax_transfer_guard_host_to_device, "
            "c.jax_array_garbage_collection_guard, c.jax_no_tracing, c.jax_softmax_custom_jvp]))")
    assert run_python(code, {}) == ("[False, False, True, True, 'threefry2x32', 'allow', None, None, None, False, "
                                    "False]")


def test_transfer_guard_sets_every_direction(restore_flags):
    with cfg.transfer_guard("log"):
        assert [config.jax_transfer_guard_host_to_device, config.jax_transfer_guard_device_to_host,
                config.jax_transfer_guard_device_to_device] == ["log"] * 3
    assert config.jax_transfer_guard_device_to_host is None
    with pytest.raises(ValueError, match="new enum value must be None or in"), cfg.transfer_guard("bad"):
        pass


def test_user_contexts_enter_the_trace_context():
    context = cfg.make_user_context(default_value="a")
    base = cfg.trace_context()
    with context("a"):
        assert cfg.trace_context() == base
    with context("b"):
        assert cfg.trace_context() != base
    assert "user_context" not in " ".join(config.values)
