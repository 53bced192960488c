"""``checkpoint`` around control flow: the checkpointed function's partial evaluation splits a cond/scan/while
equation that mixes primal and tangent operands into its known and tangent parts (recomputing the known part
as the policy says), so grad of a checkpointed loop equals grad of the loop and finite differences."""

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64

XS = np.linspace(-1.0, 1.5, 5)


def scan_fn(c):
    ys = lax.scan(lambda c, x: (lax.sin(c) * x + c, c * x), c, XS)[1]
    return lax.reduce_sum(ys, (0,))


def cond_fn(c):
    return lax.cond(c > 0, lambda v: lax.sin(v) * v, lambda v: lax.cos(v), c)


def fori_fn(c):
    return lax.fori_loop(0, 4, lambda i, v: lax.sin(v) + v * i, c)


def counted_while_fn(c):
    return lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1]), (0, c))[1] * lax.exp(c)


POLICIES = [None, jc.checkpoint_policies.everything_saveable, jc.checkpoint_policies.nothing_saveable]


@pytest.mark.parametrize("fn", [scan_fn, cond_fn, fori_fn, counted_while_fn])
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("x", [0.7, -0.4])
def test_grad_of_checkpointed_control_flow(fn, policy, x):
    with enable_x64(True):
        got = float(jc.grad(jc.checkpoint(fn, policy=policy))(x))
        assert got == pytest.approx(float(jc.grad(fn)(x)), rel=1e-12)
        eps = 1e-6
        assert got == pytest.approx((float(fn(x + eps)) - float(fn(x - eps))) / (2 * eps), rel=1e-6, abs=1e-8)


def test_checkpointed_scan_recomputes_inside_remat():
    jaxpr = jc.make_jaxpr(jc.grad(jc.checkpoint(scan_fn)))(0.5)
    remat = [e for e in jaxpr.eqns if e.primitive.name == "remat2"]
    assert len(remat) == 1 and remat[0].params["differentiated"]
    assert any(e.primitive.name == "scan" for e in remat[0].params["jaxpr"].eqns)
