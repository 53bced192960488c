"""Memory spaces in types: a host aval prints ``f32<host>[8]``, results take their operands' space, and operands
of rank one or more in different spaces are refused with JAX's error (reference backend: the avals are made by
hand)."""

import numpy as np
import pytest

from jaxle_core import lax
from jaxle_core.avals import ShapedArray
from jaxle_core.memory_spaces import MemorySpace
from jaxle_core.staging import trace_to_jaxpr

HOST = ShapedArray((4,), np.dtype(np.float32), memory_space=MemorySpace.Host)
DEVICE = ShapedArray((4,), np.dtype(np.float32))


def test_host_types_print_their_space():
    assert str(HOST) == "float32<host>[4]" and HOST.str_short(short_dtypes=True) == "f32<host>[4]"
    assert HOST != DEVICE and HOST.update(shape=(2,)).memory_space is MemorySpace.Host


def test_results_take_their_operands_space():
    closed = trace_to_jaxpr(lambda v, s: (lax.reduce_sum(lax.mul(v, s), (0,)),), [HOST, HOST.update(shape=())])
    assert [a.memory_space for a in closed.out_avals] == [MemorySpace.Host]
    assert "f32<host>[] = reduce_sum" in str(closed)


def test_operands_in_different_spaces_are_refused():
    with pytest.raises(ValueError, match=r"memory_space of all inputs passed to `add` must be the same. Got one "
                                         r"operand with type: float32<host>\[4\] and another operand with type: "
                                         r"float32\[4\]"):
        trace_to_jaxpr(lambda u, v: (lax.add(u, v),), [HOST, DEVICE])
