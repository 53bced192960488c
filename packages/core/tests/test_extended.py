"""Extended dtypes: a toy dtype whose elements are pairs of int32 (physically ``int32[..., 2]``) flows through
tracing, jaxprs, jit, vmap and jvp, and the structural primitives move its elements as the physical rules say.
The reference is NumPy on the physical pairs."""

import numpy as np
import pytest

from jaxle_core import dtypes, jit, jvp, lax, make_jaxpr, vmap
from jaxle_core.avals import ShapedArray
from jaxle_core.batching.trace import batching_rules, move_dim
from jaxle_core.core import Primitive
from jaxle_core.extended import ExtendedArray, jaxpr_has_extended, physical_aval, physical_rules, physicalize


class pair(dtypes.extended):  # noqa: N801 - a scalar-type category, named as JAX names them
    pass


class PairDType(dtypes.ExtendedDType):
    type = pair
    name = "pair"
    physical_shape = (2,)
    physical_dtype = np.dtype(np.int32)

    def wrap(self, physical):
        return ExtendedArray(ShapedArray(physical.shape[:-1], self), physical)

    def __eq__(self, other):
        return type(other) is PairDType

    def __hash__(self):
        return hash(PairDType)


PAIR = PairDType()
make_p = Primitive("make_pair")  # int32[..., 2] -> pair[...]
make_p.def_abstract_eval(lambda data: ShapedArray(data.shape[:-1], PAIR))
first_p = Primitive("first")  # pair[...] -> int32[...]
first_p.def_abstract_eval(lambda pairs: ShapedArray(pairs.shape, np.int32))
physical_rules[make_p] = lambda data, *, avals_in, avals_out: [data]
physical_rules[first_p] = lambda data, *, avals_in, avals_out: [lax.index_in_dim(data, 0, -1, keepdims=False)]
for _p in (make_p, first_p):
    batching_rules[_p] = lambda vals, dims, _p=_p: (_p.bind(move_dim(vals[0], dims[0], 0)), 0)

DATA = np.arange(24, dtype=np.int32).reshape(3, 4, 2)


def firsts(pairs):
    return np.asarray(first_p.bind(pairs))


def test_dtype_queries():
    assert dtypes.issubdtype(PAIR, dtypes.extended) and dtypes.issubdtype(PAIR, pair)
    assert not dtypes.issubdtype(PAIR, np.integer) and not dtypes.issubdtype(np.int32, dtypes.extended)
    assert dtypes.is_extended(PAIR) and not dtypes.is_extended(np.dtype(np.int32))
    assert dtypes.canonicalize_dtype(PAIR) is PAIR and PAIR.itemsize == 8
    aval = ShapedArray((3,), PAIR)
    assert str(aval) == "pair[3]" and repr(aval) == "ShapedArray(pair[3])"
    assert physical_aval(aval) == ShapedArray((3, 2), np.int32)


def test_jaxpr_prints_extended_avals_and_physicalizes():
    closed = make_jaxpr(lambda d: lax.transpose(make_p.bind(d), (1, 0)))(DATA)
    assert str(closed) == ("{ lambda ; a:i32[3,4,2]. let\n    b:pair[3,4] = make_pair a\n"
                           "    c:pair[4,3] = transpose[permutation=(1, 0)] b\n  in (c,) }")
    physical = physicalize(closed)
    assert jaxpr_has_extended(closed) and not jaxpr_has_extended(physical)
    assert str(physical) == ("{ lambda ; a:i32[3,4,2]. let\n"
                             "    b:i32[4,3,2] = transpose[permutation=(1, 0, 2)] a\n  in (b,) }")


@pytest.mark.parametrize("name, op, reference", [
    ("reshape", lambda p: lax.reshape(p, (4, 3)), lambda d: d.reshape(4, 3, 2)),
    ("transpose", lambda p: lax.transpose(p, (1, 0)), lambda d: d.transpose(1, 0, 2)),
    ("slice", lambda p: lax.slice(p, (1, 0), (3, 4), (1, 2)), lambda d: d[1:3, 0:4:2]),
    ("index", lambda p: p[2], lambda d: d[2]),
    ("gather", lambda p: lax.gather(p, np.array([[2], [0]], np.int32), lax.GatherDimensionNumbers((1,), (0,), (0,)),
                                    (1, 4)), lambda d: d[[2, 0]]),
    ("squeeze", lambda p: lax.squeeze(p[:1], (0,)), lambda d: d[0]),
    ("broadcast", lambda p: lax.broadcast_in_dim(p[0], (2, 4), (1,)), lambda d: np.broadcast_to(d[0], (2, 4, 2))),
    ("concatenate", lambda p: lax.concatenate([p, p[:1]], 0), lambda d: np.concatenate([d, d[:1]])),
    ("rev", lambda p: lax.rev(p, (1,)), lambda d: d[:, ::-1]),
    ("select", lambda p: lax.select(np.array([True, False, True, False]), p[0], p[1]),
     lambda d: np.where(np.array([True, False, True, False])[:, None], d[0], d[1])),
    ("dynamic_slice", lambda p: lax.dynamic_slice(p, (np.int32(1), np.int32(2)), (2, 2)), lambda d: d[1:3, 2:4]),
    ("dynamic_update_slice", lambda p: lax.dynamic_update_slice(p, p[:1, :2], (np.int32(2), np.int32(1))),
     lambda d: np.concatenate([d[:2], np.concatenate([d[2:, :1], d[:1, :2], d[2:, 3:]], 1)])),
])
def test_structural_primitives_move_whole_elements(name, op, reference):
    expected = reference(DATA)[..., 0]
    np.testing.assert_array_equal(firsts(op(make_p.bind(DATA))), expected)
    np.testing.assert_array_equal(np.asarray(jit(lambda d: first_p.bind(op(make_p.bind(d))))(DATA)), expected)


