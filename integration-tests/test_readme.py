"""README.md: its quickstart runs and prints what JAX 0.10.2 prints; its set-up commands install every package."""

import json
import pathlib
import re
import subprocess
import sys

import make_readme_golden as readme  # on the path set by conftest.py
import numpy as np

ROOT = pathlib.Path(__file__).parents[1]
GOLDEN = json.loads(readme.GOLDEN.read_text())
_NUMBER = re.compile(r"-?\d+\.\d*(?:e[-+]?\d+)?")


def _split_numbers(text: str) -> tuple[list[str], list[float]]:
    """The text with its decimal numbers blanked out, and those numbers."""
    return _NUMBER.sub("#", text).splitlines(), [float(n) for n in _NUMBER.findall(text)]


def test_quickstart_prints_what_jax_prints(tmp_path):
    done = subprocess.run([sys.executable, "-c", readme.marked_block("quickstart")], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    # The jaxpr text must be JAX's exactly; the printed float32 values may differ in the last digit only where
    # XLA's CPU code differs from the machine that recorded JAX's values.
    layout, numbers = _split_numbers(done.stdout)
    expected_layout, expected_numbers = _split_numbers(GOLDEN["quickstart"])
    assert layout == expected_layout
    np.testing.assert_allclose(numbers, expected_numbers, rtol=1e-6)


def test_readme_shows_jax_output():
    assert readme.marked_block("quickstart-output") == GOLDEN["quickstart"]


def test_two_setup_commands_and_the_first_installs_every_package_locally():
    text = readme.README.read_text()
    setup = text[text.index("## Set up"):text.index("## Quickstart")]
    assert len(re.findall(r"^```bash$", setup, re.M)) == 2
    demo, tests = readme.marked_block("demo-command").strip(), readme.marked_block("test-command").strip()
    assert tests == "python3 -m pip install nox uv && python3 -m nox -s lint tests core_only clients"
    install, run = demo.split(" && ")
    assert run == "python3 -m jaxle.demo"
    folders = {path.parent.name for path in (ROOT / "packages").glob("*/pyproject.toml")}
    assert set(re.findall(r"\./packages/([\w-]+)", install)) == folders
    assert '"./packages/jaxle[demo]"' in install.split()


def test_package_table_lists_every_package():
    text = readme.README.read_text()
    for pyproject in (ROOT / "packages").glob("*/pyproject.toml"):
        assert f"| `packages/{pyproject.parent.name}` (" in text
