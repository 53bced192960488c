"""The threefry2x32 primitive: known-answer vectors, JAX's key derivations from the design notes, its
abstract evaluation and its batching rule (on core's reference backend)."""

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_random as random
from jaxle_random.threefry import threefry2x32_p, threefry_2x32

U32 = np.uint32

# Random123's known-answer vectors of threefry2x32 with 20 rounds: (key, counter) -> result.
KNOWN_ANSWERS = [
    ((0x00000000, 0x00000000), (0x00000000, 0x00000000), (0x6B200159, 0x99BA4EFE)),
    ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
]


def words(*values):
    return [np.array(v, U32) for v in values]


@pytest.mark.parametrize("key, counter, expected", KNOWN_ANSWERS)
def test_known_answers(key, counter, expected):
    got = threefry_2x32(*words(*key), *words(*counter))
    assert [int(np.asarray(g)) for g in got] == list(expected)


def test_known_answers_as_one_batch_under_jit():
    keys, counters, expected = (np.array(column, U32).T for column in zip(*KNOWN_ANSWERS))
    got = jc.jit(lambda *w: threefry2x32_p.bind(*w))(keys[0], keys[1], counters[0], counters[1])
    np.testing.assert_array_equal(np.stack([np.asarray(g) for g in got]), expected)


def test_design_note_reference_values():
    key = random.PRNGKey(0)
    np.testing.assert_array_equal(random.split(key), [[1797259609, 2579123966], [928981903, 3453687069]])
    np.testing.assert_array_equal(random.fold_in(key, 7), [2716826189, 292468403])
    np.testing.assert_array_equal(random.bits(key, (5,)),
                                  [4070199207, 4202968722, 1427181096, 2012915765, 2447653815])
    np.testing.assert_array_equal(random.uniform(random.PRNGKey(42), (3,)),
                                  np.array([0.48870957, 0.6797972, 0.6162715], np.float32))


def test_abstract_eval():
    out = jc.make_jaxpr(lambda *w: threefry2x32_p.bind(*w))(*[np.zeros((2, 3), U32)] * 4).out_avals
    assert [(a.shape, a.dtype) for a in out] == [((2, 3), np.uint32)] * 2


@pytest.mark.parametrize("operands", [[np.zeros(3, np.int32)] * 4, [np.zeros(3, U32)] * 3 + [np.zeros(2, U32)]])
def test_abstract_eval_rejects_bad_operands(operands):
    with pytest.raises(TypeError, match="threefry2x32 requires"):
        threefry2x32_p.bind(*operands)


def test_wrapper_broadcasts_scalar_keys():
    counters = np.arange(4, dtype=U32)
    got = threefry_2x32(U32(5), U32(6), np.zeros(4, U32), counters)
    for i in range(4):
        one = threefry_2x32(U32(5), U32(6), U32(0), counters[i])
        assert [int(np.asarray(g)[i]) for g in got] == [int(np.asarray(o)) for o in one]


@pytest.mark.parametrize("in_axes", [(0, None, 1, None), (None, 0, None, 0), (1, 1, 1, 1)])
def test_vmap_matches_a_loop(in_axes):
    batch, shape = 4, (3,)
    rng = np.random.default_rng(0)
    operand_shapes = {None: shape, 0: (batch,) + shape, 1: shape + (batch,)}
    operands = [rng.integers(0, 2 ** 32, operand_shapes[axis], dtype=U32) for axis in in_axes]
    batched = jc.vmap(lambda *w: threefry2x32_p.bind(*w), in_axes)(*operands)
    for b in range(batch):
        one = threefry2x32_p.bind(*[o if a is None else np.take(o, b, axis=a) for o, a in zip(operands, in_axes)])
        for got, want in zip(batched, one):
            np.testing.assert_array_equal(np.asarray(got)[b], np.asarray(want))
