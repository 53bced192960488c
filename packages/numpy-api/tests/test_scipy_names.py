"""Every public name of JAX 0.10.2's ``jax.scipy.special`` and ``jax.scipy.stats`` (and every function of each
stats distribution module) exists in ``jaxle_numpy.scipy`` with JAX's signature.

The lists are data generated from JAX (golden/make_scipy_names.py: scipy_names.json).
"""

import inspect
import json
import pathlib

import pytest

from jaxle_numpy.scipy import special, stats

NAMES = json.loads((pathlib.Path(__file__).parent / "golden" / "scipy_names.json").read_text())

# Names still to come; each says why it waits. The sets shrink as the names land.
LATER_SPECIAL: dict[str, str] = {}
LATER_STATS: dict[str, str] = {}


def _signature(fun) -> list:
    return [[p.name, p.kind.name, "-" if p.default is p.empty else repr(p.default)]
            for p in inspect.signature(fun).parameters.values()]


def _check(namespace, name: str, expected) -> None:
    assert hasattr(namespace, name), f"{namespace.__name__} lacks {name}"
    value = getattr(namespace, name)
    if expected == "module":
        assert inspect.ismodule(value)
    elif expected == "class":
        assert inspect.isclass(value)
    else:
        assert callable(value) and not inspect.isclass(value)
        assert _signature(value) == expected, name


@pytest.mark.parametrize("name", sorted(set(NAMES["special"]) - set(LATER_SPECIAL)))
def test_special_has_name(name):
    _check(special, name, NAMES["special"][name])


@pytest.mark.parametrize("name", sorted(set(NAMES["stats"]) - set(LATER_STATS)))
def test_stats_has_name(name):
    _check(stats, name, NAMES["stats"][name])
    for function, expected in NAMES["stats_modules"].get(name, {}).items():
        _check(getattr(stats, name), function, expected)


def test_later_names_leave_the_lists_once_they_land():
    assert set(LATER_SPECIAL) <= set(NAMES["special"]) and set(LATER_STATS) <= set(NAMES["stats"])
    for namespace, later in ((special, LATER_SPECIAL), (stats, LATER_STATS)):
        for name in later:
            assert not hasattr(namespace, name), f"{name} has landed: remove it from LATER"
