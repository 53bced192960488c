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


def test_reference_backend_refuses_to_compile_or_lower_key_reuse_effects():
    """``consume`` and ``assert_consumed`` stage effects XLA cannot lower: the reference backend, which lowers
    nothing, refuses a program staging them when it compiles or lowers it, with JAX's error."""
    from jaxle_core.backend import use_backend

    with use_backend("reference"):
        outcomes = golden.cases(jaxle)
    for name in ("jit_consume", "jit_assert", "lower_consume"):
        assert outcomes[name] == GOLDEN[name], name


def test_error_with_source_traceback_is_caused_by_the_first_use():
    """Given where the key was first used (a Python traceback, or an object giving one as JAX's tracebacks do), the
    error is caused by one carrying that traceback, with the checker's words for it."""
    from jaxle.experimental.key_reuse._core import key_reuse_error_with_source_traceback

    try:
        raise RuntimeError("first use")
    except RuntimeError as error:
        first_use = error.__traceback__

    class SourceTraceback:
        def as_python_traceback(self):
            return first_use

    for where in (first_use, SourceTraceback()):
        error = key_reuse_error_with_source_traceback("reused", where)
        assert str(error).startswith("reused\n") and type(error) is jaxle.errors.KeyReuseError
        assert error.__cause__.__traceback__ is first_use
        assert str(error.__cause__).startswith("PRNG key first used at the above location was subsequently reused "
                                               "at the following location:")
