"""Write lapack_decompositions_golden.json: the exact bits of lax.linalg's eigh, eig, svd, schur, hessenberg,
tridiagonal and qdwh (and of a few derivatives) computed jitted on CPU, as the named module computes them:

    /work/jaxpeer/bin/python packages/xla/tests/golden/make_lapack_decompositions_golden.py jax

Each case maps a name to ``build(module) -> (function, args)``, where ``module`` is jax or jaxle_core (with XLA as
its backend); the cases named ``x64-...`` run with 64-bit types enabled. Outputs are stored as their bytes in hex,
so that a test can ask for the same bits.
"""

import importlib
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
GOLDEN = HERE / "lapack_decompositions_golden.json"


def _matrix(shape, dtype, seed):
    """Fixed test matrices: normal entries (complex ones with normal imaginary parts)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _hermitian(n, dtype, batch=(), seed=0):
    a = _matrix((*batch, n, n), dtype, seed)
    return (a + np.conj(np.swapaxes(a, -1, -2))) / 2


def _call(name, x, **params):
    def build(module):
        return module.jit(lambda a: getattr(module.lax.linalg, name)(a, **params)), (x,)
    return build


def _grad_eigh(x):
    def build(module):
        lax = module.lax

        def loss(a):
            v, w = lax.linalg.eigh(a)
            return lax.reduce_sum(w * w, (0,)) + lax.reduce_sum(v * v * np.arange(9.0).reshape(3, 3), (0, 1))
        return module.jit(module.grad(loss)), (x,)
    return build


def _jvp_svd(x, t):
    def build(module):
        return module.jit(lambda a, b: module.jvp(
            lambda c: module.lax.linalg.svd(c, full_matrices=False), (a,), (b,))), (x, t)
    return build


def _svd_qr(x):
    def build(module):
        linalg = module.lax.linalg
        return module.jit(lambda a: linalg.svd(a, algorithm=linalg.SvdAlgorithm.QR)), (x,)
    return build


CASES = {}
for _dtype in ["float32", "float64", "complex64", "complex128"]:
    _prefix = "x64-" if _dtype in ("float64", "complex128") else ""
    CASES.update({
        f"{_prefix}eigh-{_dtype}": _call("eigh", _hermitian(4, _dtype, seed=1)),
        f"{_prefix}eig-{_dtype}": _call("eig", _matrix((4, 4), _dtype, 2)),
        f"{_prefix}svd-{_dtype}": _call("svd", _matrix((4, 3), _dtype, 3)),
        f"{_prefix}svd-thin-wide-{_dtype}": _call("svd", _matrix((3, 5), _dtype, 4), full_matrices=False),
        f"{_prefix}schur-{_dtype}": _call("schur", _matrix((4, 4), _dtype, 5)),
        f"{_prefix}hessenberg-{_dtype}": _call("hessenberg", _matrix((4, 4), _dtype, 6)),
        f"{_prefix}tridiagonal-{_dtype}": _call("tridiagonal", _hermitian(4, _dtype, seed=7)),
        f"{_prefix}qdwh-{_dtype}": _call("qdwh", _matrix((4, 3), _dtype, 19)),
    })
CASES.update({
    "eigh-batch-upper": _call("eigh", _matrix((2, 3, 3), "float32", 8), lower=False, symmetrize_input=False),
    "eig-values": _call("eig", _matrix((2, 3, 3), "float32", 9), compute_left_eigenvectors=False,
                        compute_right_eigenvectors=False),
    "eig-right": _call("eig", _matrix((3, 3), "complex64", 10), compute_left_eigenvectors=False),
    "svd-values": _call("svd", _matrix((2, 4, 3), "float32", 11), compute_uv=False),
    "svd-qr": _svd_qr(_matrix((3, 4), "float32", 12)),
    "svd-empty-full": _call("svd", np.ones((2, 0), np.float32)),
    "svd-empty-batch": _call("svd", np.ones((0, 2, 3), np.float32)),
    "eigh-empty": _call("eigh", np.ones((0, 0), np.float32)),
    "schur-form-only": _call("schur", _matrix((3, 3), "float32", 13), compute_schur_vectors=False),
    "tridiagonal-upper": _call("tridiagonal", _hermitian(3, "float32", seed=14), lower=False),
    "hessenberg-batch": _call("hessenberg", _matrix((2, 3, 3), "float32", 15)),
    "grad-eigh": _grad_eigh(_hermitian(3, "float32", seed=16)),
    "jvp-svd": _jvp_svd(_matrix((4, 3), "float32", 17), _matrix((4, 3), "float32", 18)),
})


def encode(x) -> dict:
    x = np.asarray(x)
    return {"dtype": x.dtype.name, "shape": list(x.shape), "hex": x.tobytes().hex()}


def _leaves(outs):
    if isinstance(outs, (tuple, list)):
        return [leaf for out in outs for leaf in _leaves(out)]
    return [outs]


def run(module, build) -> list[dict]:
    fn, args = build(module)
    return [encode(leaf) for leaf in _leaves(fn(*args))]


def x64_flag(module):
    """The context manager enabling 64-bit types: ``jax.enable_x64`` or ``jaxle_core.config.enable_x64``."""
    return module.enable_x64 if hasattr(module, "enable_x64") else module.config.enable_x64


def record(module) -> dict:
    golden = {}
    for name, build in CASES.items():
        with x64_flag(module)(name.startswith("x64-")):
            golden[name] = run(module, build)
    return golden


if __name__ == "__main__":
    outcomes = record(importlib.import_module(sys.argv[1]))
    GOLDEN.write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n")
