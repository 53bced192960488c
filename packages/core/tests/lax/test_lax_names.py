"""Every public name of JAX 0.10.2's ``jax.lax`` exists in ``jaxle_core.lax``, as the same kind of object.

The list is data generated from JAX (golden/make_lax_names.py, golden/lax_names.json).
"""

import inspect
import json
import pathlib

import pytest

from jaxle_core import lax
from jaxle_core.core import Primitive

NAMES = json.loads((pathlib.Path(__file__).parents[1] / "golden" / "lax_names.json").read_text())

# Names whose whole subsystem is planned as its own piece of work; each says where it will live.
LATER = {
    "linalg": "the linear-algebra primitives (cholesky, qr, eigh, svd, ...) are built with the LAPACK bridge",
}


@pytest.mark.parametrize("name", sorted(set(NAMES) - set(LATER)))
def test_lax_has_name(name):
    assert hasattr(lax, name), f"jaxle_core.lax lacks {name}"
    value = getattr(lax, name)
    expected = NAMES[name]
    if expected == "primitive":
        assert isinstance(value, Primitive)
    elif expected == "class":
        assert inspect.isclass(value)
    elif expected == "function":
        assert callable(value)


def test_later_names_leave_the_list_once_they_land():
    """A name listed as later must leave the list once it lands, so the list cannot hide a finished name."""
    assert set(LATER) <= set(NAMES)
    for name in LATER:
        assert not hasattr(lax, name), f"{name} has landed: remove it from LATER"
