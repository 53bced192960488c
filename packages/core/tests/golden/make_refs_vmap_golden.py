"""Write refs_vmap_golden.json: ``vmap`` through mutable array references with the named module: per case the
jaxpr of the vmapped function and its values, or the error. The cases named ``axisN_...`` vmap a reference whose batch
is its dimension N (``in_axes``) and index it by batched indices:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_refs_vmap_golden.py jax
"""

from __future__ import annotations

import importlib
import sys

import numpy as np
from make_refs_golden import write_golden

f32 = np.float32
Y23 = np.arange(6, dtype=f32).reshape(2, 3)


def _made_inside(m):
    def f(y):
        r = m.new_ref(y)
        r[0] = y[1]
        r[1:] += 2.0
        return r[...], m.freeze(r)
    return f, (Y23,)


def _batched_index(m):
    def f(y, i):
        return m.new_ref(y)[i]
    return f, (Y23, np.array([2, 0], np.int32))


def _batched_index_writes(m):
    def f(y, i):
        r = m.new_ref(y)
        r[i, 1] = 7.0
        r[0, i] += y[0, 0]
        return m.freeze(r)
    return f, (np.arange(12, dtype=f32).reshape(2, 2, 3), np.array([1, 0], np.int32))


def _closed_over_read(m):
    outer = m.new_ref(np.arange(3, dtype=f32))
    return (lambda i: outer[i]), (np.array([2, 0], np.int32),)


def _closed_over_write(m):
    outer = m.new_ref(np.arange(3, dtype=f32))
    return (lambda v: outer.__setitem__(0, v)), (np.array([2.0, 0.0], f32),)


def _closed_over_unbatched_write(m):
    outer = m.new_ref(np.arange(3, dtype=f32))

    def f(y):
        outer[0] = 1.0  # nothing batched: still refused, as the reference is not
        return y * 2.0
    return f, (np.array([2.0, 0.0], f32),)


def _closed_over_unbatched_addupdate(m):
    outer = m.new_ref(np.arange(3, dtype=f32))

    def f(y):
        m.ops.addupdate(outer, 1, outer[0])
        return y
    return f, (np.array([2.0, 0.0], f32),)


def _cond_writes_ref(m):
    def f(y):
        r = m.new_ref(y)
        m.lax.cond(y[0] > 0, lambda: r.__setitem__(0, 3.0), lambda: None)
        return m.freeze(r)
    return f, (Y23,)


def _cond_reads_outer(m):
    outer = m.new_ref(np.arange(3, dtype=f32))
    return (lambda y: m.lax.cond(True, lambda: outer[0], lambda: y[1])), (Y23,)


def _cond_local_ref(m):
    def f(y):
        def branch():
            q = m.new_ref(y)
            q[0] = 2.0
            return m.freeze(q)
        return m.lax.cond(True, branch, lambda: y)
    return f, (Y23,)


def _in_scan(m):
    def f(y):
        r = m.new_ref(np.zeros((), f32))

        def body(c, x):
            r[...] += x * y
            return c, None
        m.lax.scan(body, f32(0), np.arange(3, dtype=f32))
        return m.freeze(r)
    return f, (np.array([1.0, 2.0], f32),)


def _in_axes_one(m):
    def f(y):
        r = m.new_ref(y)
        r[1] = r[0] * 2.0
        return m.freeze(r)
    return m.vmap_in_axes(f, 1), (Y23,)


X234 = np.arange(24, dtype=f32).reshape(2, 3, 4)


def _axis1_reads(m):
    def f(y, i):
        r = m.new_ref(y)
        return r[i], r[0, i], r[i, 1:], r[:, i]
    return m.vmap_in_axes(f, (1, 0)), (X234, np.array([1, 0, 1], np.int32))


def _axis2_writes(m):
    def f(y, i):
        r = m.new_ref(y)
        r[i] = r[i] * 2.0
        r[1, i] += 1.0
        m.ops.addupdate(r, (0, i), 5.0)
        return m.freeze(r)
    return m.vmap_in_axes(f, (2, 0)), (X234, np.array([1, 0, 1, 1], np.int32))


