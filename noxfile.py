"""Sessions for the jaxle monorepo: tests, core_only, lint, wheels, bench.

Packages are discovered from ``packages/*/pyproject.toml`` and installed in
dependency order, so adding a package needs no change here.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import nox
import tomllib

ROOT = Path(__file__).parent
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["lint", "tests", "core_only"]

TEST_TOOLS = ["pytest", "pytest-xdist", "hypothesis", "scipy"]
JAX_PEER = ["jax==0.10.2", "jaxlib==0.10.2", "scipy"]


def _requirement_name(requirement: str) -> str:
    return re.split(r"[ <>=!~;\[]", requirement, maxsplit=1)[0].strip().lower()


def packages() -> list[tuple[str, Path]]:
    """(distribution name, folder) of every package, dependencies first."""
    found: dict[str, tuple[Path, set[str]]] = {}
    for pyproject in sorted(ROOT.glob("packages/*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text())["project"]
        requirements = {_requirement_name(r) for r in project.get("dependencies", [])}
        found[project["name"]] = (pyproject.parent, requirements)
    ordered: list[tuple[str, Path]] = []
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in visiting or any(name == done for done, _ in ordered):
            return
        visiting.add(name)
        folder, requirements = found[name]
        for dependency in sorted(requirements & found.keys()):
            visit(dependency)
        ordered.append((name, folder))

    for name in found:
        visit(name)
    return ordered


def import_name(folder: Path) -> str:
    (source,) = [p for p in (folder / "src").iterdir() if (p / "__init__.py").exists()]
    return source.name


def extras(folder: Path) -> str:
    """``[a,b]`` naming every optional-dependency group of the package (so its tests can use them), or ``""``."""
    groups = tomllib.loads((folder / "pyproject.toml").read_text())["project"].get("optional-dependencies", {})
    return f"[{','.join(sorted(groups))}]" if groups else ""


def install_editable(session: nox.Session, names: list[str] | None = None) -> None:
    selected = [folder for name, folder in packages() if names is None or name in names]
    args: list[str] = []
    for folder in selected:
        args += ["-e", f"{folder}{extras(folder)}"]
    session.install(*args)


@nox.session
def tests(session: nox.Session) -> None:
    """Every package's tests and the integration tests, in one venv.

    Each package runs in its own pytest process: importing jaxle_xla makes XLA
    the default backend, and core's own tests must keep seeing the reference one.
    """
    install_editable(session)
    session.install(*TEST_TOOLS)
    targets = [str(folder / "tests") for _, folder in packages()] + ["integration-tests"]
    for target in targets:
        session.run("pytest", "-n", "auto", "-q", target, *session.posargs)


@nox.session
def core_only(session: nox.Session) -> None:
    """Core's tests in a venv that has no jaxlib: the NumPy reference backend alone."""
    install_editable(session, ["jaxle-tree", "jaxle-core"])
    session.install(*TEST_TOOLS)
    session.run("python", "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('jaxlib') is not None)")
    targets = [str(folder / "tests") for name, folder in packages() if name in ("jaxle-tree", "jaxle-core")]
    session.run("pytest", "-n", "auto", "-q", *targets, *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over the whole tree."""
    session.install("ruff")
    session.run("ruff", "check", ".")


@nox.session
def wheels(session: nox.Session) -> None:
    """Build every wheel (hatchling backend), install them from the wheels alone, import each."""
    dist = ROOT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    for _, folder in packages():
        # Each package builds with its own backend (hatchling); uv runs it in an isolated build env.
        session.run("uv", "build", "--wheel", "-q", "-o", str(dist), str(folder))
    built = sorted(str(w) for w in dist.glob("*.whl"))
    session.log(f"built: {', '.join(Path(w).name for w in built)}")
    fresh = ROOT / ".nox" / "wheels-fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    session.run("uv", "venv", "-q", "-p", sys.executable, str(fresh))
    python = str(fresh / "bin" / "python")
    session.run("uv", "pip", "install", "-q", "-p", python, "--find-links", str(dist), *built)
    for _, folder in packages():
        session.run(python, "-c", f"import {import_name(folder)} as m; print(m.__name__, m.__version__)",
                    external=True)


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks of jaxle beside JAX 0.10.2 (in its own venv), printed as a ratio table."""
    install_editable(session)
    peer = ROOT / ".bench" / "jax-peer"
    if not (peer / "bin" / "python").exists():
        session.run("uv", "venv", "-q", "-p", sys.executable, str(peer))
        session.run("uv", "pip", "install", "-q", "-p", str(peer / "bin" / "python"), *JAX_PEER)
    session.run("python", "benchmarks/run.py", "--peer-python", str(peer / "bin" / "python"), *session.posargs)
