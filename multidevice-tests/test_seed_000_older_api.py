"""Seed 000's examples of ``xla_computation``, ``device_put_replicated`` and ``device_put_sharded``, which JAX 0.10.2
no longer has and jaxle keeps (each with a DeprecationWarning): run as the page writes them on eight CPU devices,
they give the page's results.

HLO is compared on its instructions (opcode, shape, replica groups, and the reduction a collective applies where the
page shows it), not on its instruction names or numbering. Only the instructions that compute the results count: the
page's older lowering also wrote dead ones (an unused ``constant(false)``, an empty ``tuple()``), and a single result
is compared whether or not the root wraps it in a tuple (the page's own examples do both).
"""

import re
import types
import warnings

import numpy as np
import pytest

import jaxle as jax
from jaxle import lax

# The page's printed HLO, verbatim (the page prints it on one line).
SIN_COS_HLO = ("HloModule xla_computation_f.6 ENTRY xla_computation_f.6 { constant.2 = pred[] constant(false) "
               "parameter.1 = f32[] parameter(0) cosine.3 = f32[] cosine(parameter.1) sine.4 = f32[] sine(cosine.3) "
               "ROOT tuple.5 = (f32[]) tuple(sine.4) }")
PSUM_HLO = ("HloModule jaxpr_computation.9 primitive_computation.3 { parameter.4 = s32[] parameter(0) parameter.5 = "
            "s32[] parameter(1) ROOT add.6 = s32[] add(parameter.4, parameter.5) } ENTRY jaxpr_computation.9 { "
            "tuple.1 = () tuple() parameter.2 = s32[] parameter(0) all-reduce.7 = s32[] all-reduce(parameter.2), "
            "replica_groups={{0,1,2,3}}, to_apply=primitive_computation.3 ROOT subtract.8 = s32[] "
            "subtract(parameter.2, all-reduce.7) }")
TWO_AXES_HLO = ("HloModule jaxpr_computation__1.19 [removed uninteresting text here] ENTRY jaxpr_computation__1.19 { "
                "tuple.1 = () tuple() parameter.2 = f32[] parameter(0) all-reduce.7 = f32[] all-reduce(parameter.2), "
                "replica_groups={{0,2,4,6},{1,3,5,7}}, to_apply=primitive_computation__1.3 all-reduce.12 = f32[] "
                "all-reduce(parameter.2), replica_groups={{0,1},{2,3},{4,5},{6,7}}, "
                "to_apply=primitive_computation__1.8 all-reduce.17 = f32[] all-reduce(parameter.2), "
                "replica_groups={{0,1,2,3,4,5,6,7}}, to_apply=primitive_computation__1.13 ROOT tuple.18 = (f32[], "
                "f32[], f32[]) tuple(all-reduce.7, all-reduce.12, all-reduce.17) }")

_NAME = r"[\w.\-]+"
_INSTRUCTION = re.compile(rf"(ROOT )?({_NAME}) = (\([^)]*\)|\S+) ([\w\-]+)\(([^)]*)\)"
                          rf"((?:, \w+=(?:\{{[{{}}\d,]*\}}|{_NAME}))*)")
_COMPUTATION = re.compile(rf"(ENTRY )?({_NAME}) \{{\s*(?=(?:ROOT )?{_NAME} = )")


def _computations(text: str) -> tuple[dict, str]:
    """Each computation's instructions (name, root, shape, opcode, operands, attributes), and the entry's name."""
    headers = list(_COMPUTATION.finditer(text))
    computations, entry = {}, None
    for header, following in zip(headers, headers[1:] + [None]):
        body = text[header.end():following.start() if following else len(text)]
        computations[header.group(2)] = [
            (m.group(2), bool(m.group(1)), m.group(3), m.group(4), re.findall(_NAME, m.group(5)),
             dict(re.findall(r"(\w+)=(\{[{}\d,]*\}|[\w.\-]+)", m.group(6))))
            for m in _INSTRUCTION.finditer(body)]
        if header.group(1):
            entry = header.group(2)
    return computations, entry


