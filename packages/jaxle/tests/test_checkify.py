"""jax.experimental.checkify against JAX 0.10.2 (golden/checkify_golden.json from golden/make_checkify_golden.py):
the message ``error.get()`` gives and the result, for user, NaN, division and index checks under jit and vmap,
and the errors of checks that are not functionalized."""

import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle
from jaxle.experimental import checkify

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_checkify_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "checkify_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_checkify_golden(name):
    got, expected = golden.run_case(jaxle, name), GOLDEN[name]
    assert got["get"] == expected["get"]
    np.testing.assert_allclose(np.asarray(got["out"], float), np.asarray(expected["out"], float), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(golden.ERROR_CASES))
def test_checkify_errors_golden(name):
    assert golden.run_error_case(jaxle, name) == GOLDEN[name]


def test_errors_are_pytrees_and_throw():
    f = checkify.checkify(lambda x: checkify.check(x > 0, "bad {}", x))
    error, _ = jaxle.jit(f)(jaxle.numpy.float32(-2.0))
    exception = error.get_exception()  # JAX's: an exception of the check's category, not the one throw raises
    assert (type(exception).__name__, str(exception)) == ("FailedCheckError", "bad -2.0 (`check` failed)")
    with pytest.raises(checkify.JaxRuntimeError, match=r"bad -2.0 \(`check` failed\)"):
        checkify.check_error(error)
    assert checkify.init_error.get() is None
    assert checkify.all_checks == checkify.user_checks | checkify.nan_checks | checkify.div_checks | \
        checkify.index_checks
