"""Every configuration option of JAX 0.10.2 against the goldens (golden/config_options_golden.json from
golden/make_config_options_golden.py): names, defaults, validation of ``config.update`` (JAX's exception types
and messages), ``config.read``, attribute reads, the public context managers, environment variables, unknown names.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
GOLDEN = json.loads((GOLDEN_DIR / "config_options_golden.json").read_text())

# One option of each way of reading an invalid environment text (bool, int, float, enum, enum class, plain flags,
# the device option and the int options converted without validation); each costs a child process.
INVALID_ENV_NAMES = ["jax_enable_x64", "jax_random_seed_offset", "jax_exec_time_optimization_effort",
                     "jax_traceback_filtering", "jax_logging_level", "jax_send_traceback_to_runtime",
                     "jax_numpy_dtype_promotion", "jax_platform_name", "jax_cpu_enable_async_dispatch",
                     "jax_tracer_error_num_traceback_frames", "jax_include_debug_info_in_dumps",
                     "jax_serialization_version", "jax_default_device", "jax_debug_log_modules",
                     "jax_pjrt_client_create_options", "check_vma"]


@pytest.fixture(scope="module")
def probed():
    """jaxle's answers, probed in a fresh process (no backend started, no JAX_* variable set), as JAX's were."""
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import make_config_options_golden as m; "
            "print(json.dumps(m.probe('jaxle', 'jaxle_core.config', json.loads(sys.argv[2]))))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    proc = subprocess.run([sys.executable, "-c", code, str(GOLDEN_DIR), json.dumps(INVALID_ENV_NAMES)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_every_option_exists(probed):
    assert sorted(probed["options"]) == sorted(GOLDEN["options"])


@pytest.mark.parametrize("name", sorted(GOLDEN["options"]))
def test_option_matches_jax(probed, name):
    expected = GOLDEN["options"][name]
    got = probed["options"].get(name)
    assert got is not None, f"jaxle lacks {name}"
    for key in ("default", "read", "attribute", "context_manager"):
        assert got[key] == expected[key], key
    for label, answer in expected["update"].items():
        assert got["update"][label] == answer, label


def test_environment_values_are_read_as_jax_reads_them(probed):
    assert probed["env"]["texts"] == GOLDEN["env"]["texts"]
    assert probed["env"]["read_back"] == GOLDEN["env"]["read_back"]


@pytest.mark.parametrize("name", INVALID_ENV_NAMES)
def test_invalid_environment_value(probed, name):
    assert probed["env"]["invalid"][name] == GOLDEN["env"]["invalid"][name]


def test_unknown_option(probed):
    assert probed["unknown"] == GOLDEN["unknown"]