def _signature(computations: dict, name: str) -> tuple[list, list]:
    """The live instructions of computation ``name`` in order, as (opcode, shape, replica groups, signature of the
    reduction applied or None where the text leaves it out), and the shapes of its results."""
    instructions = computations[name]
    by_name = {i[0]: i for i in instructions}
    root = next(i for i in instructions if i[1])
    live, pending = set(), [root[0]]
    while pending:
        current = pending.pop()
        if current not in live:
            live.add(current)
            pending.extend(o for o in by_name[current][4] if o in by_name)  # not parameter(0)'s number
    results = [by_name[o][2] for o in root[4]] if root[3] == "tuple" else [root[2]]
    kept = [i for i in instructions if i[0] in live and not (i is root and root[3] == "tuple")]
    signature = [(opcode, shape, attributes.get("replica_groups"),
                  _signature(computations, attributes["to_apply"]) if attributes.get("to_apply") in computations
                  else None)
                 for _, _, shape, opcode, _, attributes in kept]
    return signature, results


def _assert_same_hlo(ours: str, page: str) -> None:
    ours_computations, ours_entry = _computations(ours)
    page_computations, page_entry = _computations(page)
    (ours_ops, ours_results), (page_ops, page_results) = (_signature(ours_computations, ours_entry),
                                                          _signature(page_computations, page_entry))
    assert ours_results == page_results
    assert len(ours_ops) == len(page_ops), (ours, page)
    for mine, theirs in zip(ours_ops, page_ops):
        assert mine[:3] == theirs[:3], (ours, page)
        assert theirs[3] is None or mine[3] == theirs[3], (ours, page)


def _xla_computation(*args, **kwargs):
    with pytest.warns(DeprecationWarning, match=r"jax.jit\(fun\).lower\(\*args\).compiler_ir\('hlo'\)"):
        return jax.xla_computation(*args, **kwargs)


def _sin_cos(x):
    return jax.numpy.sin(jax.numpy.cos(x))


def test_xla_computation_of_sin_cos_gives_the_pages_hlo():
    c = _xla_computation(_sin_cos)(3.)
    _assert_same_hlo(c.as_hlo_text(), SIN_COS_HLO)
    assert c.as_hlo_text().startswith("HloModule xla_computation__sin_cos")


def test_xla_computation_takes_anything_with_shape_and_dtype():
    scalar = types.SimpleNamespace(shape=(), dtype=np.dtype(np.float32))
    c = _xla_computation(_sin_cos)(scalar)
    _assert_same_hlo(c.as_hlo_text(), SIN_COS_HLO)


def test_xla_computation_with_an_axis_env_gives_the_pages_all_reduce():
    def f(x):
        return x - jax.lax.psum(x, 'i')

    c = _xla_computation(f, axis_env=[('i', 4)])(2)
    _assert_same_hlo(c.as_hlo_text(), PSUM_HLO)


def test_xla_computation_over_two_axes_gives_the_pages_replica_groups():
    def g(x):
        rowsum = lax.psum(x, 'i')
        colsum = lax.psum(x, 'j')
        allsum = lax.psum(x, ('i', 'j'))
        return rowsum, colsum, allsum

    axis_env = [('i', 4), ('j', 2)]
    c, shapes = _xla_computation(g, axis_env=axis_env, return_shape=True)(5.)
    _assert_same_hlo(c.as_hlo_text(), TWO_AXES_HLO)
    assert [(s.shape, s.dtype) for s in shapes] == [((), np.dtype(np.float32))] * 3
    assert c.as_hlo_dot_graph().startswith("digraph")
    assert c.as_hlo_module().name == "xla_computation_g"


def test_xla_computation_axis_index_reads_the_replica_id():
    c = _xla_computation(lambda x, n: x * lax.axis_index('j') + n, static_argnums=1, axis_env=[('i', 2), ('j', 4)])
    text = c(1, 3).as_hlo_text()
    # replica r sits at position r % 4 along the inner axis 'j'
    assert re.search(r"replica-id\.\d+ = u32\[\] replica-id\(\)", text)
    assert re.search(r"remainder\(replica-id\.\d+, constant\.\d+\)", text)
    assert "s32[] constant(4)" not in text and "u32[] constant(4)" in text and "s32[] constant(3)" in text


