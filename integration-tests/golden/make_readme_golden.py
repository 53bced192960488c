"""What JAX 0.10.2 prints for README's quickstart, for integration-tests/test_readme.py.

Run with JAX's venv: ``/work/jaxpeer/bin/python integration-tests/golden/make_readme_golden.py jax`` writes
readme_golden.json. The quickstart's own import lines name jaxle; here they are left out and ``jax``/``jnp``
are the module named on the command line and its ``numpy``.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import pathlib
import re
import sys

README = pathlib.Path(__file__).parents[2] / "README.md"
GOLDEN = pathlib.Path(__file__).with_name("readme_golden.json")


def marked_block(marker: str) -> str:
    """The fenced block that follows ``<!-- marker -->`` in README.md, without its fences."""
    found = re.search(rf"<!-- {marker} -->\n```\w*\n(.*?)^```", README.read_text(), re.S | re.M)
    if found is None:
        raise LookupError(f"README.md has no block after <!-- {marker} -->")
    return found.group(1)


def quickstart_output(module_name: str) -> str:
    """What the quickstart prints with ``jax`` being ``module_name``."""
    jax = importlib.import_module(module_name)
    body = "\n".join(line for line in marked_block("quickstart").splitlines() if not line.startswith("import "))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(body, "README.md quickstart", "exec"), {"jax": jax, "jnp": jax.numpy})
    return printed.getvalue()


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({"quickstart": quickstart_output(sys.argv[1])}, indent=1) + "\n")
    print(f"wrote {GOLDEN}")
