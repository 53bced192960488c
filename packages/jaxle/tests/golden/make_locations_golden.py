"""Write locations_golden.json: where JAX 0.10.2's lowered text locates a jitted function's operations:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_locations_golden.py jax

For each case: the StableHLO text with ``debug_info=True`` (each operation at its name stack, ``jit(f)/jvp()/mul``,
over the user's frames that staged it), the HLO text (instructions named after those locations, ``mul.1``), with
and without ``debug_info`` (a scan's loop located at the operations of the helper JAX traces to lower it), for some
the text of the program compiled (XLA compiles it located: its instructions named and carrying their frames), the
text of a function exported (located, its module saying whether it uses shape polymorphism), or the
message of MLIR's verifier refusing the program (naming the operation's
location). Each case is lowered in a thread of its own, so that the only frames outside this file are the
standard library's (which no location names) and NumPy's (a Jacobian's blocks are reshaped through it); this
folder's path is left out of the locations, and NumPy's folder is written ``numpy``.
"""

import importlib
import pathlib
import sys
import threading

import numpy as np
from golden_writer import write_golden

HERE = pathlib.Path(__file__).parent
NUMPY = pathlib.Path(np.__file__).parent
X = np.arange(3, dtype=np.float32)


def _simple(m):
    def f(x):
        y = x * 2.0
        return m.numpy.sin(y) + 1.0

    return m.jit(f).lower(X)


def _nested_jit(m):
    def inner(x):
        return m.numpy.cos(x) - 1.0

    def outer(x):
        return m.jit(inner)(x) * 3.0

    return m.jit(outer).lower(X)


def _grad(m):
    def loss(x):
        return m.numpy.sum(m.numpy.sin(x * 2.0))

    return m.jit(m.grad(loss)).lower(X)


def _vmap(m):
    def f(x):
        return m.numpy.sin(x) * 2.0

    return m.jit(m.vmap(f)).lower(np.ones((2, 3), np.float32))


def _cond(m):
    def f(p, x):
        return m.lax.cond(p, lambda x: x + 1.0, lambda x: x - 1.0, x)

    return m.jit(f).lower(True, X)


def _while(m):
    def f(x):
        return m.lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 2.0), (0, x))[1]

    return m.jit(f).lower(X)


def _named_scope(m):
    def f(x):
        with m.named_scope("outer"):
            y = m.numpy.cos(x)
        return m.numpy.sum(y)

    return m.jit(m.grad(f)).lower(X)


def _scan(m):
    def f(x):
        return m.lax.scan(lambda c, xi: (c + xi, c * xi), 0.0, x)

    return m.jit(f).lower(X)


def _scan_in_scope(m):
    def g(x):
        return m.lax.scan(lambda c, xi: (c * xi, m.numpy.sin(xi)), 1.0, x)

    def f(x):
        with m.named_scope("outer"):
            return g(x)

    # over xs of a shape of their own: JAX's helpers slicing them are traced once per shape, and keep the frames
    # of the first scan that traced them
    return m.jit(f).lower(np.ones(4, np.float32))


def _scan_unrolled(m):
    def f(x):
        return m.lax.scan(lambda c, xi: (c + xi, c * xi), 0.0, x, unroll=2)

    return m.jit(f).lower(np.ones(6, np.float32))


def _scan_unrolled_remainder(m):
    def f(x):
        return m.lax.scan(lambda c, xi: (c * xi, m.numpy.sin(c)), 1.0, x, unroll=3)

    # seven steps: two trips of three, and one step after the loop
    return m.jit(f).lower(np.ones(7, np.float32))


def _scan_fully_unrolled(m):
    def f(x):
        return m.lax.scan(lambda c, xi: (c + xi, c * xi), 0.0, x, unroll=True)

    return m.jit(f).lower(np.ones(4, np.float32))


