"""jaxle_random's samplers given arguments of odd types (dicts, sets, strings, None; dtypes that name no dtype) and
64-bit dtypes with x64 off, against JAX 0.10.2's exceptions and warnings, and the jaxprs of samplers given Python
scalars (golden/random_args_golden.json from
golden/make_random_args_golden.py)."""

import json

import make_random_args_golden as golden  # on the path set by conftest.py
import pytest

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.namespace("jaxle")
WIDE = sorted(name.removeprefix("warn_") for name in GOLDEN if name.startswith("warn_"))
# JAX's multinomial asks for its dtype in its counts' astype, whose warning names a line of JAX's own array methods:
# jaxle's names one of jaxle_numpy's array methods (test_warning_sources.py compares the modules)
WARNS_FROM_LIBRARY = {"multinomial"}


ERROR_CASES = sorted(name for name in GOLDEN if not name.startswith(("warn_", "jaxpr_")))


def test_every_odd_case_jax_refuses_is_recorded():
    assert set(ERROR_CASES) <= set(golden.CASES)
    assert len(WIDE) == len(golden.WIDE_CASES)


@pytest.mark.parametrize("name", sorted(golden.JAXPR_CASES))
def test_jaxpr_of_python_scalar_parameters(name):
    assert golden.run_jaxpr_case(NS, name) == GOLDEN[f"jaxpr_{name}"]


@pytest.mark.parametrize("name", ERROR_CASES)
def test_odd_argument_error(name):
    assert golden.run_case(NS, name) == GOLDEN[name]


@pytest.mark.parametrize("name", WIDE)
def test_wide_dtype_warning_and_error(name):
    got, expected = golden.run_wide_case(NS, name), GOLDEN[f"warn_{name}"]
    if name in WARNS_FROM_LIBRARY:
        assert [w[:2] for w in got["warnings"]] == [w[:2] for w in expected["warnings"]]
        assert not any(w[2] for w in got["warnings"])
        assert got["error"] == expected["error"]
    else:
        assert got == expected
