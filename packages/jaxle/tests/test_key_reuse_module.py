"""jax.experimental.key_reuse against JAX 0.10.2 (golden/key_reuse_module_golden.json from
golden/make_key_reuse_module_golden.py): the package has no public names, and its ``_core`` checks a function or a
jaxpr for keys used twice as JAX's does, with the same errors."""

import json
import pathlib
import sys

import pytest

import jaxle

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_key_reuse_module_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "key_reuse_module_golden.json").read_text())


@pytest.fixture(scope="module")
def outcomes():
    return golden.cases(jaxle)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_key_reuse_module_golden(outcomes, name):
    assert outcomes[name] == GOLDEN[name]


def test_checks_do_not_turn_the_flag_on():
    from jaxle.experimental.key_reuse._core import check_key_reuse

    key = jaxle.random.key(0)
    with pytest.raises(jaxle.errors.KeyReuseError):
        check_key_reuse(lambda k: (jaxle.random.normal(k), jaxle.random.normal(k)), key)
    assert not jaxle.config.jax_debug_key_reuse
    jaxle.random.normal(key), jaxle.random.normal(key)  # eager reuse stays unchecked with the flag off
