"""``shard_map`` on the reference backend: every device's block computed by the body (collectives across the
blocks), results assembled by spec, against NumPy; its derivatives against finite differences; ``vmap`` of it; the
refusals. (Its jaxprs as JAX prints them, and ``pmap``, are checked on eight XLA devices in multidevice-tests.)"""

import re

import numpy as np
import pytest

from jaxle_core import grad, jit, jvp, lax, make_jaxpr, shard_map, smap, vmap
from jaxle_core.jaxpr_util import dce_jaxpr
from jaxle_core.mesh import AxisType, Mesh, set_mesh
from jaxle_core.mesh import PartitionSpec as P
from jaxle_core.sharding import DuplicateSpecError
from jaxle_core.test_util import check_grads


class FakeDevice:
    device_kind = "cpu"
    platform = "cpu"

    def __init__(self, id):
        self.id = id


DEVICES = np.array([FakeDevice(i) for i in range(8)], dtype=object)
LINE = Mesh(DEVICES[:4], ("i",))
GRID = Mesh(DEVICES.reshape(4, 2), ("i", "j"))
X = np.arange(1.0, 9.0, dtype=np.float32)


def blocks_of(x, n):
    return x.reshape(n, -1, *x.shape[1:])


def test_blocks_see_collectives_across_devices():
    f = shard_map(lambda v: lax.sin(v) * lax.psum(v, "i"), mesh=LINE, in_specs=P("i"), out_specs=P("i"),
                  check_vma=False)
    b = blocks_of(X, 4)
    np.testing.assert_allclose(np.asarray(f(X)), (np.sin(b) * b.sum(0)).reshape(-1), rtol=1e-6)


def test_two_axis_mesh_psum_and_axis_index():
    x = np.arange(32.0, dtype=np.float32).reshape(8, 4)
    f = shard_map(lambda v: lax.psum(v, "j") + lax.axis_index("i"), mesh=GRID, in_specs=P("i", "j"),
                  out_specs=P("i", None), check_vma=False)
    blocks = x.reshape(4, 2, 2, 2)  # [i, rows, j, cols]
    expected = blocks.sum(2) + np.arange(4, dtype=np.float32)[:, None, None]
    np.testing.assert_array_equal(np.asarray(f(x)), expected.reshape(8, 2))


def test_unmentioned_output_axis_takes_the_first_device_value():
    f = shard_map(lambda v: lax.psum(v, "i"), mesh=LINE, in_specs=P("i"), out_specs=P(), check_vma=False)
    np.testing.assert_array_equal(np.asarray(f(X)), blocks_of(X, 4).sum(0))


def test_replicated_input_and_all_gather():
    f = shard_map(lambda v, w: lax.all_gather(v * w, "i", tiled=True), mesh=LINE, in_specs=(P("i"), P()),
                  out_specs=P(), check_vma=False)
    np.testing.assert_array_equal(np.asarray(f(X, np.float32(3))), X * 3)


def test_partial_ppermute_sends_zeros_to_devices_without_sender():
    f = shard_map(lambda v: lax.ppermute(v, "i", [(0, 1), (1, 2), (2, 3)]), mesh=LINE, in_specs=P("i"),
                  out_specs=P("i"), check_vma=False)
    np.testing.assert_array_equal(np.asarray(f(X)), np.concatenate([[0, 0], X[:6]]))


def test_psum_over_axis_index_groups():
    f = shard_map(lambda v: lax.psum(v, "i", axis_index_groups=[[0, 2], [1, 3]]), mesh=LINE, in_specs=P("i"),
                  out_specs=P("i"), check_vma=False)
    b = blocks_of(X, 4)
    expected = np.stack([b[0] + b[2], b[1] + b[3], b[0] + b[2], b[1] + b[3]])
    np.testing.assert_array_equal(np.asarray(f(X)), expected.reshape(-1))


def test_derivatives_match_finite_differences():
    f = shard_map(lambda v: lax.sin(v) * lax.psum(v, "i"), mesh=LINE, in_specs=P("i"), out_specs=P("i"),
                  check_vma=False)
    check_grads(f, (X,), order=2, modes=["fwd", "rev"])
    g = shard_map(lambda v, w: lax.cos(v) * w, mesh=GRID, in_specs=(P("i", "j"), P()), out_specs=P("i", "j"),
                  check_vma=False)
    check_grads(g, (X.reshape(4, 2), np.float32(0.5)), order=1, modes=["rev"])


