"""``pmap`` on the reference backend (one device): JAX 0.10.2's staging (a ``jit`` named ``_fun`` around a
``shard_map`` over a one-axis mesh, the mapped axis squeezed in the body and put back on the results), its values
against NumPy, and its errors. On eight XLA devices: multidevice-tests/test_pmap.py."""

import numpy as np
import pytest

from jaxle_core import grad, lax, make_jaxpr, pmap, vmap

X = np.arange(6.0, dtype=np.float32).reshape(1, 6)


def test_pmap_stages_a_jit_around_a_shard_map():
    text = str(make_jaxpr(pmap(lambda v: lax.psum(v, "i") * 2.0, axis_name="i"))(X))
    for line in ("name=_fun", "check_vma=False", "in_specs=(P('i',),)", "jaxpr={ lambda ; c:f32[1,6]. let",
                 "d:f32[6] = squeeze[dimensions=(0,)] c", "psum[axes=('i',) axis_index_groups=None] d",
                 "broadcast_in_dim[broadcast_dimensions=(1,)]", "newly_manual_axes=frozenset({'i'})",
                 "out_specs=(P('i',),)"):
        assert line in text, (line, text)
    unnamed = str(make_jaxpr(pmap(lambda v: v))(X))
    assert "mesh=Mesh('_internal_pmap_axis_name': 1, axis_types=(Auto,))" in unnamed


def test_pmap_values_and_gradients_on_one_device():
    f = pmap(lambda v, w: lax.sin(v) * w + lax.axis_index("i"), axis_name="i", in_axes=(0, None))
    np.testing.assert_allclose(np.asarray(f(X, np.float32(2))), np.sin(X) * 2, rtol=1e-6)
    g = grad(lambda x: lax.reduce_sum(f(x, np.float32(2)), (0, 1)))(X)
    np.testing.assert_allclose(np.asarray(g), np.cos(X) * 2, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(vmap(f, in_axes=(0, None))(np.stack([X, X]), np.float32(1))),
                               np.stack([np.sin(X)] * 2), rtol=1e-6)


def test_out_axes_place_the_mapped_axis():
    f = pmap(lambda v: (v, v), in_axes=1, out_axes=(1, None))
    x = np.ones((3, 1), np.float32)
    stacked, first = f(x)
    assert np.asarray(stacked).shape == (3, 1) and np.asarray(first).shape == (3,)


def test_errors():
    with pytest.raises(ValueError, match="pmap requires at least one argument with a mapped axis."):
        pmap(lambda v: v, in_axes=None)(X)
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out which has size not equal to one"):
        pmap(lambda v: v)(np.ones((2, 3), np.float32))  # two slices, one device (as JAX on one device)


def test_pmap_arguments_holding_none_and_out_axes_given_as_lists():
    # None is an empty subtree of the arguments, not a leaf with an axis; a list prefix of out_axes hashes
    f = pmap(lambda d: [d[1][0] * 2.0, d[1][0]], in_axes=((None, (0,)),), out_axes=[0, None])
    doubled, first = f((None, (X,)))
    np.testing.assert_allclose(np.asarray(doubled), X * 2)
    np.testing.assert_allclose(np.asarray(first), X[0])
