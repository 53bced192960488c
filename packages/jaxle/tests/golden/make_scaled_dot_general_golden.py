"""Write scaled_dot_general_golden.json: JAX's jaxprs of ``jax.nn.scaled_dot_general`` (forward and gradient, mxfp8
and nvfp4, several dimension numbers), the error its CPU compilation raises, and the quantized operands and scales
JAX feeds to ``scaled_matmul`` (their bytes), replayed by test_nn_scaled_dot_general.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_scaled_dot_general_golden.py jax
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden

BATCHED = (((2,), (2,)), ((0,), (0,)))
MATMUL = (((1,), (0,)), ((), ()))
# lhs [2, 5, 3, 64] batched over 0, rhs [6, 64, 2, 4] batched over 2: both operands transposed and reshaped.
GENERAL = (((3,), (1,)), ((0,), (2,)))
# lhs [2, 4, 8, 64] and rhs [64, 2, 32]: M = N = 32, so the gradient's products contract whole blocks too.
GENERAL_GRAD = (((3,), (0,)), ((0,), (1,)))


def operands(lhs_shape, rhs_shape, seed=0):
    """Normal samples whose blocks span magnitudes from 2^-8 to 2^6, with one block of zeros in ``lhs``."""
    rng = np.random.default_rng(seed)
    out = []
    for shape in (lhs_shape, rhs_shape):
        x = rng.standard_normal(shape) * 2.0 ** rng.integers(-8, 7, shape[:-1] + (1,))
        out.append(x.astype(np.float32))
    out[0].reshape(-1)[:32] = 0.0
    return out


# name: (mode, global scale or None, lhs shape, rhs shape, dimension numbers, preferred element type or None).
CASES = {
    "mxfp8_batched": ("mxfp8", None, (2, 3, 64), (2, 4, 64), BATCHED, None),
    "mxfp8_matmul": ("mxfp8", None, (3, 64), (64, 4), MATMUL, None),
    "mxfp8_general": ("mxfp8", None, (2, 5, 3, 64), (6, 64, 2, 4), GENERAL, None),
    "mxfp8_bfloat16_out": ("mxfp8", None, (1, 2, 32), (1, 3, 32), BATCHED, "bfloat16"),
    "nvfp4_batched": ("nvfp4", None, (2, 3, 32), (2, 4, 32), BATCHED, None),
    "nvfp4_global_scale": ("nvfp4", [0.5], (3, 32), (32, 2), MATMUL, None),
    "none_batched": (None, None, (2, 3, 64), (2, 4, 64), BATCHED, None),
    "mxfp8_k_error": ("mxfp8", None, (2, 3, 48), (2, 4, 48), BATCHED, None),
}
GRAD_CASES = {
    "mxfp8_batched": ("mxfp8", None, (1, 32, 64), (1, 64, 64), BATCHED, None),
    "mxfp8_matmul": ("mxfp8", None, (32, 64), (64, 32), MATMUL, None),
    "mxfp8_general": ("mxfp8", None, (2, 4, 8, 64), (64, 2, 32), GENERAL_GRAD, None),
    "nvfp4_batched": ("nvfp4", None, (1, 16, 32), (1, 16, 32), BATCHED, None),
}


def build(m, mode, scale, lhs_shape, rhs_shape, dimension_numbers, preferred):
    """The function of the operands and the operands of one case."""
    configs = None
    if mode is not None:
        global_scale = None if scale is None else m.numpy.array(scale, np.float32)
        configs = [m.nn.get_scaled_dot_general_config(mode, global_scale)] * 3
    kwargs = {} if preferred is None else {"preferred_element_type": np.dtype(preferred)}

    def fn(lhs, rhs):
        return m.nn.scaled_dot_general(lhs, rhs, dimension_numbers, configs=configs, **kwargs)

    return fn, operands(lhs_shape, rhs_shape)


def _bytes(x) -> str:
    return np.asarray(x).view(np.uint8).tobytes().hex()


def scaled_matmul_inputs(m, closed, args) -> list:
    """Evaluate ``closed`` on ``args`` op by op, recording the inputs of each ``_scaled_matmul`` (whose CPU lowering
    does not exist) and standing in zeros for its result."""
    recorded = []

    def run(jaxpr, consts, values):
        env = dict(zip(jaxpr.constvars, consts))
        env.update(zip(jaxpr.invars, values))

        def read(atom):
            return atom.val if type(atom).__name__ == "Literal" else env[atom]

        for eqn in jaxpr.eqns:
            ins = [read(v) for v in eqn.invars]
            if eqn.primitive.name == "custom_vjp_call":
                inner = eqn.params["call_jaxpr"]
                outs = run(inner.jaxpr, inner.consts, ins)
            elif eqn.primitive.name == "jit" and eqn.params["name"] == "_scaled_matmul":
                recorded.append([_bytes(x) for x in ins])
                outs = [m.numpy.zeros(v.aval.shape, v.aval.dtype) for v in eqn.outvars]
            else:
                outs = eqn.primitive.bind(*ins, **eqn.params)
                outs = outs if eqn.primitive.multiple_results else [outs]
            env.update(zip(eqn.outvars, outs))
        return [read(v) for v in jaxpr.outvars]

    run(closed.jaxpr, closed.consts, args)
    return recorded


def record(m, case, grad=False) -> dict:
    product, args = build(m, *case)
    args = [m.numpy.asarray(x) for x in args]
    fn = m.grad(lambda lhs, rhs: product(lhs, rhs).sum(), argnums=(0, 1)) if grad else product
    try:
        closed = m.make_jaxpr(fn)(*args)
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error)}
    out = {"jaxpr": str(closed)}
    if grad:
        return out
    if case[0] is not None:
        out["scaled_matmul_inputs"] = scaled_matmul_inputs(m, closed, args)
    try:
        out["value"] = _bytes(fn(*args))
    except Exception as error:  # noqa: BLE001
        out.update(run_error=type(error).__name__, run_message=str(error))
    return out


def main() -> None:
    m = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.numpy")
    records = {name: record(m, case) for name, case in CASES.items()}
    records.update({f"grad_{name}": record(m, case, grad=True) for name, case in GRAD_CASES.items()})
    path = pathlib.Path(__file__).parent / "scaled_dot_general_golden.json"
    write_golden(records, path)


if __name__ == "__main__":
    main()
