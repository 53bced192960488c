"""``vmap``'s argument handling and errors (JAX's), and elementwise batching against NumPy and JAX's jaxprs."""

from __future__ import annotations

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.batching import vmap

f32 = np.float32
X = np.arange(20, dtype=f32).reshape(5, 4)


def test_elementwise_over_axes_and_unmapped_arguments():
    np.testing.assert_allclose(vmap(lambda x: lax.sin(x) * 2.0)(X), np.sin(X) * 2)
    np.testing.assert_allclose(vmap(lambda x, y: x + y, in_axes=(0, 1))(X, X.T), 2 * X)
    np.testing.assert_allclose(vmap(lambda x, y: x * y, in_axes=(0, None))(X, X[0]), X * X[0])
    np.testing.assert_allclose(vmap(lambda x, y: x * y, in_axes=(1, -1))(X, X), (X * X).T)
    np.testing.assert_allclose(vmap(lambda x: x, out_axes=1)(X), X.T)
    np.testing.assert_allclose(vmap(lambda x: x, in_axes=1, out_axes=-1)(X), X)
    np.testing.assert_allclose(vmap(lambda x: 1.0, axis_size=3)(X[:3]), np.ones(3))
    np.testing.assert_allclose(vmap(lambda x, y: y, in_axes=(0, None))(X, np.ones(2, f32)), np.ones((5, 2)))


def test_pytrees_prefixes_keywords_and_nesting():
    params = {"a": X, "b": X[0]}
    out = vmap(lambda p, s: {"sum": p["a"] + p["b"], "scale": s * 2.0},
               in_axes=({"a": 0, "b": None}, 0), out_axes={"sum": 1, "scale": 0})(params, X[:, 0])
    np.testing.assert_allclose(out["sum"], (X + X[0]).T)
    np.testing.assert_allclose(out["scale"], X[:, 0] * 2)
    np.testing.assert_allclose(vmap(lambda x, *, y: x - y)(X, y=X), np.zeros_like(X))
    outer = vmap(vmap(lambda a, b: a * b, in_axes=(0, None)), in_axes=(None, 0))(X[0], X[:, 0])
    np.testing.assert_allclose(outer, np.outer(X[:, 0], X[0]))


def test_none_arguments_and_results_are_empty_subtrees():
    # A None in the arguments or results holds no array, so it takes no axis, even where its axis spec is None
    # beside an array's (as JAX: equinox's filter_vmap passes its static parts as None).
    np.testing.assert_allclose(vmap(lambda ab: ab[1] * 2.0, in_axes=((None, 0),))((None, X[:, 0])), X[:, 0] * 2)
    none, mapped, unmapped = vmap(lambda x: (None, x, f32(1.0)), out_axes=(0, 0, None))(X[:, 0])
    assert none is None and float(unmapped) == 1.0
    np.testing.assert_allclose(mapped, X[:, 0])


def test_jaxprs_as_jax():
    text = str(jc.make_jaxpr(vmap(lambda x, y: x * y, in_axes=(0, None)))(X, X[0]))
    assert text == ("{ lambda ; a:f32[5,4] b:f32[4]. let\n"
                    "    c:f32[1,4] = broadcast_in_dim[broadcast_dimensions=(np.int64(1),)] b\n"
                    "    d:f32[5,4] = mul a c\n  in (d,) }")
    text = str(jc.make_jaxpr(vmap(lambda x, y: x + y, in_axes=(0, 1)))(X, X.T))
    assert text == ("{ lambda ; a:f32[5,4] b:f32[4,5]. let\n    c:f32[5,4] = transpose[permutation=(1, 0)] b\n"
                    "    d:f32[5,4] = add a c\n  in (d,) }")


def test_errors():
    with pytest.raises(ValueError, match="vmap got inconsistent sizes for array axes to be mapped:\n  \\* one axis had "
                                         "size 3: axis 0 of argument x of type float32\\[3\\];\n  \\* one axis had "
                                         "size 4: axis 0 of argument y of type float32\\[4\\]"):
        vmap(lambda x, y: x + y)(np.ones(3, f32), np.ones(4, f32))
    with pytest.raises(ValueError, match="map its argument along axis 2, which implies that its rank should be at "
                                         "least 3, but is only 2"):
        vmap(lambda x: x, in_axes=2)(X)
    with pytest.raises(ValueError, match="vmap must have at least one non-None value in in_axes"):
        vmap(lambda x: x, in_axes=None)(X)
    with pytest.raises(ValueError, match="at vmap out_axes, got axis spec None but output was batched on axis 0"):
        vmap(lambda x: x, out_axes=None)(X)
    # JAX 0.10.2 names the output by its path in the outputs
    with pytest.raises(ValueError, match="at vmap out_axes\\[0\\], got axis spec None but output was batched"):
        vmap(lambda x: (x, x), out_axes=(None, 0))(X)
    with pytest.raises(ValueError, match="at vmap out_axes\\['b'\\]\\[1\\], got axis spec None"):
        vmap(lambda x: {"b": (1.0, x)}, out_axes={"b": None})(X)
    with pytest.raises(ValueError, match="len\\(in_axes\\)=2, len\\(args\\)=1"):
        vmap(lambda x: x, in_axes=(0, 0))(X)
    with pytest.raises(ValueError, match="axis 3 is out of bounds for array of dimension 2"):
        vmap(lambda x: x, out_axes=3)(X)
    with pytest.raises(ValueError, match="the `axis_size` argument was 3"):
        vmap(lambda x: x, axis_size=3)(X)
    with pytest.raises(TypeError, match="Expected a callable value"):
        vmap(3)
