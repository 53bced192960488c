"""Each package carries its own version, and every dependency range between jaxle's packages admits the version
of the package it names, so the wheels install together (the meta-package's ranges above all)."""

import importlib
import pathlib

import pytest
import tomllib
from packaging.requirements import Requirement
from packaging.version import Version

PACKAGES = pathlib.Path(__file__).parents[2]
PROJECTS = {project["name"]: (folder, project) for folder in sorted(PACKAGES.iterdir())
            if (folder / "pyproject.toml").exists()
            for project in [tomllib.loads((folder / "pyproject.toml").read_text())["project"]]}
LOCAL_REQUIREMENTS = [(name, requirement) for name, (_, project) in PROJECTS.items()
                      for requirement in map(Requirement, project.get("dependencies", []))
                      if requirement.name in PROJECTS]


def _import_name(folder: pathlib.Path) -> str:
    (package,) = [p.name for p in (folder / "src").iterdir() if (p / "__init__.py").exists()]
    return package


def test_the_six_packages():
    assert set(PROJECTS) == {"jaxle", "jaxle-tree", "jaxle-core", "jaxle-xla", "jaxle-numpy", "jaxle-random"}


def test_the_meta_package_requires_every_other_package():
    required = {requirement.name for name, requirement in LOCAL_REQUIREMENTS if name == "jaxle"}
    assert required == set(PROJECTS) - {"jaxle"}


def _own_version(module) -> str:
    """The package's own release: ``__version__``, except for ``jaxle``, whose ``__version__`` is JAX's."""
    return module.version.jaxle_version if module.__name__ == "jaxle" else module.__version__


@pytest.mark.parametrize("name", sorted(PROJECTS))
def test_module_version_is_the_pyproject_version(name):
    folder, project = PROJECTS[name]
    assert _own_version(importlib.import_module(_import_name(folder))) == project["version"]


def test_jaxle_reports_the_jax_version_it_implements():
    import jaxle

    assert jaxle.__version__ == jaxle.version.__version__ == "0.10.2"
    assert jaxle.__version_info__ == jaxle.version.__version_info__ == (0, 10, 2)
    assert jaxle.version.jaxle_version_info == tuple(map(int, jaxle.version.jaxle_version.split(".")))


@pytest.mark.parametrize("name,requirement", LOCAL_REQUIREMENTS, ids=[f"{n}->{r}" for n, r in LOCAL_REQUIREMENTS])
def test_dependency_range_admits_the_local_version(name, requirement):
    version = Version(PROJECTS[requirement.name][1]["version"])
    assert requirement.specifier.contains(version), f"{name} requires {requirement}, but the package is {version}"
    # An upper bound keeps a future incompatible release of one package out of an older meta-package.
    assert any(spec.operator in ("<", "<=", "==", "~=") for spec in requirement.specifier), \
        f"{name}'s requirement {requirement} has no upper bound"
