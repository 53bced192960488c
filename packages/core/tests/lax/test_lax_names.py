"""Every public name of JAX 0.10.2's ``jax.lax`` and ``jax.lax.linalg`` exists in ``jaxle_core.lax`` and
``jaxle_core.lax.linalg``, as the same kind of object.

The lists are data generated from JAX (golden/make_lax_names.py, golden/lax_names.json, lax_linalg_names.json).
"""

import inspect
import json
import pathlib

import pytest

from jaxle_core import lax
from jaxle_core.core import Primitive

GOLDEN = pathlib.Path(__file__).parents[1] / "golden"
NAMES = json.loads((GOLDEN / "lax_names.json").read_text())
LINALG_NAMES = json.loads((GOLDEN / "lax_linalg_names.json").read_text())

# Names whose whole subsystem is planned as its own piece of work; each says where it will live.
LATER: dict[str, str] = {}

LINALG_LATER: dict[str, str] = {}


def _assert_same_kind(namespace, name, expected):
    assert hasattr(namespace, name), f"{namespace.__name__} lacks {name}"
    value = getattr(namespace, name)
    if expected == "primitive":
        assert isinstance(value, Primitive)
    elif expected == "class":
        assert inspect.isclass(value)
    elif expected == "function":
        assert callable(value)


@pytest.mark.parametrize("name", sorted(set(NAMES) - set(LATER)))
def test_lax_has_name(name):
    _assert_same_kind(lax, name, NAMES[name])


@pytest.mark.parametrize("name", sorted(set(LINALG_NAMES) - set(LINALG_LATER)))
def test_lax_linalg_has_name(name):
    _assert_same_kind(lax.linalg, name, LINALG_NAMES[name])


@pytest.mark.parametrize(("namespace", "names", "later"),
                         [(lax, NAMES, LATER), (lax.linalg, LINALG_NAMES, LINALG_LATER)])
def test_later_names_leave_the_list_once_they_land(namespace, names, later):
    """A name listed as later must leave the list once it lands, so the list cannot hide a finished name."""
    assert set(later) <= set(names)
    for name in later:
        assert not hasattr(namespace, name), f"{name} has landed: remove it from the later list"


def test_linalg_names_stay_in_their_namespace():
    """As in JAX, the linear-algebra functions are reached through ``lax.linalg``, not ``lax`` itself."""
    assert not any(hasattr(lax, name) for name in ["cholesky", "lu", "qr", "triangular_solve"])