def test_gradient_of_replicated_input_sums_over_devices():
    f = shard_map(lambda v, w: v * w, mesh=LINE, in_specs=(P("i"), P()), out_specs=P("i"), check_vma=False)
    assert float(grad(lambda w: lax.reduce_sum(f(X, w), (0,)))(np.float32(2.0))) == X.sum()


def test_gradient_of_replicated_output_is_not_counted_per_device():
    f = shard_map(lambda v: lax.psum(v, "i"), mesh=LINE, in_specs=P("i"), out_specs=P(), check_vma=False)
    np.testing.assert_array_equal(np.asarray(grad(lambda x: lax.reduce_sum(f(x), (0,)))(X)), np.ones(8))


def test_jvp_keeps_tangents_split_like_primals():
    f = shard_map(lambda v: v * lax.psum(v, "i"), mesh=LINE, in_specs=P("i"), out_specs=P("i"), check_vma=False)
    t = np.ones(8, np.float32)
    _, tangent = jvp(f, (X,), (t,))
    b, s = blocks_of(X, 4), blocks_of(X, 4).sum(0)
    np.testing.assert_allclose(np.asarray(tangent), (s + b * 4).reshape(-1), rtol=1e-6)


def test_vmap_of_shard_map_batches_each_block():
    f = shard_map(lambda v: v * lax.psum(v, "i"), mesh=LINE, in_specs=P("i"), out_specs=P("i"), check_vma=False)
    xs = np.stack([X, -X, 2 * X])
    np.testing.assert_allclose(np.asarray(vmap(f)(xs)), np.stack([np.asarray(f(x)) for x in xs]), rtol=1e-6)
    text = str(make_jaxpr(vmap(f))(xs))
    assert "in_specs=(P(None, 'i'),)" in text and "out_specs=(P(None, 'i'),)" in text


def test_indivisible_dimension_is_refused():
    f = shard_map(lambda v: v, mesh=LINE, in_specs=P("i"), out_specs=P("i"))
    with pytest.raises(ValueError, match="4 does not evenly divide 6"):
        f(np.ones(6, np.float32))


def test_unknown_mesh_axis_is_refused():
    f = shard_map(lambda v: v, mesh=LINE, in_specs=P("k"), out_specs=P("k"))
    with pytest.raises(ValueError, match="in_specs argument must refer to an axis marked as manual"):
        f(X)


def test_shard_map_inside_another_mesh_is_refused():
    inner = shard_map(lambda v: v, mesh=Mesh(DEVICES[:2], ("j",)), in_specs=P("j"), out_specs=P("j"))
    outer = shard_map(inner, mesh=LINE, in_specs=P("i"), out_specs=P("i"))
    with pytest.raises(ValueError, match="should match the mesh passed to shard_map"):
        outer(X)


def test_smap_maps_one_axis_of_the_context_mesh():
    f = smap(lambda v, w: lax.psum(v, "i") * w, in_axes=(0, None), out_axes=0, axis_name="i")
    with pytest.raises(ValueError, match="The context mesh cannot be empty"):
        f(X, np.float32(2))
    with set_mesh(LINE):
        np.testing.assert_array_equal(np.asarray(f(X, np.float32(2))), np.tile(blocks_of(X, 4).sum(0), 4) * 2)
        assert "mesh=AbstractMesh('i': 4, axis_types=(Auto,), device_kind=cpu" in str(make_jaxpr(f)(X, 2.0))


def test_in_specs_are_inferred_only_over_explicit_axes():
    with pytest.raises(TypeError, match="in_specs argument must be a pytree of `jax.sharding.PartitionSpec` instances"):
        shard_map(lambda v: v, mesh=LINE, out_specs=P())(X)
    explicit = Mesh(DEVICES[:4], ("i",), axis_types=(AxisType.Explicit,))
    f = shard_map(lambda v: v * lax.axis_index("i"), mesh=explicit, out_specs=P(), check_vma=False)
    np.testing.assert_array_equal(np.asarray(f(X)), X * 0)  # an unsharded argument is replicated


# ---------------------------------------------------------------- collectives over several mesh axes


def grid_blocks(x):
    """The blocks of ``x`` split along dimension 0 over ("i", "j"), indexed [i, j]."""
    return x.reshape(4, 2, -1, *x.shape[1:])