def _axis2_slice_then_index(m):
    def f(y, i):
        r = m.new_ref(y)
        r[:, i] = y[:, 0] * 3.0
        return m.freeze(r), r[1]
    return m.vmap_in_axes(f, (2, 0)), (X234, np.array([2, 0, 1, 1], np.int32))


def _axis1_swap(m):
    def f(y, i):
        r = m.new_ref(y)
        old = m.ops.swap(r, (i, 0), y[0, 0] + 1.0)
        return old, m.freeze(r)
    return m.vmap_in_axes(f, (1, 0)), (X234, np.array([1, 0, 1], np.int32))


def _axis1_array_index(m):
    def f(y):
        r = m.new_ref(y)
        j = np.array([[1, 0], [0, 0]], np.int32)
        r[j, 1] = r[j, 2] + 1.0
        return r[:, np.array([2, 0], np.int32)], m.freeze(r)
    return m.vmap_in_axes(f, 1), (X234,)


def _batched_int_among_arrays(m):
    def f(y, i):
        return m.new_ref(y)[np.array([0, 1], np.int32), i]
    return m.vmap_in_axes(f, (1, 0)), (X234, np.array([1, 0, 2], np.int32))


def _batched_ds_start(m):
    def f(y, i):
        return m.new_ref(y)[m.ops.ds(i, 2)]
    return f, (X234, np.array([0, 1], np.int32))


def _ds_unbatched_start(m):
    def f(y, i):
        return m.new_ref(y)[m.ops.ds(i, 2), 1]
    return m.vmap_in_axes(f, (1, None)), (X234, np.int32(0))


def _batched_int_then_slice(m):
    def f(y, i):
        r = m.new_ref(y)
        r[i, 1:] += y[0, :3]
        return m.freeze(r), r[0, i]
    return f, (X234, np.array([2, 1], np.int32))


CASES = {"made_inside": _made_inside, "batched_index": _batched_index,
         "batched_index_writes": _batched_index_writes, "closed_over_read": _closed_over_read,
         "closed_over_write": _closed_over_write, "closed_over_unbatched_write": _closed_over_unbatched_write,
         "closed_over_unbatched_addupdate": _closed_over_unbatched_addupdate, "cond_writes_ref": _cond_writes_ref,
         "cond_reads_outer": _cond_reads_outer, "cond_local_ref": _cond_local_ref, "in_scan": _in_scan,
         "in_axes_one": _in_axes_one,
         "axis1_reads": _axis1_reads, "axis2_writes": _axis2_writes, "axis2_slice_then_index": _axis2_slice_then_index,
         "axis1_swap": _axis1_swap, "axis1_array_index": _axis1_array_index,
         "batched_int_among_arrays": _batched_int_among_arrays, "batched_ds_start": _batched_ds_start,
         "ds_unbatched_start": _ds_unbatched_start, "batched_int_then_slice": _batched_int_then_slice}

def run_case(m, name: str) -> dict:
    f, args = CASES[name](m)
    g = f if getattr(f, "already_vmapped", False) else m.vmap(f)
    try:
        text = str(m.make_jaxpr(g)(*args))
        outs = g(*args)
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    outs = outs if isinstance(outs, (tuple, list)) else [outs]
    return {"jaxpr": text, "values": [np.asarray(o).tolist() for o in outs if o is not None]}


def namespace(impl, new_ref, freeze, ops=None):
    """The functions the cases call; ``ops`` has ``swap``, ``addupdate`` and ``ds`` (by default ``impl.ref``'s and
    ``impl.ds``)."""
    import types

    if ops is None:
        ops = types.SimpleNamespace(swap=impl.ref.swap, addupdate=impl.ref.addupdate, ds=impl.ds)

    def vmap_in_axes(f, axis):
        g = impl.vmap(f, in_axes=axis)
        g.already_vmapped = True
        return g

    return types.SimpleNamespace(new_ref=new_ref, freeze=freeze, vmap=impl.vmap, make_jaxpr=impl.make_jaxpr,
                                 lax=impl.lax, vmap_in_axes=vmap_in_axes, ops=ops)


def main() -> None:
    impl = importlib.import_module(sys.argv[1])
    m = namespace(impl, impl.new_ref, impl.freeze)
    write_golden("refs_vmap_golden.json", {name: run_case(m, name) for name in CASES})


if __name__ == "__main__":
    main()
