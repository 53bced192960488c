"""while_loop / fori_loop: values, errors, jaxpr text vs JAX, jvp, linearize/grad errors, vmap, jit."""

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64


def _collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def test_while_values_match_python_loop():
    def f(x):
        return lax.while_loop(lambda c: c[0] < 7, lambda c: (c[0] + 1, c[1] * x + 1.), (0, x))

    i, y = f(np.float32(1.5))
    expected = np.float32(1.5)
    for _ in range(7):
        expected = expected * np.float32(1.5) + 1
    assert int(i) == 7
    np.testing.assert_allclose(np.asarray(y), expected, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jc.jit(f)(np.float32(1.5))[1]), expected, rtol=1e-6)


def test_while_data_dependent_trip_count():
    def steps(n):
        def body(c):
            k, s = c
            return lax.select(k % 2 == 0, k // 2, 3 * k + 1), s + 1
        return lax.while_loop(lambda c: c[0] != 1, body, (n, np.int32(0)))[1]

    for n in [1, 6, 7, 27]:
        assert int(steps(np.int32(n))) == _collatz_steps(n)
    batched = jc.vmap(steps)(np.array([1, 6, 7, 27], np.int32))
    np.testing.assert_array_equal(np.asarray(batched), [_collatz_steps(n) for n in [1, 6, 7, 27]])


def test_fori_loop_static_and_dynamic():
    body = lambda i, c: c * 2. + i  # noqa: E731
    expected = 1.
    for i in range(2, 6):
        expected = expected * 2. + i
    assert float(lax.fori_loop(2, 6, body, 1.)) == expected
    assert float(jc.jit(lambda n: lax.fori_loop(2, n, body, 1.))(6)) == expected
    assert float(lax.fori_loop(6, 2, body, 1.)) == 1.
    assert jc.make_jaxpr(lambda x: lax.fori_loop(0, 3, body, x))(np.float32(1.)).eqns[0].primitive.name == "scan"
    assert jc.make_jaxpr(lambda n: lax.fori_loop(0, n, body, 1.))(3).eqns[0].primitive.name == "while"


def test_errors():
    with pytest.raises(TypeError, match="cond_fun must return a boolean scalar, but got output type"):
        lax.while_loop(lambda c: c, lambda c: c + 1, 0)
    with pytest.raises(TypeError, match=r"but got pytree PyTreeDef\(\(\*, \*\)\)"):
        lax.while_loop(lambda c: (True, True), lambda c: c, 1.)
    with pytest.raises(TypeError, match=r"(?s)while_loop body function carry input and carry output must have equal "
                                        r"types.*c\[1\] has type int32\[\]"):
        lax.while_loop(lambda c: False, lambda c: (c[0], np.float32(1.)), (0, np.int32(1)))
    with pytest.raises(TypeError, match="must have the same pytree structure"):
        lax.while_loop(lambda c: False, lambda c: c[0], (0, 1))


def test_weak_carry_promoted_to_body_dtype():
    out = lax.while_loop(lambda c: False, lambda c: (c[0], c[1] + 1.), (0, 1))
    assert get_dtype(out[1]) == np.float32 and not out[1].weak_type


def get_dtype(x):
    return np.asarray(x).dtype


def test_jvp_matches_finite_differences():
    with enable_x64(True):
        def f(x):
            return lax.while_loop(lambda c: c[1] < 50., lambda c: (c[0] * x, c[1] + c[0] * x), (x, x))[1]

        x, dx, eps = 1.3, 1.0, 1e-6
        y, t = jc.jvp(f, (x,), (dx,))
        fd = (f(x + eps) - f(x - eps)) / (2 * eps)
        np.testing.assert_allclose(float(t), float(fd), rtol=1e-5)
        np.testing.assert_allclose(float(y), float(f(x)))
        # jvp of a batched loop (different trip counts per element)
        xs = np.array([1.1, 1.3, 2.0])
        _, ts = jc.vmap(lambda x: jc.jvp(f, (x,), (1.,)))(xs)
        fds = [(float(f(v + eps)) - float(f(v - eps))) / (2 * eps) for v in xs]
        np.testing.assert_allclose(np.asarray(ts), fds, rtol=1e-5)


def test_reverse_mode_raises_but_linearize_and_counter_loops_work():
    f = lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * x), (0, x))[1]  # noqa: E731
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for lax.while_loop"):
        jc.grad(f)(np.float32(2.))
    # As in JAX, linearize stages the whole loop for the tangents (forward only): x**4 has derivative 4 x**3.
    y, f_lin = jc.linearize(f, np.float32(2.))
    assert (float(y), float(f_lin(np.float32(1.)))) == (16., 32.)
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for lax.while_loop"):
        jc.vjp(f, np.float32(2.))[1](np.float32(1.))
    h = lambda x: lax.while_loop(lambda s: s < 3.0, lambda s: s + 1.0, x)  # noqa: E731  (tangent passed through)
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for lax.while_loop"):
        jc.grad(h)(np.float32(.5))
    g = lambda x: lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1]), (0, x))[1] * x  # noqa: E731
    assert float(jc.grad(g)(np.float32(2.))) == 4.


def test_grad_of_static_fori_loop():
    with enable_x64(True):
        f = lambda x: lax.fori_loop(0, 4, lambda i, c: c * x + i, x)  # noqa: E731
        eps = 1e-6
        fd = (f(1.2 + eps) - f(1.2 - eps)) / (2 * eps)
        np.testing.assert_allclose(float(jc.grad(f)(1.2)), float(fd), rtol=1e-5)


def test_vmap_batched_consts_and_init():
    def f(x, y):
        return lax.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1] * x + y), (0, y))[1]

    xs, ys = np.array([1., 2., 3.], np.float32), np.array([0.5, 1., 2.], np.float32)
    expected = [float(f(x, y)) for x, y in zip(xs, ys)]
    np.testing.assert_allclose(np.asarray(jc.vmap(f)(xs, ys)), expected)
    np.testing.assert_allclose(np.asarray(jc.vmap(f, (0, None))(xs, np.float32(1.))),
                               [float(f(x, np.float32(1.))) for x in xs])
    np.testing.assert_allclose(np.asarray(jc.vmap(f, (None, 0))(np.float32(2.), ys)),
                               [float(f(np.float32(2.), y)) for y in ys])
    np.testing.assert_allclose(np.asarray(jc.jit(jc.vmap(f))(xs, ys)), expected)


def test_vmap_batched_predicate_and_nested():
    def f(limit):
        return lax.while_loop(lambda c: c[1] < limit, lambda c: (c[0] + 1, c[1] * 2.), (0, np.float32(1.)))

    limits = np.array([[1., 3., 100.], [0.5, 9., 17.]], np.float32)
    counts, vals = jc.vmap(jc.vmap(f))(limits)
    for idx in np.ndindex(limits.shape):
        c, v = f(limits[idx])
        assert int(counts[idx]) == int(c) and float(vals[idx]) == float(v)