@pytest.mark.parametrize("names", [("i", "j"), ("j", "i")])
def test_collectives_over_two_axes_number_devices_row_major_over_the_names(names):
    # Device (i, j) is member i * 2 + j over ("i", "j") and member j * 4 + i over ("j", "i").
    x = np.arange(16.0, dtype=np.float32)
    blocks = grid_blocks(x)
    members = blocks if names == ("i", "j") else blocks.swapaxes(0, 1)
    flat = members.reshape(8, 2)  # every member's block, in member order
    member_of = np.arange(8).reshape(members.shape[:2])
    if names == ("j", "i"):
        member_of = member_of.T  # [i, j] -> member

    def run(body):
        return np.asarray(shard_map(body, mesh=GRID, in_specs=P(("i", "j")), out_specs=P(("i", "j")),
                                    check_vma=False)(x)).reshape(4, 2, -1)

    gathered = run(lambda v: lax.all_gather(v, names, tiled=True))
    np.testing.assert_array_equal(gathered, np.broadcast_to(flat.reshape(-1), (4, 2, 16)))
    index = run(lambda v: lax.reshape(lax.axis_index(names), (1,)))
    np.testing.assert_array_equal(index[..., 0], member_of)
    # ppermute numbers the devices in mesh order whatever the names' order, as JAX's lowering pairs them.
    shift = [(m, (m + 3) % 8) for m in range(8) if m != 5]  # device 0 has no sender: zeros
    permuted = run(lambda v: lax.ppermute(v, names, shift))
    senders = {t: s for s, t in shift}
    in_mesh_order = blocks.reshape(8, 2)
    expected = np.stack([in_mesh_order[senders[m]] if m in senders else np.zeros(2, np.float32) for m in range(8)])
    np.testing.assert_array_equal(permuted, expected.reshape(4, 2, 2))
    # Each member scatters 8 values (its block's sum times 0..7); member m receives the sum of entries m.
    scattered = run(lambda v: lax.psum_scatter(np.arange(8.0, dtype=np.float32) * lax.reduce_sum(v, (0,)), names,
                                               tiled=True))
    np.testing.assert_array_equal(scattered[..., 0], (flat.sum() * np.arange(8.0))[member_of])
    # all_to_all: member m sends chunk k of its values to member k, and receives one chunk from every member.
    values = lambda v: np.arange(16.0, dtype=np.float32) + 100 * lax.index_in_dim(v, 0, keepdims=False)
    exchanged = run(lambda v: lax.all_to_all(values(v), names, 0, 0, tiled=True))
    sent = np.arange(16.0)[None, :] + 100 * flat[:, :1]  # [member, values]
    received = np.stack([sent[:, 2 * m:2 * m + 2].reshape(-1) for m in range(8)])
    np.testing.assert_array_equal(exchanged, received[member_of])


def test_untiled_gather_and_scatter_over_two_axes():
    x = np.arange(16.0, dtype=np.float32).reshape(8, 2)
    stacked = shard_map(lambda v: lax.all_gather(v, ("i", "j"), axis=1), mesh=GRID, in_specs=P(("i", "j")),
                        out_specs=P(), check_vma=False)(x)
    np.testing.assert_array_equal(np.asarray(stacked), x[None])
    rows = np.arange(8.0, dtype=np.float32)[:, None] * np.ones((8, 3), np.float32)
    scattered = shard_map(lambda v: lax.reshape(lax.psum_scatter(rows * lax.reduce_sum(v, (0, 1)), ("i", "j")),
                                                (1, 3)),
                          mesh=GRID, in_specs=P(("i", "j")), out_specs=P(("i", "j")), check_vma=False)(x)
    np.testing.assert_array_equal(np.asarray(scattered), rows * x.sum())


GROUPS = [[0, 3, 4, 7], [1, 2, 5, 6]]


def _group_reference(names):
    """For each device [i, j] of GRID: its member number over ``names`` (row-major in their order), the members of
    its group in GROUPS' order, and its position in the group."""
    member_of = np.arange(8).reshape(4, 2) if names == ("i", "j") else np.arange(8).reshape(2, 4).T
    group_of = {m: g for g in GROUPS for m in g}
    return member_of, lambda m: group_of[m], lambda m: group_of[m].index(m)


