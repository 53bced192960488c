"""Write sparsify_golden.json: what ``jax.experimental.sparse.sparsify`` computes, stages and refuses, replayed by
test_sparsify.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_sparsify_golden.py jax

Per case: every result (a sparse one as its dense array and its layout), the ``make_jaxpr`` text for the cases in
``JAXPR_CASES``, or the exception's type and message for the cases in ``ERROR_CASES``.
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden
from make_sparse_golden import DENSE, MAT, ROWS, STACK, VEC, _bcoo, _duplicates, record_outputs, sparse_of

F32 = np.float32


def _sparsify(m, f, **kw):
    return sparse_of(m).sparsify(f, **kw)


def _bcsr(m):
    return sparse_of(m).BCSR.fromdense(MAT)


def _jnp(m):
    return m.numpy


# name -> build(m) -> (function, arguments); results and the jaxpr are compared
JAXPR_CASES = {
    "sin_matvec": lambda m: (_sparsify(m, lambda a, v: _jnp(m).sin(a) @ v), [_bcoo(m), VEC]),
    "mul_add": lambda m: (_sparsify(m, lambda a: a * 2.0 + a), [_bcoo(m)]),
    "jit_sin": lambda m: (_sparsify(m, lambda a: m.jit(_jnp(m).sin)(a)), [_bcoo(m)]),
    "cond": lambda m: (_sparsify(m, lambda a: m.lax.cond(True, _jnp(m).sin, lambda x: -x, a)), [_bcoo(m)]),
    "todense_of_dense": lambda m: (sparse_of(m).todense, [VEC]),
    "dense_arguments": lambda m: (_sparsify(m, lambda x, v: _jnp(m).sin(x) @ v), [MAT, VEC]),
}

# name -> build(m) -> (function, arguments); results only
VALUE_CASES = {
    "matvec": lambda m: (_sparsify(m, lambda a, v: a @ v), [_bcoo(m), VEC]),
    "vecmat": lambda m: (_sparsify(m, lambda a, v: v @ a), [_bcoo(m), ROWS]),
    "matmat_sparse": lambda m: (_sparsify(m, lambda a, b: a @ b), [_bcoo(m), _bcoo(m).T]),
    "sum_all": lambda m: (_sparsify(m, lambda a: a.sum()), [_bcoo(m)]),
    "sum_rows": lambda m: (_sparsify(m, lambda a: _jnp(m).sum(a, 0)), [_bcoo(m)]),
    "sum_batch": lambda m: (_sparsify(m, lambda a: a.sum(1)), [sparse_of(m).BCOO.fromdense(STACK, n_batch=1)]),
    "sum_batch_all": lambda m: (_sparsify(m, lambda a: a.sum()), [sparse_of(m).BCOO.fromdense(STACK, n_batch=1)]),
    "unary": lambda m: (_sparsify(m, lambda a: (_jnp(m).sin(a), abs(a), -a, _jnp(m).tanh(a), _jnp(m).sqrt(a * a),
                                                a.astype(_jnp(m).int32))), [_bcoo(m)]),
    "unary_duplicates": lambda m: (_sparsify(m, _jnp(m).sqrt), [_duplicates(m)]),
    "square_duplicates": lambda m: (_sparsify(m, lambda a: a ** 2), [_duplicates(m)]),
    "div": lambda m: (_sparsify(m, lambda a, x: (a / 4.0, a / x)), [_bcoo(m), MAT + 1]),
    "mul_dense": lambda m: (_sparsify(m, lambda a, x, v: (a * x, x * a, a * v)), [_bcoo(m), MAT + 1, VEC]),
    "mul_sparse": lambda m: (_sparsify(m, lambda a, b: (a * a, a * b)), [_bcoo(m), _duplicates(m).T]),
    "add_sparse": lambda m: (_sparsify(m, lambda a: (a + a, a + a.T.T, a - a)), [_bcoo(m)]),
    "add_dense": lambda m: (_sparsify(m, lambda a, x: (a + x, x + a)), [_bcoo(m), MAT]),
    "transpose_reshape": lambda m: (_sparsify(m, lambda a: (a.T, a.reshape(12), a.reshape(2, 6), a[None])),
                                    [_bcoo(m)]),
    "concatenate": lambda m: (_sparsify(m, lambda a: _jnp(m).concatenate([a, a], axis=1)), [_bcoo(m)]),
    "flip": lambda m: (_sparsify(m, lambda a: _jnp(m).flip(a, 0)), [_bcoo(m)]),
    "broadcast": lambda m: (_sparsify(m, lambda a: _jnp(m).broadcast_to(a, (2, 3, 4))), [_bcoo(m)]),
    "todense": lambda m: (_sparsify(m, lambda a: sparse_of(m).todense(a) + 1.0), [_bcoo(m)]),
    "fori_loop": lambda m: (_sparsify(m, lambda a, v: m.lax.fori_loop(0, 3, lambda i, c: c * 2.0, a) @ v),
                            [_bcoo(m), VEC]),
    "fori_loop_add": lambda m: (_sparsify(m, lambda a: m.lax.fori_loop(0, 3, lambda i, c: c + c, a)), [_bcoo(m)]),
    "scan_carry": lambda m: (_sparsify(m, lambda a, v: m.lax.scan(lambda c, _: (c * 2.0, None), a, None, length=3)),
                             [_bcoo(m), VEC]),
    "jit_reduce": lambda m: (_sparsify(m, lambda a: m.jit(lambda x: x.sum(0))(a)), [_bcoo(m)]),
    "closure": lambda m: (_sparsify(m, lambda a: a @ DENSE + DENSE[:3].sum()), [_bcoo(m)]),
    "pytree_arguments": lambda m: (_sparsify(m, lambda d: {"y": d["a"] @ d["v"], "a": d["a"]}),
                                   [{"a": _bcoo(m), "v": VEC}]),
    "bcsr_unary": lambda m: (_sparsify(m, lambda a: (_jnp(m).sin(a), a.astype(_jnp(m).int32))), [_bcsr(m)]),
    "bcsr_matvec": lambda m: (_sparsify(m, lambda a, v: a @ v), [_bcsr(m), VEC]),
    "tracer_unary": lambda m: (_sparsify(m, lambda a, v: (_jnp(m).sin(a), a @ v, a.sum(0)), use_tracer=True),
                               [_bcoo(m), VEC]),
    "tracer_repr": lambda m: (_sparsify(m, lambda a: np.array([ord(c) for c in repr(a)]), use_tracer=True),
                              [_bcoo(m)]),
    "grad_through": lambda m: (m.grad(_sparsify(m, lambda d, i, v: (sparse_of(m).BCOO((d, i), shape=MAT.shape)
                                                                    @ v).sum())),
                               [_bcoo(m).data, _bcoo(m).indices, VEC]),
}

# name -> build(m) -> (function, arguments); the exception raised (type and, unless listed, message)
ERROR_CASES = {
    "cos": lambda m: (_sparsify(m, _jnp(m).cos), [_bcoo(m)]),
    "compare": lambda m: (_sparsify(m, lambda a: a > 0), [_bcoo(m)]),
    "reduce_max": lambda m: (_sparsify(m, _jnp(m).max), [_bcoo(m)]),
    "maximum": lambda m: (_sparsify(m, lambda a: _jnp(m).maximum(a, 0.0)), [_bcoo(m)]),
    "divide_by_sparse": lambda m: (_sparsify(m, lambda a: 1.0 / a), [_bcoo(m)]),
    "negative_power": lambda m: (_sparsify(m, lambda a: a ** -1), [_bcoo(m)]),
    "subtract_dense": lambda m: (_sparsify(m, lambda a, x: x - a), [_bcoo(m), MAT]),
    "add_scalar": lambda m: (_sparsify(m, lambda a: a + 1.0), [_bcoo(m)]),
    "bcsr_sum": lambda m: (_sparsify(m, lambda a: a.sum()), [_bcsr(m)]),
    "bcsr_transpose": lambda m: (_sparsify(m, lambda a: a.T), [_bcsr(m)]),
    "mixed_formats": lambda m: (_sparsify(m, lambda a, b: a + b), [_bcoo(m), _bcsr(m)]),
    "tracer_exp": lambda m: (_sparsify(m, _jnp(m).exp, use_tracer=True), [_bcoo(m)]),
    "loop_changes_carry": lambda m: (_sparsify(m, lambda a: m.lax.fori_loop(0, 2, lambda i, c: c + c.T.T, a)),
                                     [_bcoo(m)]),
    "branches_differ": lambda m: (_sparsify(m, lambda a: m.lax.cond(True, lambda x: x, lambda x: x + x.T.T, a)),
                                  [_bcoo(m)]),
    "scan_dense_xs": lambda m: (_sparsify(m, lambda a: m.lax.scan(lambda c, x: (c * x, x), a, VEC)), [_bcoo(m)]),
    "scan_sparse_xs": lambda m: (_sparsify(m, lambda a: m.lax.scan(lambda c, x: (c, x.sum()), 0.0, a)), [_bcoo(m)]),
}
# errors whose message jaxle words its own way (the type is JAX's)
OWN_MESSAGE = {"loop_changes_carry", "branches_differ"}


def run_case(m, name: str) -> dict:
    """The results (or error) and, for a case of JAXPR_CASES, the jaxpr of one case with module ``m`` as ``jax``."""
    build = JAXPR_CASES.get(name) or VALUE_CASES.get(name) or ERROR_CASES[name]
    fun, args = build(m)
    try:
        out = fun(*args)
    except Exception as e:  # noqa: BLE001 - the error is the result recorded
        if name not in ERROR_CASES:
            raise
        return {"error": [type(e).__name__, str(e)]}
    return record_outputs(m, out, *((fun, args) if name in JAXPR_CASES else ()))


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    golden = {name: run_case(module, name) for name in (*JAXPR_CASES, *VALUE_CASES, *ERROR_CASES)}
    out = pathlib.Path(__file__).parent / "sparsify_golden.json"
    write_golden(golden, out)
