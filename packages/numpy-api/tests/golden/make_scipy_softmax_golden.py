"""Golden records of ``jax.scipy.special.logsumexp``, ``softmax`` and ``log_softmax`` (see scipy_golden.py)."""

import numpy as np
import scipy_golden
from jnp_golden import rand

X = rand((2, 3), "float32", 0)
B = rand((2, 3), "float32", 1)
EDGES = np.array([[np.inf, 1.0, -np.inf], [-np.inf, -np.inf, -np.inf]], np.float32)


def case(fn, *args):
    return lambda m: (lambda *a: fn(m.scipy.special, *a), list(args))


CASES = {
    "logsumexp": case(lambda s, a: s.logsumexp(a), X),
    "logsumexp_axis": case(lambda s, a: s.logsumexp(a, axis=1), X),
    "logsumexp_axis_tuple_keepdims": case(lambda s, a: s.logsumexp(a, axis=(0, 1), keepdims=True), X),
    "logsumexp_b": case(lambda s, a, b: s.logsumexp(a, b=b), X, B),
    "logsumexp_b_sign_keepdims": case(lambda s, a, b: s.logsumexp(a, axis=1, b=b, keepdims=True, return_sign=True),
                                      X, B - 0.5),
    "logsumexp_return_sign": case(lambda s, a: s.logsumexp(a, axis=0, return_sign=True), X),
    "logsumexp_where": case(lambda s, a, w: s.logsumexp(a, axis=0, where=w), X, X > 0),
    "logsumexp_int": case(lambda s, a: s.logsumexp(a, axis=-1), np.arange(3, dtype=np.int32)),
    "logsumexp_int_weak_b": case(lambda s, a: s.logsumexp(a, b=2.0, axis=0, keepdims=True),
                                 np.arange(3, dtype=np.int32)),
    "logsumexp_weak_scalar": case(lambda s, a: s.logsumexp(a), 1.0),
    "logsumexp_edges": case(lambda s, a: s.logsumexp(a, axis=1), EDGES),
    "logsumexp_empty": case(lambda s, a: s.logsumexp(a), np.zeros((0,), np.float32)),
    "logsumexp_bad_axis": case(lambda s, a: s.logsumexp(a, axis=2), X),
    "logsumexp_duplicate_axis": case(lambda s, a: s.logsumexp(a, axis=(0, 0)), X),
    "logsumexp_b_shape": case(lambda s, a, b: s.logsumexp(a, b=b), X, np.ones(4, np.float32)),
    "logsumexp_list": lambda m: (lambda: m.scipy.special.logsumexp([1.0, 2.0]), []),
    "logsumexp_grad": lambda m: (m.grad(lambda a: m.scipy.special.logsumexp(a)), [X]),
    "softmax": case(lambda s, a: s.softmax(a), X),
    "softmax_axis": case(lambda s, a: s.softmax(a, axis=1), X),
    "softmax_weak_scalar": case(lambda s, a: s.softmax(a), 2.0),
    "softmax_int": case(lambda s, a: s.softmax(a, axis=0), np.arange(3, dtype=np.int32)),
    "softmax_edges": case(lambda s, a: s.softmax(a, axis=1), EDGES),
    "softmax_bad_axis": case(lambda s, a: s.softmax(a, axis=3), X),
    "softmax_grad": lambda m: (m.grad(lambda a: m.scipy.special.softmax(a, axis=1)[0, 0]), [X]),
    "log_softmax": case(lambda s, a: s.log_softmax(a), X),
    "log_softmax_axis": case(lambda s, a: s.log_softmax(a, axis=0), X),
    "log_softmax_int": case(lambda s, a: s.log_softmax(a, axis=0), np.arange(3, dtype=np.int32)),
    "log_softmax_grad": lambda m: (m.grad(lambda a: m.scipy.special.log_softmax(a, axis=1)[1, 2]), [X]),
    "log_softmax_vmap": lambda m: (m.vmap(lambda a: m.scipy.special.log_softmax(a)), [X]),
}

if __name__ == "__main__":
    scipy_golden.write(CASES, "scipy_softmax_golden.json")