@pytest.mark.parametrize("names", [("i", "j"), ("j", "i")])
def test_collectives_within_groups_over_two_axes(names):
    # Device [i, j] holds the value d = 2 * i + j (a block of one); members are numbered row-major over the names.
    x = np.arange(8.0, dtype=np.float32)
    value_of_member = np.zeros(8, np.float32)
    member_of, group, position = _group_reference(names)
    value_of_member[member_of.reshape(-1)] = x
    members = member_of.reshape(-1)

    def run(body):
        return np.asarray(shard_map(body, mesh=GRID, in_specs=P(("i", "j")), out_specs=P(("i", "j")),
                                    check_vma=False)(x)).reshape(8, -1)

    def expect(per_member):
        return np.stack([np.asarray(per_member(m), np.float32).reshape(-1) for m in members])

    groups_values = lambda m: value_of_member[group(m)]
    np.testing.assert_array_equal(run(lambda v: lax.psum(v, names, axis_index_groups=GROUPS)),
                                  expect(lambda m: groups_values(m).sum()))
    np.testing.assert_array_equal(run(lambda v: lax.pmean(v, names, axis_index_groups=GROUPS)),
                                  expect(lambda m: groups_values(m).mean()))
    np.testing.assert_array_equal(run(lambda v: lax.pmax(v, names, axis_index_groups=GROUPS)),
                                  expect(lambda m: groups_values(m).max()))
    np.testing.assert_array_equal(run(lambda v: lax.pmin(v, names, axis_index_groups=GROUPS)),
                                  expect(lambda m: groups_values(m).min()))
    np.testing.assert_array_equal(run(lambda v: lax.all_gather(v, names, axis_index_groups=GROUPS, tiled=True)),
                                  expect(groups_values))
    stacked = run(lambda v: lax.all_gather(v, names, axis_index_groups=GROUPS, axis=1))
    np.testing.assert_array_equal(stacked, expect(groups_values))
    # Each member scatters 10 * [0, 1, 2, 3] + its value; position p of a group receives entry p of the group's sum.
    tens = np.arange(4.0, dtype=np.float32) * 10
    scattered = run(lambda v: lax.psum_scatter(tens + v, names, axis_index_groups=GROUPS, tiled=True))
    np.testing.assert_array_equal(scattered, expect(lambda m: 4 * tens[position(m)] + groups_values(m).sum()))
    untiled = run(lambda v: lax.reshape(lax.psum_scatter(tens + v, names, axis_index_groups=GROUPS), (1,)))
    np.testing.assert_array_equal(untiled, scattered)
    # all_to_all: position p of a group receives entry p of every group member's [0, 1, 2, 3] + 10 * value.
    exchanged = run(lambda v: lax.all_to_all(tens / 10 + 10 * v, names, 0, 0, axis_index_groups=GROUPS, tiled=True))
    np.testing.assert_array_equal(exchanged, expect(lambda m: position(m) + 10 * groups_values(m)))


def test_gathers_within_groups_over_one_axis():
    x = np.arange(4.0, dtype=np.float32)
    groups = [[0, 2], [3, 1]]
    gathered = shard_map(lambda v: lax.all_gather(v, "i", axis_index_groups=groups, tiled=True), mesh=LINE,
                         in_specs=P("i"), out_specs=P("i"), check_vma=False)(x)
    np.testing.assert_array_equal(np.asarray(gathered), [0, 2, 3, 1, 0, 2, 3, 1])
    scattered = shard_map(lambda v: lax.psum_scatter(np.array([1.0, 10.0], np.float32) * v, "i",
                                                     axis_index_groups=groups, tiled=True),
                          mesh=LINE, in_specs=P("i"), out_specs=P("i"), check_vma=False)(x)
    np.testing.assert_array_equal(np.asarray(scattered), [2, 40, 20, 4])


# JAX 0.10.2's refusals of groups under vmap, named axes one or several (its messages).
_VMAP_GROUP_REFUSALS = {
    "psum": (lambda v, names: lax.psum(v, names, axis_index_groups=[[0, 1]]),
             "axis_index_groups not supported in vmap collectives. Please open a feature request!"),
    "pmax": (lambda v, names: lax.pmax(v, names, axis_index_groups=[[0, 1]]),
             "axis_index_groups not supported in vmap collectives. Please open a feature request!"),
    "all_gather": (lambda v, names: lax.all_gather(v, names, axis_index_groups=[[0, 1]]),
                   "axis_index_groups not supported in vmap"),
    "psum_scatter": (lambda v, names: lax.psum_scatter(v, names, axis_index_groups=[[0, 1]], tiled=True),
                     "axis_index_groups not supported in vmap"),
    "all_to_all": (lambda v, names: lax.all_to_all(v, names, 0, 0, axis_index_groups=[[0, 1]], tiled=True),
                   "Please open a feature request!"),
}


