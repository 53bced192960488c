"""Lowering of ``rng_bit_generator`` and ``rng_uniform`` to StableHLO's ``rng_bit_generator`` and ``rng``.

StableHLO's generator takes its state as ``uint64[2]``; a ``uint32[4]`` key is reinterpreted
(pairs of words, low word first) on the way in and out, as JAX does.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.lax.random_bits import RandomAlgorithm, check_key_aval, rng_bit_generator_p, rng_uniform_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering

_ALGORITHM_NAMES = {RandomAlgorithm.RNG_DEFAULT: "DEFAULT", RandomAlgorithm.RNG_THREE_FRY: "THREE_FRY",
                    RandomAlgorithm.RNG_PHILOX: "PHILOX"}
_STATE = ShapedArray((2,), np.uint64)


@register_lowering(rng_bit_generator_p)
def _rng_bit_generator(ctx: LoweringContext, key: Value, *, shape, dtype, algorithm, out_sharding) -> list[Value]:
    check_key_aval(key.aval)
    words = ShapedArray((2, 2), np.uint32)
    state = key
    if key.aval.dtype == np.uint32:
        state = ctx.op1("stablehlo.bitcast_convert", [ctx.op1("stablehlo.reshape", [key], words)], _STATE)
    attributes = {"rng_algorithm": f"#stablehlo<rng_algorithm {_ALGORITHM_NAMES[RandomAlgorithm(algorithm)]}>"}
    new_state, bits = ctx.op("stablehlo.rng_bit_generator", [state], [_STATE, ctx.avals_out[1]], attributes)
    if key.aval.dtype == np.uint32:
        new_state = ctx.op1("stablehlo.reshape", [ctx.op1("stablehlo.bitcast_convert", [new_state], words)],
                            key.aval)
    return [new_state, bits]


@register_lowering(rng_uniform_p)
def _rng_uniform(ctx: LoweringContext, a: Value, b: Value, *, shape) -> Value:
    dims = ctx.constant(np.array(shape, np.int64), np.int64, (len(shape),))
    return ctx.op1("stablehlo.rng", [a, b, dims], ctx.avals_out[0],
                   {"rng_distribution": "#stablehlo<rng_distribution UNIFORM>"})
