"""``vmap`` through mutable array references: jaxprs, values and errors against JAX 0.10.2 goldens, and a check
against running each batch element alone."""

import importlib

import numpy as np
import pytest
from make_refs_golden import assert_record_matches

import jaxle_core
from jaxle_core.lax import refs

GEN = importlib.import_module("make_refs_vmap_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("refs_vmap")[1]
M = GEN.namespace(jaxle_core, refs.new_ref, refs.freeze, refs)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert_record_matches(GEN.run_case(M, name), GOLDEN[name], rtol=1e-6)


def test_vmap_equals_a_loop_over_the_batch():
    def f(y, i):
        r = refs.new_ref(y)
        r[i] = r[i] * 2.0 + y[0]
        refs.addupdate(r, (slice(1, None),), np.ones(2, np.float32))
        return refs.freeze(r), r[i]

    ys = np.arange(9, dtype=np.float32).reshape(3, 3)
    idx = np.array([2, 0, 1], np.int32)
    batched = jaxle_core.vmap(f)(ys, idx)
    for k in range(3):
        alone = f(ys[k], idx[k])
        for b, a in zip(batched, alone):
            np.testing.assert_allclose(np.asarray(b)[k], np.asarray(a))


def _loop(f, in_axes, args):
    """``f`` run on each batch element alone: the outputs stacked along a new first axis."""
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    runs = [f(*[a if ax is None else np.take(a, k, axis=ax) for a, ax in zip(args, in_axes)]) for k in range(size)]
    return [np.stack([np.asarray(run[j]) for run in runs]) for j in range(len(runs[0]))]


def _reads(y, i):
    r = refs.new_ref(y)
    return r[i], r[0, i], r[i, 1:], r[:, i], r[refs.ds(1, 2), i]


def _writes(y, i):
    r = refs.new_ref(y)
    r[i] = r[i] * 2.0 + y[0]
    r[1, i] += 1.0
    refs.addupdate(r, (0, i), y[1, 0])
    old = refs.swap(r, (i, 0), y[0, 0] + 1.0)
    return refs.freeze(r), old


def _array_indices(y, i):
    r = refs.new_ref(y)
    j = np.array([[1, 0], [0, 0]], np.int32)
    r[j, 1] = r[j, 2] + y[0, 0]
    r[:, i] = r[:, np.array(0, np.int32)] * 3.0
    return refs.freeze(r), r[:, np.array([2, 0], np.int32)]


@pytest.mark.parametrize("f", [_reads, _writes, _array_indices])
@pytest.mark.parametrize("ref_axis", [0, 1, 2])
def test_reference_batched_along_any_axis_equals_a_loop(f, ref_axis):
    y = np.moveaxis(np.arange(24, dtype=np.float32).reshape(2, 3, 4), 0, ref_axis)
    i = np.array([1, 0], np.int32)
    batched = jaxle_core.vmap(f, in_axes=(ref_axis, 0))(y, i)
    for b, expected in zip(batched, _loop(f, (ref_axis, 0), (y, i))):
        np.testing.assert_array_equal(np.asarray(b), expected)


def _scanned_over(y):
    r = refs.new_ref(y)

    def body(c, row):
        row[...] += c
        return c + 1.0, row[...] * 2.0

    c, ys = jaxle_core.lax.scan(body, np.float32(0), r)
    return refs.freeze(r), c, ys


def _closed_over_in_scan(y):
    r = refs.new_ref(y)

    def body(c, x):
        r[0] += c * x
        return c + 1.0, r[1]

    c, ys = jaxle_core.lax.scan(body, np.float32(1), np.arange(3, dtype=np.float32))
    return refs.freeze(r), c, ys


@pytest.mark.parametrize("f", [_scanned_over, _closed_over_in_scan])
@pytest.mark.parametrize("ref_axis", [0, 1, 2])
def test_scan_over_or_closing_over_a_reference_batched_along_any_axis_equals_a_loop(f, ref_axis):
    # the scan wants a scanned reference batched along its second axis, a closed-over one along its first: any
    # other is laid out so in a new reference, copied back after the loop (JAX fails transposing the reference)
    y = np.moveaxis(np.arange(24, dtype=np.float32).reshape(2, 3, 4), 0, ref_axis)
    batched = jaxle_core.vmap(f, in_axes=ref_axis)(y)
    for b, expected in zip(batched, _loop(f, (ref_axis,), (y,)), strict=True):
        np.testing.assert_array_equal(np.asarray(b), expected)
