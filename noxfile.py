"""Sessions for the jaxle monorepo: tests, core_only, lint, wheels, bench, docs.

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
nox.options.sessions = ["lint", "tests", "core_only", "clients"]

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


def version(folder: Path) -> str:
    return tomllib.loads((folder / "pyproject.toml").read_text())["project"]["version"]


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
    the default backend, and core's own tests must keep seeing the reference one. multidevice-tests/ starts its
    CPU backend with eight devices.
    """
    install_editable(session)
    session.install(*TEST_TOOLS)
    targets = [str(folder / "tests") for _, folder in packages()] + ["integration-tests", "multidevice-tests"]
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


def fresh_venv(session: nox.Session, name: str) -> str:
    """A new, empty virtual environment under .nox; returns its python."""
    folder = ROOT / ".nox" / name
    shutil.rmtree(folder, ignore_errors=True)
    session.run("uv", "venv", "-q", "-p", sys.executable, str(folder))
    return str(folder / "bin" / "python")


@nox.session
def wheels(session: nox.Session) -> None:
    """Build the six wheels (hatchling, run by uv) and install from them alone, twice.

    In a fresh venv: the meta-package with its demo extra (jaxle's packages from the built wheels only, third-party
    ones from the index), its dependency ranges checked, every package importable at its own version, and the
    demo's first epoch run. Then the minimal check: jaxle-core alone (with jaxle-tree, without jaxlib) runs a
    transform on the NumPy reference backend.
    """
    session.install("uv")
    dist = ROOT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    for _, folder in packages():
        # Each package builds with its own backend (hatchling); uv runs it in an isolated build env.
        session.run("uv", "build", "--wheel", "-q", "-o", str(dist), str(folder))
    wheel = {name: _wheel_of(dist, name, version(folder)) for name, folder in packages()}
    session.log(f"built: {', '.join(w.name for w in wheel.values())}")

    # Every jaxle package from its wheel file (a direct reference: nothing of jaxle comes from an index or the
    # source tree); third-party dependencies from the index, as wheels.
    python = fresh_venv(session, "wheels-full")
    session.run("uv", "pip", "install", "-q", "-p", python, "--no-build",
                *(f"{name}{'[demo]' if name == 'jaxle' else ''} @ {path.as_uri()}" for name, path in wheel.items()))
    session.run("uv", "pip", "check", "-p", python)
    for name, folder in packages():
        session.run(python, "-c", WHEEL_CHECK.format(dist=name, module=import_name(folder), version=version(folder)),
                    external=True)
    demo = session.run(python, "-m", "jaxle.demo", "--epochs", "1", "--no-progress", "--plot",
                       str(ROOT / ".nox" / "wheels-full" / "jaxle-demo-loss.png"), external=True, silent=True)
    session.log(demo)
    for promise in ("jaxpr of the train step: identical to JAX 0.10.2's", "are equal to JAX 0.10.2's"):
        if promise not in demo:
            session.error(f"the demo from the wheels did not say {promise!r}")

    python = fresh_venv(session, "wheels-minimal")
    session.run("uv", "pip", "install", "-q", "-p", python, "--no-build",
                *(f"{name} @ {wheel[name].as_uri()}" for name in ("jaxle-tree", "jaxle-core")))
    session.run(python, "-c", MINIMAL_CHECK, external=True)


def _wheel_of(dist: Path, name: str, version: str) -> Path:
    """The wheel ``uv build`` wrote for distribution ``name`` at ``version``."""
    (path,) = dist.glob(f"{name.replace('-', '_')}-{version}-*.whl")
    return path


WHEEL_CHECK = """
import importlib, importlib.metadata, pathlib
module = importlib.import_module("{module}")
own = module.version.jaxle_version if module.__name__ == "jaxle" else module.__version__  # jaxle.__version__ is JAX's
assert importlib.metadata.version("{dist}") == own == "{version}", own
assert "site-packages" in pathlib.Path(module.__file__).parts, module.__file__  # the wheel, not the source tree
print("{dist}", own, "from", pathlib.Path(module.__file__).parent)
"""

MINIMAL_CHECK = """
import importlib.util
import numpy as np
import jaxle_core as jc
from jaxle_core import lax
assert importlib.util.find_spec("jaxlib") is None and importlib.util.find_spec("jaxle_xla") is None
f = lambda x: lax.sin(x) * x
x = np.linspace(0.0, 1.0, 5, dtype=np.float32)
g = jc.jit(jc.vmap(jc.grad(f)))(x)
np.testing.assert_allclose(np.asarray(g), np.cos(x) * x + np.sin(x), rtol=1e-6)
print(jc.make_jaxpr(jc.vmap(jc.grad(f)))(x))
print("jaxle-core alone, on the NumPy reference backend: jit(vmap(grad)) gives", g)
"""


