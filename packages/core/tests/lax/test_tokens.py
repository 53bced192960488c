"""lax tokens: jaxprs (Tok), transformations and errors against JAX 0.10.2 goldens, and eager evaluation."""

import importlib

import pytest

import jaxle_core
from jaxle_core import lax

GOLDEN_GEN = importlib.import_module("make_tokens_golden")
SHARED = importlib.import_module("make_reductions_golden")
GOLDEN = SHARED.load_suite("tokens")[1]
JAXPRS = dict((name, (fn, args)) for name, fn, args in GOLDEN_GEN.jaxprs(jaxle_core, lax))


@pytest.mark.parametrize("name", sorted(JAXPRS))
def test_jaxprs_match_jax(name):
    fn, args = JAXPRS[name]
    assert str(jaxle_core.make_jaxpr(fn)(*args)) == GOLDEN["jaxprs"][name]


def test_errors_match_jax():
    assert GOLDEN_GEN.errors(jaxle_core, lax) == GOLDEN["errors"]


def test_eager_tokens_are_host_values():
    token = lax.after_all(lax.create_token(), lax.create_token())
    assert isinstance(token, lax.tokens.Token)
    assert str(jaxle_core.typeof(token)) == "Tok"
    assert isinstance(jaxle_core.jit(lambda t: lax.after_all(t))(token), lax.tokens.Token)
