"""``python -m jaxle.compat run script.py [args...]`` (or ``run -m module [args...]``): run a program written for JAX
on jaxle, with ``import jax`` importing jaxle."""

from __future__ import annotations

import os
import runpy
import sys

from jaxle.compat import install_as_jax

USAGE = "usage: python -m jaxle.compat run script.py [args...]\n       python -m jaxle.compat run -m module [args...]"


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "run" or (argv[1] == "-m" and len(argv) < 3):
        print(USAGE, file=sys.stderr)
        return 2
    install_as_jax()
    if argv[1] == "-m":
        sys.argv = [argv[2], *argv[3:]]
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv[1:]
        # As `python script.py` does: the script's folder comes first on the path.
        sys.path.insert(0, os.path.dirname(os.path.abspath(argv[1])))
        runpy.run_path(argv[1], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