@nox.session
def docs(session: nox.Session) -> None:
    """The user guide (mkdocs.yml, docs/) built with mkdocs-material into site/, failing on any warning.

    Its code examples are run by integration-tests/test_docs_examples.py in the tests session.
    """
    session.install("mkdocs-material")
    session.run("mkdocs", "build", "--strict", "--clean", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks of jaxle beside JAX 0.10.2 (in its own venv), printed as a ratio table."""
    install_editable(session)
    peer = ROOT / ".bench" / "jax-peer"
    if not (peer / "bin" / "python").exists():
        session.run("uv", "venv", "-q", "-p", sys.executable, str(peer))
        session.run("uv", "pip", "install", "-q", "-p", str(peer / "bin" / "python"), *JAX_PEER)
    session.run("python", "benchmarks/run.py", "--peer-python", str(peer / "bin" / "python"), *session.posargs)


# Libraries whose own test suites run on jaxle (``import jax`` importing jaxle): the sdist, the pinned packages its
# tests import besides jax (none of which depends on jax, so nothing pulls the real jax in), the pinned packages that
# depend on jax (installed without their dependencies, which the requirements list), the suite's folders in
# the sdist, the test files of the fast subset CI runs, test files left out of every run with the reason, the
# known failures (tests that pass on JAX and not on jaxle, each listed in docs/compat.md) the fast subset leaves out,
# and our own tests of programs written with the library (run after every suite, with the library installed).
CLIENT_LIBRARIES = {
    "optax": {
        "sdist": "optax==0.2.8",
        "requirements": ["absl-py==2.5.1", "scipy==1.17.1", "scikit-learn==1.9.1"],
        "tests": ["optax"],
        "fast": ["optax/_src/base_test.py", "optax/_src/update_test.py", "optax/_src/utils_test.py",
                 "optax/_src/combine_test.py", "optax/_src/transform_test.py", "optax/_src/numerics_test.py",
                 "optax/_src/factorized_test.py", "optax/_src/lookahead_test.py", "optax/schedules",
                 "optax/tree_utils", "optax/losses/_regression_test.py", "optax/losses/_ranking_test.py",
                 "optax/losses/_smoothing_test.py", "optax/transforms/_masking_test.py",
                 "optax/transforms/_combining_test.py", "optax/transforms/_conditionality_test.py",
                 "optax/transforms/_constraining_test.py", "optax/transforms/_monitoring_test.py"],
        "ignore": dict.fromkeys(["optax/_src/linear_algebra_test.py", "optax/transforms/_accumulation_test.py"],
                                "imports flax, which imports JAX's private modules (jax._src.*) throughout"),
        "known": {},
        "programs": "clients/optax",
    },
    "chex": {
        "sdist": "chex==0.1.92",
        "requirements": ["absl-py==2.5.1", "toolz==1.1.0", "dm-tree==0.1.9", "cloudpickle==3.1.3",
                         "typing-extensions==4.16.0"],
        "tests": ["chex"],
        "fast": ["chex/chex_test.py", "chex/_src/warnings_test.py", "chex/_src/restrict_backends_test.py",
                 "chex/_src/dimensions_test.py", "chex/_src/asserts_internal_test.py", "chex/_src/dataclass_test.py",
                 "chex/_src/asserts_chexify_test.py"],
        "ignore": {},
        "known": {},
    },
    "numpyro": {
        "sdist": "numpyro==0.22.0",
        "requirements": ["multipledispatch==1.0.0", "tqdm==4.70.1", "scipy==1.17.1"],
        "tests": ["test"],
        "fast": ["test/test_transforms.py", "test/test_handlers.py", "test/test_distributions_util.py",
                 "test/test_optimizers.py", "test/test_diagnostics.py", "test/test_compile.py"],
        # a representative subset (transforms, handlers, distributions util, optimizers, diagnostics, compile) is
        # the whole run: the rest are inference and distribution sweeps of tens of minutes, or need funsor/flax/tfp
        "ignore": {
            **dict.fromkeys([f"test/{name}" for name in (
                "test_constraints.py", "test_distributions.py", "test_distributions_mixture.py",
                "test_example_utils.py", "test_examples.py", "test_flows.py", "test_gof.py",
                "test_model_rendering.py", "test_nn.py", "test_pickle.py", "test_util.py")],
                "outside the representative subset (inference and distribution sweeps; optional dependencies)"),
        },
    },
    "blackjax": {
        "sdist": "blackjax==1.7.1",
        "requirements": ["absl-py==2.5.1", "scipy==1.17.1", "toolz==1.1.0", "typing-extensions==4.16.0"],
        "without_deps": ["optax==0.2.8", "chex==0.1.92"],
        "tests": ["tests/test_diagnostics.py", "tests/mcmc/test_integrators.py", "tests/mcmc/test_metrics.py",
                  "tests/mcmc/test_trajectory.py", "tests/mcmc/test_proposal.py", "tests/optimizers"],
        "fast": ["tests/mcmc/test_proposal.py", "tests/optimizers/test_pathfinder.py"],
        "ignore": {},
        "known": {},
    },
    # equinox's sdist has no tests: the suite is our own scenarios (clients/equinox), compared with JAX's numbers
    "equinox": {
        "suite": "clients/equinox",
        "requirements": ["jaxtyping==0.3.11", "wadler-lindig==0.1.8", "typing-extensions==4.16.0"],
        "without_deps": ["equinox==0.13.8"],
        "tests": ["test_scenarios.py"],
        "fast": ["test_scenarios.py"],
        "ignore": {},
        "known": {},
    },
}
CLIENT_TEST_TOOLS = ["pytest==9.2.0", "pytest-xdist==3.8.0"]


def _client_suite(session: nox.Session, library: str, peer: bool) -> tuple[Path, list[str]]:
    """Unpack the library's sdist under .clients/ (downloaded once) and install what its tests import; returns the
    unpacked folder and the pytest targets (the fast subset unless ``--full`` is given)."""
    spec = CLIENT_LIBRARIES[library]
    downloads = ROOT / ".clients"
    if "suite" in spec:  # our own tests of the library, in this repository
        folder = ROOT / spec["suite"]
    else:
        name, version = spec["sdist"].split("==")
        folder = downloads / f"{name}-{version}"
    if not folder.exists():
        session.install("pip")
        session.run("python", "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "-d",
                    str(downloads), spec["sdist"])
        shutil.unpack_archive(downloads / f"{name}-{version}.tar.gz", downloads)
    session.install(*CLIENT_TEST_TOOLS, *spec["requirements"], *(JAX_PEER if peer else []))
    if spec.get("without_deps"):
        session.install("--no-deps", *spec["without_deps"])
    full = "--full" in session.posargs or peer
    ignored = [f"--ignore={path}" for path in spec["ignore"]]
    if full:
        return folder, [*ignored, *spec["tests"]]
    return folder, [*ignored, *(f"--deselect={test}" for test in spec.get("known", {})), *spec["fast"]]


@nox.session
def clients(session: nox.Session) -> None:
    """Third-party libraries' own test suites run unmodified on jaxle, their counts printed beside JAX 0.10.2's.

    Each suite runs from its sdist (kept under .clients/) through ``pytest -p jaxle.compat.pytest_plugin``, which
    makes ``import jax`` import jaxle. The session fails when a test that passes on JAX fails on jaxle (the
    baselines, clients/<library>.json, hold every test's outcome on JAX). Positional arguments: ``--full`` runs
    whole suites instead of the fast subset; library names pick libraries.
    """
    chosen = [name for name in CLIENT_LIBRARIES if name in session.posargs] or list(CLIENT_LIBRARIES)
    install_editable(session)
    reports = []
    for library in chosen:
        folder, targets = _client_suite(session, library, peer=False)
        results = ROOT / ".clients" / f"{library}-jaxle.xml"
        session.chdir(folder)
        session.run("python", "-m", "pytest", "-p", "jaxle.compat.pytest_plugin", "-p", "no:cacheprovider", "-q",
                    "-n", "auto", f"--junitxml={results}", *targets, success_codes=[0, 1])
        session.chdir(ROOT)
        reports += [library, str(results)]
    for library in chosen:
        if "programs" in CLIENT_LIBRARIES[library]:
            # our programs written with the library (examples/), whose output is compared with JAX's; last, since
            # installing the library changes what other suites skip (numpyro's optimizer tests need optax)
            session.install("--no-deps", CLIENT_LIBRARIES[library]["sdist"])
            session.run("python", "-m", "pytest", "-p", "no:cacheprovider", "-q", CLIENT_LIBRARIES[library]["programs"])
    session.run("python", "clients/suite_report.py", "compare", *reports)


@nox.session
def clients_baseline(session: nox.Session) -> None:
    """The whole suite of each client library run on JAX 0.10.2 (in this session's own venv), written as its
    baseline clients/<library>.json. Positional arguments pick libraries; test files named by their path in the
    library's sdist (``optax/_src/alias_test.py``) are run instead of the whole suite, one pytest run each, and
    their tests' outcomes replace or join theirs in the baseline."""
    chosen = [name for name in CLIENT_LIBRARIES if name in session.posargs] or list(CLIENT_LIBRARIES)
    files = [arg for arg in session.posargs if "/" in arg]
    for library in chosen:
        folder, targets = _client_suite(session, library, peer=True)
        runs = [[path] for path in files] if files else [targets]
        results = [ROOT / ".clients" / f"{library}-jax-{i}.xml" for i in range(len(runs))]
        session.chdir(folder)
        for run, junit_xml in zip(runs, results):
            session.run("python", "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "auto",
                        f"--junitxml={junit_xml}", *run, success_codes=[0, 1])
        session.chdir(ROOT)
        session.run("python", "clients/suite_report.py", "update" if files else "baseline", library,
                    *map(str, results))
