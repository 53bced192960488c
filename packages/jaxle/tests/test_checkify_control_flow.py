"""``jax.experimental.checkify`` with checks inside ``cond``/``switch``, ``scan``, ``while_loop``/``fori_loop`` and
``checkpoint``, against JAX 0.10.2 (golden/checkify_control_flow_golden.json from
golden/make_checkify_control_flow_golden.py): the message ``error.get()`` gives (the first failure in execution
order, per mapped index under vmap) and the results."""

import json
import pathlib
import sys

import numpy as np
import pytest

import jaxle
from jaxle.experimental import checkify

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_checkify_control_flow_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "checkify_control_flow_golden.json").read_text())


def _assert_matches(got, expected):
    assert got["get"] == expected["get"]
    assert len(got["out"]) == len(expected["out"])
    for ours, theirs in zip(got["out"], expected["out"]):
        np.testing.assert_allclose(np.asarray(ours, float), np.asarray(theirs, float), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_matches_jax(name):
    _assert_matches(golden.run_case(jaxle, name), GOLDEN[name])


@pytest.mark.parametrize("name", sorted({**golden.VMAPPED, **golden.VMAPPED_TWICE}))
def test_vmapped_matches_jax(name):
    got = golden.run_vmapped(jaxle, name)
    _assert_matches(got, GOLDEN[name])
    assert got["throw"] == GOLDEN[name]["throw"]
    assert got["exception"] == GOLDEN[name]["exception"]


@pytest.mark.parametrize("x_check_first", [True, False])
def test_loop_reports_each_checks_first_failure_in_program_order(x_check_first):
    def body(c, x):
        x_check = lambda: checkify.check(x != 2.0, "x check at {}", x)  # noqa: E731
        carry_check = lambda: checkify.check(c < 1.0, "carry check with carry {}", c)  # noqa: E731
        for check in (x_check, carry_check) if x_check_first else (carry_check, x_check):
            check()
        return c + x, None

    def first_failure(xs):
        error, _ = checkify.checkify(lambda v: jaxle.lax.scan(body, 0.0, v))(jaxle.numpy.array(xs))
        return error.get()

    # as JAX 0.10.2: each check keeps its first failing iteration; the report is the first check of the body
    # that failed, whichever failed first in time
    x_message, carry_message = "x check at 2.0 (`check` failed)", "carry check with carry {} (`check` failed)"
    assert first_failure([0.5, 0.75, 1.0, 2.0]) == (x_message if x_check_first else carry_message.format(1.25))
    assert first_failure([2.0, 3.0, 0.0]) == (x_message if x_check_first else carry_message.format(2.0))


def _custom_sin_times():
    @jaxle.custom_jvp
    def f(x):
        checkify.check(x < 1, "small {}", x)
        return jaxle.numpy.sin(x) * x

    f.defjvp(lambda primals, tangents: (f(primals[0]), 5.0 * tangents[0]))
    return f


def test_checks_inside_custom_derivative_functions():
    f = _custom_sin_times()
    error, out = checkify.checkify(f)(jaxle.numpy.float32(3.0))
    assert error.get() == "small 3.0 (`check` failed)" and float(out) == pytest.approx(np.sin(3.0) * 3.0)
    error, slope = checkify.checkify(jaxle.grad(f))(jaxle.numpy.float32(3.0))
    assert error.get() == "small 3.0 (`check` failed)" and float(slope) == 5.0  # the custom rule's derivative


def test_checks_inside_custom_derivatives_under_an_enclosing_grad_are_refused():
    f = _custom_sin_times()
    with pytest.raises(ValueError, match="checkify: jaxle does not support checks inside custom_jvp_call"):
        jaxle.grad(lambda x: checkify.checkify(f)(x)[1])(jaxle.numpy.float32(3.0))
