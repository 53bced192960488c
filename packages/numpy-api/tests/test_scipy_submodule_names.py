"""Every public name of JAX 0.10.2's ``jax.scipy`` submodules beyond special and stats (linalg, signal, optimize,
ndimage, integrate, interpolate, fft, cluster, cluster.vq, sparse, sparse.linalg) exists in ``jaxle_numpy.scipy``
with JAX's signature.

The lists are data generated from JAX (golden/make_scipy_submodule_names.py: scipy_submodule_names.json).
"""

import importlib
import json
import pathlib

import pytest
from test_scipy_names import _check

NAMES = json.loads((pathlib.Path(__file__).parent / "golden" / "scipy_submodule_names.json").read_text())

# Names still to come, per submodule; each says why it waits. The sets shrink as the names land.
LATER: dict[str, dict[str, str]] = {
}


def _module(submodule: str):
    return importlib.import_module(f"jaxle_numpy.scipy.{submodule}")


@pytest.mark.parametrize("submodule,name", [(sub, name) for sub, names in sorted(NAMES.items())
                                            for name in sorted(set(names) - set(LATER.get(sub, {})))])
def test_submodule_has_name(submodule, name):
    _check(_module(submodule), name, NAMES[submodule][name])


def test_later_names_leave_the_lists_once_they_land():
    for submodule, later in LATER.items():
        assert set(later) <= set(NAMES[submodule])
        try:
            module = _module(submodule)
        except ImportError:
            continue
        for name in later:
            assert not hasattr(module, name), f"{submodule}.{name} has landed: remove it from LATER"
