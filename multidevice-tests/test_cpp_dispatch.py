"""Cached calls on eight devices run by jaxlib's C++ dispatch (fast_jit): pmap, jit over sharded arrays and
jit on one of several devices; their results, shardings, committedness and errors are core's path's."""

import numpy as np
import pytest

import jaxle as jax
from jaxle.sharding import NamedSharding
from jaxle.sharding import PartitionSpec as P
from jaxle_xla import layout_meshes, spmd


@pytest.fixture(autouse=True)
def fresh_layout_meshes(monkeypatch):
    """The meshes each layout was seen named over, as in a fresh process: a layout other tests saw over two meshes
    gets no C++ entries for jitted calls (layout_meshes), which would change the counts below."""
    for name, empty in (("_noted", set()), ("_mesh_of", {}), ("_ambiguous", set())):
        monkeypatch.setattr(layout_meshes, name, empty)


@pytest.fixture
def python_runs(monkeypatch):
    """How many partitioned executions went through Python (C++ dispatch runs the others)."""
    count = [0]
    call = spmd.SpmdExecutable.__call__

    def counted(self, args):
        count[0] += 1
        return call(self, args)

    monkeypatch.setattr(spmd.SpmdExecutable, "__call__", counted)
    return count


def test_cached_pmap_calls_run_in_cpp(python_runs):
    double = jax.pmap(lambda a: a * 2)
    x = np.arange(16, dtype=np.float32).reshape(8, 2)
    first = double(x)  # a NumPy argument: laid out over the devices, then the first compiled call
    out = first
    for _ in range(3):
        out = double(out)
    assert python_runs[0] == 2  # the NumPy call, and the first with laid-out arrays (C++ keys by the arguments)
    np.testing.assert_array_equal(np.asarray(out), x * 16)
    assert out.sharding == first.sharding and out.sharding.spec == P("_internal_pmap_axis_name")
    assert [s.device.id for s in out.addressable_shards] == list(range(8))


def test_pmap_of_another_axis_name_keeps_the_buffers(python_runs):
    replicate = jax.pmap(lambda a: a)
    total = jax.pmap(lambda a: jax.lax.psum(a, "i"), "i")
    x = replicate(np.arange(8, dtype=np.float32))
    for _ in range(3):
        out = total(x)
    assert python_runs[0] == 2  # replicate's call and total's first
    np.testing.assert_array_equal(np.asarray(out), np.full(8, 28.0))
    assert out.sharding.mesh.axis_names == ("i",)


def test_sharded_jit_keys_calls_by_layout(python_runs):
    # Auto axes: over Explicit ones the types would refuse ``a[0]`` of rows split eight ways (as JAX's do)
    mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
    other = jax.make_mesh((4, 2), ("a", "b"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    value = np.arange(64, dtype=np.float32).reshape(8, 8)
    f = jax.jit(lambda a: a.sum(0) + a[0])
    layouts = [NamedSharding(mesh, P("i")), NamedSharding(mesh, P(None, "i")), NamedSharding(mesh, P()),
               NamedSharding(other, P("a", "b"))]
    arrays = [jax.device_put(value, s) for s in layouts]
    seen = {}
    for i in [0, 0, 1, 1, 0, 2, 2, 3, 3, 1]:
        out = f(arrays[i])
        np.testing.assert_array_equal(np.asarray(out), value.sum(0) + value[0])
        assert seen.setdefault(i, out.sharding) == out.sharding  # what the first (Python) call reported
    assert python_runs[0] == 4  # one per layout


def test_deleted_argument_of_a_cached_call():
    double = jax.pmap(lambda a: a * 2)
    x = double(np.ones((8, 3), np.float32))
    double(x)
    x.delete()
    with pytest.raises(RuntimeError, match=r"Array has been deleted with shape=float32\[8,3\]"):
        double(x)


def test_jit_on_one_of_several_devices():
    devices = jax.devices()
    f = jax.jit(lambda a, b: a + b)
    uncommitted = jax.numpy.arange(3.0)
    on_3 = jax.device_put(np.ones(3, np.float32), devices[3])
    for _ in range(3):
        out = f(uncommitted, uncommitted)
        assert not out.committed and out.devices() == {devices[0]}
        out = f(uncommitted, on_3)
        assert out.committed and out.devices() == {devices[3]}
        np.testing.assert_array_equal(np.asarray(out), [1.0, 2.0, 3.0])
        out = f(on_3, 1.0)
        assert out.committed and out.devices() == {devices[3]} and out.dtype == np.float32
    with jax.default_device(devices[5]):
        assert f(np.ones(3, np.float32), 1.0).devices() == {devices[5]}
    with pytest.raises(ValueError, match="Received incompatible devices for jitted computation"):
        f(on_3, jax.device_put(np.ones(3, np.float32), devices[4]))


def test_jit_with_shardings_runs_in_cpp(python_runs):
    mesh = jax.make_mesh((4, 2), ("a", "b"))
    rows, columns = NamedSharding(mesh, P("a")), NamedSharding(mesh, P(None, "b"))
    f = jax.jit(lambda a: a * 2, in_shardings=rows, out_shardings=columns)
    value = np.arange(32, dtype=np.float32).reshape(8, 4)
    first = f(value)  # a NumPy argument: core's path puts it (C++ hands over only laid-out arrays)
    x = jax.device_put(value, rows)
    for _ in range(3):
        out = f(x)
    assert python_runs[0] == 2
    assert out.sharding == first.sharding == columns
    np.testing.assert_array_equal(np.asarray(out), value * 2)
    with pytest.raises(ValueError, match="Sharding passed to jit does not match the sharding on the respective arg"):
        f(out)


def test_pmap_of_pytrees_and_keywords_in_cpp(python_runs):
    lay_out = jax.pmap(lambda a: a)
    pair = (lay_out(np.ones((8, 2), np.float32)), lay_out(np.arange(8, dtype=np.int32)))
    scale = lay_out(np.full(8, 3.0, np.float32))
    f = jax.pmap(lambda t, *, scale: {"a": t[0] * scale, "b": t[1] + 1})
    for _ in range(3):
        out = f(pair, scale=scale)
    assert python_runs[0] == 4  # each of the three lay_out calls, and f's first
    np.testing.assert_array_equal(np.asarray(out["a"]), np.full((8, 2), 3.0))
    assert out["b"].dtype == np.int32 and out["b"].tolist() == list(range(1, 9))
    assert out["a"].sharding.spec == P("_internal_pmap_axis_name")


def test_partitioned_donating_jit_deletes_donations_and_refuses_them_again(python_runs):
    # Its calls stay on core's path: jaxlib's C++ dispatch of such a call given a donated array ends the process
    # (JAX 0.10.2's too), where core's path raises the RuntimeError of a deleted array.
    mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Auto,))
    rows = NamedSharding(mesh, P("x"))
    f = jax.jit(lambda a, b: (a * 2 + b, a.sum()), donate_argnums=0)
    for i in range(3):
        base = np.arange(16, dtype=np.float32) + i
        a, b = jax.device_put(base, rows), jax.device_put(np.ones(16, np.float32), rows)
        doubled, total = f(a, b)
        assert a.is_deleted() and not b.is_deleted()
        np.testing.assert_array_equal(np.asarray(doubled), base * 2 + 1)
        assert float(total) == base.sum() and doubled.sharding == rows
    assert python_runs[0] == 3
    with pytest.raises(RuntimeError, match=r"Array has been deleted with shape=float32\[16\]"):
        f(a, b)
