"""The XLA lowering of ragged_dot_general (masked copies and one dot_general, as JAX on CPU) agrees with core's
NumPy reference in every mode, with batched group sizes, and under grad and vmap."""

import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax

R = lax.RaggedDotDimensionNumbers
MODES = {
    "noncontracting": (R((((1,), (1,)), ((), ())), [0], [0]), (7, 3), (3, 3, 4), (3,)),
    "contracting": (R((((1,), (0,)), ((), ())), [1], []), (5, 6), (6, 4), (2,)),
    "batch": (R((((2,), (1,)), ((0,), (0,))), [0], []), (6, 5, 3), (6, 3, 4), (2,)),
    "batched-sizes": (R((((2,), (2,)), ((0,), (0,))), [1], [1]), (3, 6, 3), (3, 2, 3, 4), (3, 2)),
    "free-before": (R((((2,), (1,)), ((), ())), [1], [0]), (2, 6, 3), (2, 3, 4), (2, 2)),
    "contracting-batched": (R((((2,), (1,)), ((1,), (0,))), [2], []), (5, 3, 6), (3, 6, 4), (3, 2)),
    "contracting-first": (R((((0,), (1,)), ((), ())), [1], [0]), (3, 6), (2, 3, 4), (2,)),
}


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_modes(mode, dtype):
    numbers, lhs_shape, rhs_shape, sizes_shape = MODES[mode]
    rng = np.random.default_rng(0)
    lhs, rhs = (rng.integers(-4, 5, shape).astype(dtype) for shape in (lhs_shape, rhs_shape))
    sizes = rng.integers(-1, 5, sizes_shape).astype(np.int32)
    check_against_reference(lambda a, b, g: lax.ragged_dot_general(a, b, g, numbers), lhs, rhs, sizes)


def test_preferred_type_and_grads():
    rng = np.random.default_rng(1)
    lhs, rhs = rng.standard_normal((6, 3)).astype(np.float32), rng.standard_normal((2, 3, 4)).astype(np.float32)
    sizes = np.array([4, 1], np.int32)
    check_against_reference(lambda a, b: lax.ragged_dot(a, b, sizes, preferred_element_type=np.float32),
                            lhs.astype(np.float16), rhs.astype(np.float16), rtol=1e-2)
    loss = lambda a, b: lax.reduce_sum(lax.ragged_dot(a, b, sizes), (0, 1))  # noqa: E731
    check_against_reference(jc.grad(loss, argnums=(0, 1)), lhs, rhs, rtol=1e-5, eager=False)
    check_against_reference(jc.vmap(lax.ragged_dot), lhs[None], rhs[None], sizes[None], rtol=1e-5)
