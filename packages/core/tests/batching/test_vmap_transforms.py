"""``vmap`` composed with ``jit``, the AD transforms and ``checkpoint``: values against per-example loops,
jaxprs against JAX 0.10.2."""

from __future__ import annotations

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.batching import vmap
from jaxle_core.jaxpr_util import check_jaxpr

f32 = np.float32
X = np.linspace(-1, 1, 20, dtype=f32).reshape(5, 4)


def per_example(f, *args):
    return np.stack([np.asarray(f(*a)) for a in zip(*args)])


def test_vmap_of_jit_keeps_the_jit_and_its_batch_dims():
    f = jc.jit(lambda a, b: lax.sin(a) * b)
    np.testing.assert_allclose(vmap(f, in_axes=(1, None))(X, f32(2)), np.sin(X.T) * 2, rtol=1e-6)
    text = str(jc.make_jaxpr(vmap(f, in_axes=(1, None)))(X, f32(2)))
    assert text == ("{ lambda ; a:f32[5,4] b:f32[]. let\n    c:f32[5,4] = jit[\n      name=<lambda>\n"
                    "      jaxpr={ lambda ; a:f32[5,4] b:f32[]. let\n          d:f32[5,4] = sin a\n"
                    "          c:f32[5,4] = mul d b\n        in (c,) }\n    ] a b\n"
                    "    e:f32[4,5] = transpose[permutation=(1, 0)] c\n  in (e,) }")
    out, const = vmap(jc.jit(lambda a: (a, 1.0)))(X[:, 0])
    np.testing.assert_allclose(const, np.ones(5))


def test_per_example_gradients_and_gradient_of_vmap():
    def f(a):
        return lax.sin(a) * a

    grads = vmap(jc.grad(f))(X[:, 0])
    np.testing.assert_allclose(grads, np.sin(X[:, 0]) + X[:, 0] * np.cos(X[:, 0]), rtol=1e-6)
    g = jc.grad(lambda x: lax.reduce_sum(vmap(f)(x), (0,)))(X[:, 0])
    np.testing.assert_allclose(g, grads, rtol=1e-6)
    text = str(jc.make_jaxpr(vmap(jc.grad(f)))(X[:, 0]))
    assert text.splitlines()[-2].strip() == "g:f32[5] = add_any d f"

    def loss(w, x):
        return lax.tanh(w * x) * 2.0

    per = vmap(jc.grad(loss), in_axes=(None, 0))(f32(0.3), X[:, 1])
    np.testing.assert_allclose(per, per_example(lambda x: jc.grad(loss)(f32(0.3), x), X[:, 1]), rtol=1e-6)


def test_vmap_of_jvp_and_jit_of_vmap():
    _, tangents = vmap(lambda x, t: jc.jvp(lax.exp, (x,), (t,)))(X, np.ones_like(X))
    np.testing.assert_allclose(tangents, np.exp(X), rtol=1e-6)
    np.testing.assert_allclose(jc.jit(vmap(lambda x: lax.cos(x) + 1.0))(X), np.cos(X) + 1, rtol=1e-6)


def test_vmap_of_checkpoint_and_its_gradient():
    f = jc.checkpoint(lambda a: lax.sin(lax.sin(a)))
    np.testing.assert_allclose(vmap(f)(X), np.sin(np.sin(X)), rtol=1e-6)
    grads = vmap(jc.grad(f))(X[:, 0])
    np.testing.assert_allclose(grads, np.cos(np.sin(X[:, 0])) * np.cos(X[:, 0]), rtol=1e-6)


@pytest.mark.parametrize("name", ["cumprod", "cummax", "cummin", "cumlogsumexp"])
@pytest.mark.parametrize("reverse", [False, True])
def test_vmap_of_grad_of_cumulative_scans_matches_a_loop(name, reverse):
    # The gradients add an unbatched tangent to a batched one: both must be brought to one type.
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4) / 5
    f = jc.grad(lambda v: lax.reduce_sum(getattr(lax, name)(v, 0, reverse=reverse), (0,)))
    batched = vmap(f, in_axes=1, out_axes=1)(x)
    check_jaxpr(jc.make_jaxpr(vmap(f, in_axes=1, out_axes=1))(x))
    looped = np.stack([np.asarray(f(x[:, j])) for j in range(4)], axis=1)
    np.testing.assert_allclose(np.asarray(batched), looped, rtol=1e-6)