def test_jit_takes_and_returns_extended_arrays():
    pairs = make_p.bind(DATA)
    out = jit(lambda p: lax.transpose(p, (1, 0)))(pairs)
    assert isinstance(out, ExtendedArray) and out.aval == ShapedArray((4, 3), PAIR)
    np.testing.assert_array_equal(np.asarray(out.physical), DATA.transpose(1, 0, 2))


def test_vmap_moves_extended_batch_dimensions():
    out = vmap(lambda p: first_p.bind(p[1:3]), in_axes=1)(make_p.bind(DATA))
    np.testing.assert_array_equal(np.asarray(out), DATA[1:3, :, 0].T)


def test_scan_carries_extended_values():
    def body(carry, x):
        return lax.rev(carry, (0,)), first_p.bind(carry)

    carry, ys = lax.scan(body, make_p.bind(DATA[0]), None, length=3)
    np.testing.assert_array_equal(firsts(carry), DATA[0, ::-1, 0])
    np.testing.assert_array_equal(np.asarray(ys), [DATA[0, :, 0], DATA[0, ::-1, 0], DATA[0, :, 0]])


def test_jvp_gives_extended_values_float0_tangents():
    pairs = make_p.bind(DATA)
    out, tangent = jvp(lambda p: lax.reshape(p, (12,)), (pairs,), (np.zeros((3, 4), dtypes.float0),))
    assert out.aval == ShapedArray((12,), PAIR)
    assert tangent.dtype == dtypes.float0 and tangent.shape == (12,)


def test_primitive_without_physical_rule_is_a_type_error():
    with pytest.raises(TypeError, match="add does not accept dtype pair at position 0"):
        lax.add(make_p.bind(DATA), make_p.bind(DATA))
    with pytest.raises(TypeError, match="cumsum does not accept dtype pair"):
        lax.cumsum(make_p.bind(DATA))


def test_eq_and_ne_compare_whole_elements():
    data = DATA.copy()
    data[1, 2, 1] = data[0, 2, 1]  # second halves equal, first halves not
    data[1, 3] = data[0, 3]  # the whole element equal
    pairs = make_p.bind(data)
    np.testing.assert_array_equal(np.asarray(lax.eq(pairs[0], pairs[1])), [False, False, False, True])
    np.testing.assert_array_equal(np.asarray(jit(lax.ne)(pairs[1], pairs[0][3])), [True, True, True, False])
    with pytest.raises(TypeError, match="eq requires arguments to have the same dtypes"):
        lax.eq(pairs, np.zeros((3, 4), np.int32))


def test_stack_joins_whole_elements():
    out = first_p.bind(lax.stack([make_p.bind(DATA[0]), make_p.bind(DATA[1])], 1))
    np.testing.assert_array_equal(np.asarray(out), np.stack([DATA[0, :, 0], DATA[1, :, 0]], 1))


def test_physicalize_rewrites_open_jaxprs_that_equations_carry():
    from jaxle_core.core import ClosedJaxpr, Jaxpr, JaxprEqn, Var

    inner = make_jaxpr(lambda d: lax.rev(make_p.bind(d), (0,)))(DATA[0]).jaxpr
    const = Var(inner.invars[0].aval)  # the inner jaxpr reads its data from a constvar
    inner = inner.replace(constvars=[const], invars=[], eqns=[e.replace(invars=[const]) if e.invars == inner.invars
                                                               else e for e in inner.eqns])
    carrier = Primitive("carry_open_jaxpr")
    carrier.def_abstract_eval(lambda x, *, jaxpr: jaxpr.outvars[0].aval)
    outer_in, outer_out = Var(ShapedArray((4, 2), np.int32)), Var(ShapedArray((4,), PAIR))
    closed = ClosedJaxpr(Jaxpr([], [outer_in], [outer_out], [JaxprEqn([outer_in], [outer_out], carrier,
                                                                       {"jaxpr": inner})]), [])
    physical = physicalize(closed)
    rewritten = physical.jaxpr.eqns[0].params["jaxpr"]
    assert not jaxpr_has_extended(physical) and [v.aval for v in rewritten.constvars] == [ShapedArray((4, 2),
                                                                                                       np.int32)]
    assert "rev[dimensions=(0,)]" in str(rewritten) and physical.out_avals == [ShapedArray((4, 2), np.int32)]