def _grad_of_scan_unrolled(m):
    def loss(x):
        return m.numpy.sum(m.lax.scan(lambda c, xi: (c * xi, m.numpy.sin(c)), 1.0, x, unroll=2)[1])

    return m.jit(m.grad(loss)).lower(np.ones(5, np.float32))


def _fori_loop(m):
    def f(x):
        return m.lax.fori_loop(0, 4, lambda i, c: c * 2.0 + i, x)

    return m.jit(f).lower(X)


def _grad_of_grad(m):
    def f(x):
        return m.numpy.sin(x) * x

    return m.jit(m.grad(m.grad(f))).lower(np.float32(2.0))


def _vmap_of_grad(m):
    def loss(x):
        with m.named_scope("inner"):
            y = m.numpy.sin(x)
        return m.numpy.sum(y * x)

    return m.jit(m.vmap(m.grad(loss))).lower(np.ones((2, 3), np.float32))


def _grad_of_jit(m):
    @m.jit
    def g(x):
        return m.numpy.sin(x) * x

    def loss(x):
        return m.numpy.sum(g(x))

    return m.jit(m.grad(loss)).lower(X)


def _vmap_of_jit(m):
    @m.jit
    def g(x):
        return m.numpy.cos(x) * 2.0

    return m.jit(m.vmap(g)).lower(np.ones((2, 3), np.float32))


def _grad_of_cond(m):
    def loss(p, x):
        return m.numpy.sum(m.lax.cond(p, m.numpy.sin, lambda x: x * 2.0, x))

    return m.jit(m.grad(loss, argnums=1)).lower(True, X)


def _jacrev(m):
    def f(x):
        return m.numpy.sin(x) * x

    return m.jit(m.jacrev(f)).lower(X)


def _custom_jvp(m):
    @m.custom_jvp
    def f(x):
        return m.numpy.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        with m.named_scope("rule"):
            return f(x), m.numpy.cos(x) * t * 2.0

    return f


def _custom_jvp_grad(m):
    f = _custom_jvp(m)

    def loss(x):
        with m.named_scope("outer"):
            return m.numpy.sum(f(x) * x)

    # the rule's linear operations named under the call's name stack, then the rule's own
    return m.jit(m.grad(loss)).lower(X)


def _custom_jvp_vmap_grad(m):
    f = _custom_jvp(m)
    return m.jit(m.vmap(m.grad(lambda x: f(x) * x))).lower(X)


def _custom_jvp_jvp(m):
    f = _custom_jvp(m)
    return m.jit(lambda x: m.jvp(f, (x,), (x,))).lower(X)


def _checkpoint_grad(m):
    def g(x):
        with m.named_scope("inner"):
            return m.numpy.sin(m.numpy.sin(x))

    def loss(x):
        with m.named_scope("outer"):
            return m.numpy.sum(m.checkpoint(g)(x) * 2.0)

    # the recomputation under ``checkpoint/rematted_computation``
    return m.jit(m.grad(loss)).lower(X)


def _checkpoint_vmap_grad(m):
    def loss(x):
        return m.numpy.sum(m.checkpoint(lambda y: m.numpy.sin(m.numpy.sin(y)))(x))

    return m.jit(m.vmap(m.grad(loss))).lower(np.ones((2, 3), np.float32))


def _hessian(m):
    def f(x):
        return m.numpy.sum(m.numpy.sin(x) * x)

    return m.jit(m.hessian(f)).lower(X)


def _jacrev_matrix(m):
    def f(x):
        return m.numpy.sin(x) * x[0]

    # the blocks reshaped through NumPy's ``reshape``, whose frames locate them
    return m.jit(m.jacrev(f)).lower(np.ones((2, 3), np.float32))


def _reduce_window(m):
    def f(x):
        return m.lax.reduce_window(x, 0.0, m.lax.add, (2,), (1,), "VALID")

    # its region's arguments located after the primitive
    return m.jit(f).lower(X)