def test_xla_computation_without_an_axis_env_refuses_named_axes():
    with pytest.raises(NameError, match="Found an unbound axis name: i. To fix this, please call psum under"):
        _xla_computation(lambda x: lax.psum(x, 'i'))(1.)


def test_xla_computation_refuses_sharded_jit_partitions():
    with pytest.raises(ValueError, match="in_parts and out_parts"):
        _xla_computation(_sin_cos, in_parts=(None,))


def test_xla_computation_tuples_arguments_and_donates():
    c = _xla_computation(lambda x, y: (x + y, x), tuple_args=True, donate_argnums=0)(np.ones(3, np.float32), 2.)
    text = c.as_hlo_text()
    assert "entry_computation_layout={((f32[3]{0}, f32[]))->(f32[3]{0}, f32[3]{0})}" in text
    assert "= (f32[3]{0}, f32[]) parameter(0)" in text
    assert "input_output_alias={ {0}: (0, {0}, may-alias) }" in text  # x donated to the sum, of its type


def test_device_put_replicated_stacks_copies_of_x():
    devices = jax.local_devices()
    x = jax.numpy.array([1., 2., 3.])
    with pytest.warns(DeprecationWarning, match="jax.device_put_replicated is deprecated"):
        y = jax.device_put_replicated(x, devices)
    assert np.allclose(y, jax.numpy.stack([x for _ in devices]))
    assert y.shape == (8, 3) and y.dtype == np.float32
    assert [s.device for s in y.addressable_shards] == devices
    assert [np.asarray(s.data).tolist() for s in y.addressable_shards] == [[[1., 2., 3.]]] * 8


def _device_put_sharded(shards, devices):
    with pytest.warns(DeprecationWarning, match="jax.device_put_sharded is deprecated"):
        return jax.device_put_sharded(shards, devices)


def test_device_put_sharded_stacks_the_shards():
    devices = jax.local_devices()
    x = [jax.numpy.ones(5) for device in devices]
    y = _device_put_sharded(x, devices)
    assert np.allclose(y, jax.numpy.stack(x))
    assert [s.device for s in y.addressable_shards] == devices


def test_device_put_sharded_stacks_a_tree_of_shards_leaf_by_leaf():
    devices = jax.local_devices()
    x = [(i, jax.numpy.arange(i, i + 4)) for i in range(len(devices))]
    y = _device_put_sharded(x, devices)
    assert type(y) is tuple
    y0 = _device_put_sharded([a for a, b in x], devices)
    y1 = _device_put_sharded([b for a, b in x], devices)
    assert np.allclose(y[0], y0)
    assert np.allclose(y[1], y1)
    assert y1.tolist() == [list(range(i, i + 4)) for i in range(8)]
    assert y0.dtype == np.int32 and y1.dtype == np.int32


def test_pmap_consumes_device_put_sharded_where_it_lies():
    devices = jax.local_devices()
    y = _device_put_sharded([np.full(2, i, np.float32) for i in range(8)], devices)
    out = jax.pmap(lambda v: v * 2 + jax.lax.psum(v, "i"), axis_name="i")(y)
    np.testing.assert_allclose(out, np.repeat(np.arange(8, dtype=np.float32)[:, None] * 2 + 28, 2, axis=1))
    assert [s.device for s in out.addressable_shards] == devices
    # a named pmap lays its arguments out over a mesh of that name: the same blocks on the same devices, not copied
    named = jax.device_put(y, jax.sharding.NamedSharding(jax.sharding.Mesh(np.array(devices), ("i",)),
                                                         jax.sharding.PartitionSpec("i")))
    def addresses(array):
        return [shard.data.unsafe_buffer_pointer() for shard in array.addressable_shards]

    assert addresses(named) == addresses(y)


def test_device_put_sharded_errors():
    devices = jax.local_devices()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(ValueError, match=r"len\(shards\) = 2 must equal len\(devices\) = 8."):
            jax.device_put_sharded([1., 2.], devices)
        with pytest.raises(TypeError, match="must be a sequence"):
            jax.device_put_sharded(np.ones(8), devices)
        with pytest.raises(ValueError, match="same pytree structure"):
            jax.device_put_sharded([(1., 2.)] + [1.] * 7, devices)
        with pytest.raises(ValueError, match="non-empty sequence"):
            jax.device_put_replicated(1., [])
