"""What configuration options do, against JAX 0.10.2 (golden/config_behaviour_golden.json from
golden/make_config_behaviour_golden.py), and the options jaxle passes on to jaxlib (the CPU client, compile
options, plugin client options)."""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

from jaxle_core.config import config
from jaxle_xla import _jaxlib, clients

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
GOLDEN = json.loads((GOLDEN_DIR / "config_behaviour_golden.json").read_text())
sys.path.insert(0, str(GOLDEN_DIR))

import make_config_behaviour_golden as behaviour  # noqa: E402 - found through the path set just above


@pytest.mark.parametrize("platform", behaviour.PLATFORM_NAMES)
def test_platform_name_picks_the_default_backend(platform):
    assert behaviour.run_case("jaxle", "platform", platform) == GOLDEN[f"platform_{platform}"]


@pytest.mark.parametrize("case", ["seed_offset", "gumbel", "static_indices", "logging"])
def test_behaviour_matches_jax(case):
    assert behaviour.run_case("jaxle", case) == GOLDEN[case]


def test_dump_ir_to_writes_each_compiled_module():
    with tempfile.TemporaryDirectory() as directory:
        assert behaviour.run_case("jaxle", "dump_ir", directory) == GOLDEN["dump_ir"]


def run_python(code: str, env_vars: dict[str, str]) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env.update(env_vars)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().splitlines()[-1]


def test_cpu_client_is_made_with_the_options():
    # jaxlib's client keeps none of these where Python can read them back: the call that makes it is watched.
    code = """
import jaxle as jax
from jaxle_xla import _jaxlib
made = []
original = _jaxlib.xc.make_cpu_client
_jaxlib.xc.make_cpu_client = lambda **kwargs: made.append(kwargs) or original(**kwargs)
jax.config.update("jax_cpu_get_local_topology_timeout_minutes", 3)
jax.config.update("jax_cpu_enable_async_dispatch", False)
jax.numpy.ones(2).block_until_ready()
print(sorted((k, v) for k, v in made[0].items()))
"""
    out = run_python(code, {"JAX_CPU_GET_GLOBAL_TOPOLOGY_TIMEOUT_MINUTES": "7"})
    assert out == ("[('asynchronous', False), ('get_global_topology_timeout_minutes', 7), "
                   "('get_local_topology_timeout_minutes', 3)]")


@pytest.fixture
def restore_flags():
    saved = {name: flag._global for name, flag in config._flags.items()}
    yield
    for name, value in saved.items():
        config._flags[name]._global = value


def test_compile_options_follow_the_config(restore_flags):
    # XLA's effort levels: O0..O3 are 9, 19, 29, 39 (UNKNOWN 0); jit's compiler_options win over the config.
    config.update("jax_optimization_level", "O1")
    config.update("jax_exec_time_optimization_effort", 0.5)
    config.update("jax_compiler_enable_remat_pass", False)
    config.update("jax_xla_profile_version", 4)
    config.update("jax_disable_most_optimizations", True)
    options = _jaxlib.xc.CompileOptions()
    _jaxlib._apply_compile_flags(options, {"memory_fitting_effort": -0.25, "xla_cpu_enable_fast_math": False})
    build = options.executable_build_options
    assert (build.optimization_level, build.memory_fitting_level) == (19, 29)
    assert (build.exec_time_optimization_effort, build.memory_fitting_effort) == (0.5, -0.25)
    assert options.profile_version == 4
    assert build.debug_options.xla_disable_hlo_passes == "rematerialization"
    assert build.debug_options.xla_backend_optimization_level == 0
    assert options.env_option_overrides == [("xla_cpu_enable_fast_math", False)]


def test_optimization_level_still_computes(restore_flags):
    import jaxle as jax

    for level in ("O0", "O3"):
        config.update("jax_optimization_level", level)
        assert float(jax.jit(lambda x: x * 3 + 1)(2.0)) == 7.0


def test_plugin_client_options(restore_flags):
    config.update("jax_pjrt_client_create_options", "a:1;b:x")
    config.update("jax_cuda_visible_devices", "0,2")
    assert clients.plugin_client_options("cuda") == {"a": "1", "b": "x", "visible_devices": [0, 2]}
    config.update("jax_pjrt_client_create_options", {"c": 3})
    assert clients.plugin_client_options("rocm") == {"c": 3}
    config.update("jax_pjrt_client_create_options", "a:1:2")
    with pytest.raises(RuntimeError, match="Multiple ':' separators for option in jax_pjrt_client_create_options: "
                                           "'a:1:2'. Should be in format 'key:value'"):
        clients.plugin_client_options("cuda")