CASES = {"simple": _simple, "nested_jit": _nested_jit, "grad": _grad, "vmap": _vmap, "cond": _cond,
         "while": _while, "named_scope": _named_scope, "scan": _scan, "scan_in_scope": _scan_in_scope,
         "fori_loop": _fori_loop, "grad_of_grad": _grad_of_grad, "vmap_of_grad": _vmap_of_grad,
         "grad_of_jit": _grad_of_jit, "vmap_of_jit": _vmap_of_jit, "grad_of_cond": _grad_of_cond, "jacrev": _jacrev,
         "scan_unrolled": _scan_unrolled, "scan_unrolled_remainder": _scan_unrolled_remainder,
         "scan_fully_unrolled": _scan_fully_unrolled, "grad_of_scan_unrolled": _grad_of_scan_unrolled,
         "custom_jvp_grad": _custom_jvp_grad, "custom_jvp_vmap_grad": _custom_jvp_vmap_grad,
         "custom_jvp_jvp": _custom_jvp_jvp, "checkpoint_grad": _checkpoint_grad,
         "checkpoint_vmap_grad": _checkpoint_vmap_grad, "hessian": _hessian, "jacrev_matrix": _jacrev_matrix,
         "reduce_window": _reduce_window}


def _key_refusal_lowered(m):
    keys = m.random.split(m.random.key(0), 3)

    def f(k):
        return k.at[1].apply(lambda k: m.random.fold_in(k, 1))

    m.jit(f).lower(keys)


def _key_refusal_called(m):
    keys = m.random.split(m.random.key(0), 3)

    def f(k):
        return k.at[1].apply(lambda k: m.random.fold_in(k, 1))

    m.jit(f)(keys)


# the cases whose compiled program is recorded too (XLA compiles the located module: its instructions named after
# the locations, with their stack frames, its parameters after the arguments)
COMPILED = ("simple", "nested_jit", "grad", "vmap", "cond", "named_scope", "grad_of_jit", "vmap_of_grad")

def _export_simple(m):
    def f(x):
        return m.numpy.sin(x) * 2.0

    return importlib.import_module(f"{m.__name__}.export").export(m.jit(f))(X)


def _export_grad(m):
    def loss(x, y):
        with m.named_scope("scaled"):
            return m.numpy.sum(m.numpy.cos(x) * y)

    return importlib.import_module(f"{m.__name__}.export").export(m.jit(m.grad(loss)))(X, X)


# the exported modules' text (located, as JAX exports them, and saying they use no shape polymorphism)
EXPORTS = {"export_simple": _export_simple, "export_grad": _export_grad}

REFUSALS = {"verifier_error_lowered": _key_refusal_lowered, "verifier_error_called": _key_refusal_called}


def _relative(text):
    """``text`` with this folder's path left out, and NumPy's folder (which differs between environments) named
    ``numpy``."""
    return text.replace(f"{HERE}/", "").replace(f"{NUMPY}/", "numpy/")


def _in_thread(fun):
    """What ``fun()`` returns, run in a new thread (its outer frames the standard library's)."""
    result = {}

    def run():
        try:
            result["value"] = fun()
        except Exception as e:  # recorded as the outcome
            result["error"] = e

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return result


def record(m):
    """Every case's lowered texts (or error) with ``m`` as jax."""
    out = {}
    for name, case in CASES.items():
        lowered = _in_thread(lambda case=case: case(m))["value"]
        out[name] = {
            "stablehlo": _relative(lowered.as_text(debug_info=True)),
            "hlo": lowered.as_text("hlo"),
            "debug_hlo": _relative(lowered.as_text("hlo", debug_info=True)),
        }
        if name in COMPILED:
            out[name]["compiled"] = _relative(lowered.compile().as_text())
    for name, case in EXPORTS.items():
        out[name] = _relative(_in_thread(lambda case=case: case(m))["value"].mlir_module())
    for name, case in REFUSALS.items():
        error = _in_thread(lambda case=case: case(m))["error"]
        out[name] = f"{type(error).__name__}: {_relative(str(error))}"
    return out


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    write_golden(record(module), HERE / "locations_golden.json")
