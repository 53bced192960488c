"""jaxle.compat: ``import jax`` imports jaxle after ``install_as_jax()``, and an unmodified JAX-style program gives
the numbers it gives under ``import jaxle as jax``. Every case runs in a subprocess: this process never gets a module
named jax (integration-tests/test_no_jax_import.py)."""

import json
import os
import pathlib
import subprocess
import sys

import jaxle
import jaxle.numpy as jnp
from jaxle.compat import is_installed
from jaxle.compat.__main__ import main as compat_main

HERE = pathlib.Path(__file__).parent
PROGRAM = HERE / "jax_style_program.py"
sys.path.insert(0, str(HERE))
import jax_style_program  # noqa: E402  (its train function, called here on jaxle; its main is never run here)


def run_python(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=120)


def test_unmodified_program_gives_the_numbers_of_import_jaxle_as_jax():
    result = run_python("-m", "jaxle.compat", "run", str(PROGRAM), "8")
    assert result.returncode == 0, result.stderr[-3000:]
    through_compat = json.loads(result.stdout.splitlines()[-1])
    assert through_compat == jax_style_program.train(jaxle, jnp, 8)
    assert len(through_compat["losses"]) == 8 and through_compat["losses"][-1] < through_compat["losses"][0]


ALIASES = """
import sys
from jaxle.compat import install_as_jax, is_installed
install_as_jax()
install_as_jax()  # a second call changes nothing
import importlib
import jaxle
jax, jnp, lax, random = (importlib.import_module(n) for n in ("jax", "jax.numpy", "jax.lax", "jax.random"))
importlib.import_module("jax.scipy.special"), importlib.import_module("jax.tree_util")
assert is_installed() and jax is jaxle and jnp is jaxle.numpy and lax is jaxle.lax and random is jaxle.random
assert jax.scipy.special is jaxle.scipy.special and sys.modules["jax.tree_util"] is jaxle.tree_util
assert float(jax.jit(lambda x: jnp.sin(x) * 2)(0.5)) == float(jaxle.jit(lambda x: jaxle.numpy.sin(x) * 2)(0.5))
try:
    importlib.import_module("jax._src.pjit")
    raise AssertionError("a private jax module without a jaxle shim imported")
except ModuleNotFoundError as err:
    assert str(err) == "No module named 'jax._src.pjit'", err
jax_modules = {name: module.__name__ for name, module in sys.modules.items() if name.split(".")[0] == "jax"}
assert all(target == "jaxle" + name[3:] for name, target in jax_modules.items()), jax_modules
print("ok")
"""


def test_jax_names_are_jaxles_modules():
    result = run_python("-c", ALIASES)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]


REFUSAL = """
import sys, types
sys.modules["jax"] = types.ModuleType("jax")  # stands for a real jax imported before
from jaxle.compat import install_as_jax
try:
    install_as_jax()
except RuntimeError as err:
    print(err)
"""


def test_refuses_when_jax_is_already_imported():
    result = run_python("-c", REFUSAL)
    assert result.stdout.strip() == (
        "jaxle.compat.install_as_jax(): the real jax is already imported (jax in sys.modules); call "
        "install_as_jax() before anything imports jax, or use `python -m jaxle.compat run script.py`.")


def test_run_a_module():
    result = run_python("-m", "jaxle.compat", "run", "-m", "jax_style_program", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(json.loads(result.stdout.splitlines()[-1])["losses"]) == 2


def test_usage(capsys):
    assert compat_main(["script.py"]) == 2 and compat_main(["run", "-m"]) == 2
    assert capsys.readouterr().err.startswith("usage: python -m jaxle.compat run script.py [args...]\n")
    assert not is_installed()


PLUGIN_SUITE = """
import importlib


def test_jax_is_jaxle():
    jax = importlib.import_module("jax")
    assert jax.__name__ == "jaxle"
    assert float(jax.grad(lambda x: x * x)(3.0)) == 6.0
"""


def test_pytest_plugin_runs_a_suite_on_jaxle(tmp_path):
    (tmp_path / "test_suite.py").write_text(PLUGIN_SUITE)
    for workers in ([], ["-n", "2"]):  # and in every pytest-xdist worker
        result = run_python("-m", "pytest", "-q", "-p", "jaxle.compat.pytest_plugin", "-p", "no:cacheprovider",
                            *workers, str(tmp_path / "test_suite.py"))
        assert result.returncode == 0, result.stdout[-3000:]
        assert "1 passed" in result.stdout
