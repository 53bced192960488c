"""Lowering of while_loop / fori_loop to stablehlo.while, compared with core's reference."""

import numpy as np
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax


def _loop(x, y):
    return lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * x + y), (0, y))


def test_while_with_consts():
    check_against_reference(_loop, np.float32(1.5), np.array([0.5, -2., 3.], np.float32))


def test_dynamic_fori_and_integer_carry():
    check_against_reference(lambda n, x: lax.fori_loop(0, n, lambda i, c: c * 2 + i, x),
                            np.int32(6), np.array([1, -3], np.int32))


def test_batched_predicate():
    def f(limits):
        return jc.vmap(lambda lim: lax.while_loop(lambda c: c[1] < lim, lambda c: (c[0] + 1, c[1] * 2.),
                                                  (0, np.float32(1.))))(limits)

    check_against_reference(f, np.array([0.5, 3., 100., 17.], np.float32))


def test_jvp_of_while_jitted():
    f = lambda x: jc.jvp(lambda v: _loop(v, v)[1], (x,), (x * 0. + 1.,))  # noqa: E731
    check_against_reference(f, np.array([0.5, 1.1], np.float32), rtol=1e-5)