@pytest.mark.parametrize("name", _VMAP_GROUP_REFUSALS)
@pytest.mark.parametrize("names", [("i",), ("i", "j")])
def test_groups_under_vmap_are_refused_as_jax_refuses_them(name, names):
    body, message = _VMAP_GROUP_REFUSALS[name]
    inner = vmap(lambda v: body(v, names), axis_name="j")
    with pytest.raises(NotImplementedError) as error:
        vmap(inner, axis_name="i")(np.ones((2, 1, 2), np.float32))
    assert str(error.value) == message


@pytest.mark.parametrize("reduction", [lax.psum, lax.pmean, lax.pmax, lax.pmin])
def test_reductions_refuse_groups_with_positional_axes(reduction):
    with pytest.raises(ValueError, match="^axis_index_groups only supported for sums over just named axes$"):
        shard_map(lambda v: reduction(v, ("i", 0), axis_index_groups=[[0, 1, 2, 3]]), mesh=LINE,
                  in_specs=P("i"), out_specs=P("i"), check_vma=False)(X)


# ---------------------------------------------------------------- only some mesh axes manual (axis_names)


def test_partly_manual_body_sees_blocks_whole_along_the_other_axes():
    x = np.arange(32.0, dtype=np.float32).reshape(8, 4)
    f = shard_map(lambda v: lax.psum(v, "i") + lax.axis_index("i"), mesh=GRID, in_specs=P("i"), out_specs=P("i"),
                  axis_names=frozenset({"i"}))
    blocks = x.reshape(4, 2, 4)
    expected = blocks.sum(0) + np.arange(4, dtype=np.float32)[:, None, None]
    np.testing.assert_array_equal(np.asarray(f(x)), expected.reshape(8, 4))
    with pytest.raises(NameError, match="unbound axis name: j"):
        shard_map(lambda v: lax.psum(v, "j"), mesh=GRID, in_specs=P("i"), out_specs=P("i"),
                  axis_names=frozenset({"i"}))(x)


def test_shard_map_inside_a_partly_manual_body_makes_the_other_axes_manual():
    x = np.arange(32.0, dtype=np.float32).reshape(8, 4)

    def outer(v):  # rows split over "i"; inside, columns split over "j"
        return shard_map(lambda w: lax.psum(w, "j") * (lax.axis_index("i") + 1), in_specs=P(None, "j"),
                         out_specs=P(None, "j"))(v)

    f = shard_map(outer, mesh=GRID, in_specs=P("i"), out_specs=P("i"), axis_names=frozenset({"i"}))
    row_blocks = x.reshape(4, 2, 2, 2)  # [i, rows, j, cols]
    summed = np.broadcast_to(row_blocks.sum(2, keepdims=True), row_blocks.shape)
    expected = summed * (np.arange(4, dtype=np.float32) + 1)[:, None, None, None]
    np.testing.assert_array_equal(np.asarray(f(x)), expected.reshape(8, 4))
    check_grads(jit(f), (x / 10,), order=1, modes=["rev"])
    # JAX 0.10.2's eager grad stacks the inner residual (varying over "i") along a leading dimension split over "i"
    with pytest.raises(DuplicateSpecError, match=re.escape("but P('i', 'i') has duplicate entries for `i`")):
        grad(lambda v: f(v).sum())(x)


def test_dead_code_elimination_prunes_the_body_its_results_and_arguments():
    def body(v, w):
        lax.cos(v)  # read by nothing
        return lax.sin(v), w * 2.0

    mapped = shard_map(body, mesh=LINE, in_specs=P("i"), out_specs=P("i"), check_vma=False)
    closed = make_jaxpr(lambda v, w: mapped(v, w)[0])(X, X)
    pruned, used_inputs = dce_jaxpr(closed.jaxpr)
    assert used_inputs == [True, False]
    (eqn,) = pruned.eqns
    assert len(eqn.invars) == len(eqn.params["in_specs"]) == 1 and eqn.params["out_specs"] == (P("i"),)
    assert [e.primitive.name for e in eqn.params["jaxpr"].eqns] == ["sin"]
    assert str(eqn.params["jaxpr"]).count("sin") == 1  # still printed as a body over the mesh
    np.testing.assert_allclose(np.asarray(jit(lambda v, w: mapped(v, w)[0])(X, X)), np.sin(X), rtol=1e-6)
