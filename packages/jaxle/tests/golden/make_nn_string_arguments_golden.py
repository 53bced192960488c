"""Write nn_string_arguments_golden.json: JAX 0.10.2's errors for ``jax.nn`` and ``jax.scipy.special`` functions and
for ``custom_jvp``/``custom_vjp`` functions given a string or bytes where an array goes, eagerly and inside jit (the
records of packages/numpy-api/tests/golden/make_string_arguments_golden.py, whose machinery this reuses); replayed
by test_nn_string_arguments.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_nn_string_arguments_golden.py jax
"""

from __future__ import annotations

import importlib
import pathlib
import sys
from collections.abc import Callable
from typing import Any

_NUMPY_GOLDEN = pathlib.Path(__file__).parents[3] / "numpy-api" / "tests" / "golden"
if str(_NUMPY_GOLDEN) not in sys.path:
    sys.path.insert(0, str(_NUMPY_GOLDEN))

import make_string_arguments_golden as machinery  # noqa: E402 - found through the path set just above


def _identity_with_jvp(m: Any) -> Callable:
    f = m.custom_jvp(lambda x: x)
    f.defjvp(lambda primals, tangents: (primals[0], tangents[0]))
    return f


CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "gelu": lambda m, s: m.nn.gelu(s),
    "gelu_exact": lambda m, s: m.nn.gelu(s, approximate=False),
    "relu": lambda m, s: m.nn.relu(s),
    "relu6": lambda m, s: m.nn.relu6(s),
    "softmax": lambda m, s: m.nn.softmax(s),
    "log_softmax": lambda m, s: m.nn.log_softmax(s),
    "sigmoid": lambda m, s: m.nn.sigmoid(s),
    "silu": lambda m, s: m.nn.silu(s),
    "logsumexp": lambda m, s: m.nn.logsumexp(s),
    "one_hot": lambda m, s: m.nn.one_hot(s, 3),
    "elu": lambda m, s: m.nn.elu(s),
    "leaky_relu": lambda m, s: m.nn.leaky_relu(s),
    "celu": lambda m, s: m.nn.celu(s),
    "selu": lambda m, s: m.nn.selu(s),
    "glu": lambda m, s: m.nn.glu(s),
    "standardize": lambda m, s: m.nn.standardize(s),
    "softplus": lambda m, s: m.nn.softplus(s),
    "hard_tanh": lambda m, s: m.nn.hard_tanh(s),
    "hard_sigmoid": lambda m, s: m.nn.hard_sigmoid(s),
    "squareplus": lambda m, s: m.nn.squareplus(s),
    "mish": lambda m, s: m.nn.mish(s),
    "log_sigmoid": lambda m, s: m.nn.log_sigmoid(s),
    "sparse_plus": lambda m, s: m.nn.sparse_plus(s),
    "tanh": lambda m, s: m.nn.tanh(s),
    "nn_identity": lambda m, s: m.nn.identity(s),
    "dot_product_attention": lambda m, s: m.nn.dot_product_attention(s, s, s),
    "special_erf": lambda m, s: m.scipy.special.erf(s),
    "special_logsumexp": lambda m, s: m.scipy.special.logsumexp(s),
    "custom_jvp": lambda m, s: _identity_with_jvp(m)(s),
    "custom_jvp_list": lambda m, s: _identity_with_jvp(m)([s]),
}


def records(m: Any) -> dict:
    return machinery.records(CALLS, m, m.jit)


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.scipy.special")
    machinery.HERE = pathlib.Path(__file__).parent
    machinery.write(records(module), "nn_string_arguments_golden.json")
