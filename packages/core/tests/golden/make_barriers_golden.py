"""Write barriers_golden.json: optimization_barrier, dce_sink, stage and device_put (the primitive
``jax.device_put`` stages) with the named module, values and the jaxprs of jvp/grad/vmap through them:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_barriers_golden.py jax
"""

import importlib
import json
import sys

import numpy as np
from make_jvp_golden import render_table
from make_reductions_golden import HERE, rand, record

f32 = np.float32
# Where each implementation keeps the copy semantics that device_put's equations carry.
COPY_SEMANTICS = {"jax": "jaxlib.xla_client", "jaxle_core": "jaxle_core.lax"}

def _leaves(tree):
    return [tree["a"], *tree["b"]]


CASES = {
    "optimization_barrier-one": lambda lax: (lambda x: lax.optimization_barrier(x), (rand((3,), "float32"),)),
    "optimization_barrier-tree": lambda lax: (
        lambda x, y: _leaves(lax.optimization_barrier({"a": x, "b": (y, 3)})), (rand((3,), "float32"),
                                                                                rand((2,), "int8"))),
    "optimization_barrier-weak": lambda lax: (lambda: lax.optimization_barrier(2.0), ()),
    "dce_sink": lambda lax: (lambda x: [lax.dce_sink((x, x)), x][1:], (rand((3,), "float32"),)),
    "dce_sink-prevent": lambda lax: (lambda x: [lax.dce_sink(x, prevent_mlir_dce=True), x * 2][1:],
                                     (rand((3,), "float32"),)),
    "stage-scalar": lambda lax: (lambda: lax.stage(1.0), ()),
    "stage-array": lambda lax: (lambda: lax.stage(np.arange(3, dtype=np.float32)), ()),
    "stage-traced": lambda lax: (lambda x: lax.stage(x) + 1, (rand((2,), "float32"),)),
}


def _device_put(impl, lax):
    semantics = importlib.import_module(COPY_SEMANTICS[impl.__name__]).ArrayCopySemantics
    return lambda *xs: lax.device_put_p.bind(*xs, devices=(None,) * len(xs), srcs=(None,) * len(xs),
                                             copy_semantics=(semantics.REUSE_INPUT,) * len(xs))


def transforms(impl, lax):
    """``(name, function, arguments)``: jvp, grad and vmap through each primitive."""
    x, s = np.arange(3, dtype=f32), f32(2)
    float0 = np.zeros((), impl.dtypes.float0)
    put = _device_put(impl, lax)
    return [
        ("jvp-barrier", lambda x: impl.jvp(lambda y: lax.optimization_barrier((y, 2.0 * y)), (x,), (x,)), (x,)),
        ("jvp-barrier-int", lambda x: impl.jvp(lambda y, z: lax.optimization_barrier((y, z)), (x, 1), (x, float0)),
         (x,)),
        ("grad-barrier", impl.grad(lambda y: lax.reduce_sum(lax.optimization_barrier(y) * y, (0,))), (x,)),
        ("vmap-barrier", impl.vmap(lambda y: lax.optimization_barrier((y, 2))), (x,)),
        ("jvp-dce_sink", lambda x: impl.jvp(lax.dce_sink, (x,), (x,)), (x,)),
        ("grad-dce_sink", impl.grad(lambda y: [lax.dce_sink(y), lax.sin(y)][1]), (s,)),
        ("vmap-dce_sink", impl.vmap(lax.dce_sink), (x,)),
        ("jvp-stage", lambda x: impl.jvp(lax.stage, (x,), (x,)), (x,)),
        ("vmap-stage", impl.vmap(lambda y: lax.stage(y) * 2), (x,)),
        ("device_put", lambda x: put(x, 1), (x,)),
        ("jvp-device_put", lambda x: impl.jvp(lambda y: put(y, 1), (x,), (x,)), (x,)),
        ("grad-device_put", impl.grad(lambda y: lax.sin(put(y)[0])), (s,)),
        ("vmap-device_put", impl.vmap(lambda y: put(y, 2)), (x,)),
    ]


def sharding_transforms(impl, lax, sharding):
    """``(name, function, arguments)``: with_sharding_constraint to the one-device ``sharding``, transformed."""
    x = np.arange(3, dtype=f32)
    constrain = lambda y: lax.with_sharding_constraint(y, sharding)  # noqa: E731
    return [
        ("constraint-tree", lambda x: lax.with_sharding_constraint((x, 2 * x), (sharding, sharding)), (x,)),
        ("constraint-weak", lambda: constrain(2.0), ()),
        ("jvp-constraint", lambda x: impl.jvp(constrain, (x,), (x,)), (x,)),
        ("grad-constraint", impl.grad(lambda y: lax.reduce_sum(constrain(y), (0,))), (x,)),
        ("vmap-constraint", impl.vmap(constrain), (np.ones((2, 3), f32),)),
        ("vmap-constraint-axis-1", impl.vmap(impl.vmap(constrain), in_axes=1), (np.ones((2, 3, 4), f32),)),
    ]


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    one_device = module.sharding.SingleDeviceSharding(module.devices()[0])
    golden = {"cases": record(module, CASES), "jaxprs": render_table(sys.argv[1], transforms),
              "sharding_jaxprs": render_table(sys.argv[1], lambda impl, lax: sharding_transforms(impl, lax,
                                                                                                  one_device))}
    (HERE / "barriers_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
