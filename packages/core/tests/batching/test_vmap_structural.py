"""``vmap`` of the structural, reduction, cumulative and sorting primitives: values against per-example loops,
jaxprs against JAX 0.10.2."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import GOLDEN_DIR
from make_vmap_structural_golden import arr, binary_cases, render, unary_cases

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.batching import vmap

f32 = np.float32
UNARY = {name: (fn, shape) for name, fn, shape in unary_cases(lax)}
BINARY = {name: (fn, shapes) for name, fn, shapes in binary_cases(lax)}


def as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def check_batched(f, in_axes, *args, rtol=1e-6, atol=1e-6):
    """``vmap(f, in_axes)`` equals ``f`` applied to each example and stacked along axis 0 (each output)."""
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    per_example = [as_tuple(f(*[a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)]))
                   for i in range(size)]
    outs = as_tuple(vmap(f, in_axes=in_axes)(*args))
    assert len(outs) == len(per_example[0])
    for k, out in enumerate(outs):
        expected = np.stack([np.asarray(ex[k]) for ex in per_example])
        out = np.asarray(out)
        assert out.shape == expected.shape and out.dtype == expected.dtype
        np.testing.assert_allclose(out, expected, rtol=rtol, atol=atol)


def batched(shape, axis, size):
    shape = tuple(shape)
    return arr(*(shape[:axis] + (size,) + shape[axis:]))


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("size", [1, 3])
def test_unary_values(name, axis, size):
    fn, shape = UNARY[name]
    x = batched(shape, axis % (len(shape) + 1), size)
    check_batched(fn, (axis,), x)


BINARY_AXES = [(0, 0), (1, 0), (0, None), (None, 0), (1, None), (None, 1), (2, 0)]


@pytest.mark.parametrize(("name", "in_axes"), [
    (name, in_axes) for name in sorted(BINARY) for in_axes in BINARY_AXES
    if all(ax is None or ax <= len(s) for ax, s in zip(in_axes, BINARY[name][1]))])  # axes within each rank
def test_binary_values(name, in_axes):
    fn, shapes = BINARY[name]
    args = [arr(*s) if ax is None else batched(s, ax, 3) for s, ax in zip(shapes, in_axes)]
    check_batched(fn, in_axes, *args)


@pytest.mark.parametrize("shape", [(5,), (2, 3), (2, 1, 4)])
@pytest.mark.parametrize("axis", [0, 1])
def test_shapes_of_several_ranks(shape, axis):
    x = batched(shape, axis, 2)
    nd = len(shape)
    check_batched(lambda a: lax.transpose(a, tuple(reversed(range(nd)))), (axis,), x)
    check_batched(lambda a: lax.reshape(a, (int(np.prod(shape)),)), (axis,), x)
    check_batched(lambda a: lax.rev(a, (nd - 1,)), (axis,), x)
    check_batched(lambda a: lax.reduce_sum(a, (nd - 1,)), (axis,), x)
    check_batched(lambda a: lax.argmax(a, 0, np.int32), (axis,), x)
    check_batched(lambda a: lax.cumsum(a, nd - 1), (axis,), x)
    check_batched(lambda a: lax.sort(a, dimension=0), (axis,), x)
    check_batched(lambda a: lax.top_k(a, 1, axis=nd - 1), (axis,), x)
    check_batched(lambda a: lax.pad(a, f32(-1), ((1, 1, 1),) * nd), (axis,), x)
    check_batched(lambda a: lax.broadcast_in_dim(a, (2,) + shape, tuple(range(1, nd + 1))), (axis,), x)


def test_pad_value_batched_with_interior_and_negative_padding():
    x, v = arr(3, 2, 4), arr(2)
    config = ((-1, 2, 2), (1, -1, 0))
    check_batched(lambda a, b: lax.pad(a, b, config), (1, 0), x, v)
    check_batched(lambda a, b: lax.pad(a, b, config), (None, 0), arr(3, 4), v)


def test_bitcast_widening_with_batch_dimension_last():
    # JAX 0.10.2 fails here (the widening consumes the batch dimension); jaxle moves the batch dimension first.
    x = np.arange(12, dtype=np.int16).reshape(3, 2, 2)
    check_batched(lambda a: lax.bitcast_convert_type(a, np.int32), (2,), x)
    check_batched(lambda a: lax.bitcast_convert_type(a, np.int32), (0,), x)
    check_batched(lambda a: lax.bitcast_convert_type(a, np.int8), (1,), x)


def test_iota_is_unbatched():
    out = vmap(lambda x: x + lax.iota(np.float32, 4))(arr(3, 4))
    np.testing.assert_array_equal(np.asarray(out), arr(3, 4) + np.arange(4, dtype=f32))


def test_out_axes_and_nested_vmap():
    x = arr(2, 3, 4)
    out = vmap(lambda a: lax.reduce_max(a, (0,)), in_axes=1, out_axes=1)(x)
    np.testing.assert_array_equal(np.asarray(out), x.max(axis=0).T)
    nested = vmap(vmap(lambda a: lax.cumsum(lax.rev(a, (0,)), 0)), in_axes=2)(arr(3, 4, 5))
    expected = np.stack([np.stack([np.cumsum(arr(3, 4, 5)[i, :, j][::-1]) for i in range(3)]) for j in range(5)])
    np.testing.assert_allclose(np.asarray(nested), expected, rtol=1e-6)


def test_sort_multi_operand_num_keys():
    keys = np.array([[1, 0, 1, 0], [2, 2, 1, 1]], np.int32)
    seconds = arr(2, 4)
    payload = np.arange(8, dtype=np.int32).reshape(2, 4)
    check_batched(lambda k, s, p: lax.sort((k, s, p), dimension=0, num_keys=2), (0, 0, None), keys, seconds,
                  payload[0])
    check_batched(lambda k, s, p: lax.sort((k, s, p), dimension=0, num_keys=1), (1, None, 0),
                  keys.T.copy(), seconds[0], payload)


def test_reduce_with_batched_init_value_is_not_implemented():
    with pytest.raises(NotImplementedError):
        vmap(lambda x, i: lax.reduce(x, i, lax.add, (0,)))(arr(2, 3), arr(2))


def test_grad_through_batched_structural_ops():
    f = vmap(jc.grad(lambda a: lax.reduce_sum(lax.cumsum(lax.transpose(a, (1, 0)), 0), (0, 1))))
    out = np.asarray(f(arr(2, 3, 4)))
    expected = np.broadcast_to(np.arange(4, 0, -1, dtype=f32)[:, None], (4, 3)).T
    np.testing.assert_allclose(out, np.broadcast_to(expected, (2, 3, 4)))


def test_jaxprs_match_jax():
    with open(GOLDEN_DIR / "vmap_structural_golden.json") as f:
        golden = json.load(f)
    ours = render("jaxle_core")
    assert set(ours) == set(golden)
    for name, text in golden.items():
        assert ours[name] == text, name
