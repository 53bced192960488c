"""Write fft_golden.json: the jaxprs (full text), values and errors of lax.fft and of its jvp, grad, vmap and
linear transpose, as the named module computes them:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_fft_golden.py jax

Each case maps a name to ``build(module) -> (function, args)``, where ``module`` is jax or jaxle_core; the cases
of ``X64_CASES`` run with 64-bit types enabled.
"""

import importlib
import json
import sys

import numpy as np
from make_reductions_golden import HERE, assert_matches, rand, run_case

# The four transforms over one, two and three minor dimensions of a (2, 3, 4) array; IRFFT's input is the half
# spectrum (2, 3, 3) of an even last length, or of the odd length 5.
_LENGTHS = [(4,), (3, 4), (2, 3, 4)]


def _transform(kind, lengths, dtype):
    def build(module):
        shape = (2, 3, lengths[-1] // 2 + 1) if kind == "IRFFT" else (2, 3, 4)
        return (lambda x: module.lax.fft(x, kind, lengths)), (rand(shape, dtype),)
    return build


def _real_sum(module, y):
    """A real scalar depending on every part of ``y``: the sum of its real parts plus twice its imaginary parts."""
    lax = module.lax
    axes = tuple(range(y.ndim))
    if not np.issubdtype(y.dtype, np.complexfloating):
        return lax.reduce_sum(y, axes)
    return lax.reduce_sum(lax.real(y), axes) + lax.reduce_sum(lax.imag(y) * 2.0, axes)


def _grad(kind, lengths, dtype, shape):
    def build(module):
        return module.grad(lambda x: _real_sum(module, module.lax.fft(x, kind, lengths))), (rand(shape, dtype),)
    return build


def _jvp(kind, lengths, dtype, shape):
    def build(module):
        def f(x, t):
            return module.jvp(lambda y: module.lax.fft(y, kind, lengths), (x,), (t,))
        return f, (rand(shape, dtype), rand(shape, dtype, 1))
    return build


def _vmap(kind, lengths, dtype, shape, in_axes, out_axes=0):
    def build(module):
        return (module.vmap(lambda x: module.lax.fft(x, kind, lengths), in_axes=in_axes, out_axes=out_axes),
                (rand(shape, dtype),))
    return build


def _call(kind, lengths, x):
    def build(module):
        return (lambda y: module.lax.fft(y, kind, lengths)), (x,)
    return build


CASES = {}
for _n, _lengths in enumerate(_LENGTHS, 1):
    for _kind in ["FFT", "IFFT", "IRFFT"]:
        CASES[f"{_kind}-{_n}d"] = _transform(_kind, _lengths, "complex64")
    CASES[f"RFFT-{_n}d"] = _transform("RFFT", _lengths, "float32")
    CASES[f"grad-FFT-{_n}d"] = _grad("FFT", _lengths, "complex64", (2, 3, 4))
    CASES[f"grad-RFFT-{_n}d"] = _grad("RFFT", _lengths, "float32", (2, 3, 4))
    CASES[f"grad-IRFFT-{_n}d"] = _grad("IRFFT", _lengths, "complex64", (2, 3, 3))
CASES.update({
    "IRFFT-odd": _call("IRFFT", (5,), rand((2, 3), "complex64")),
    "RFFT-odd": _call("RFFT", (2, 5), rand((2, 5), "float32")),
    "FFT-1-element": _call("FFT", (1,), rand((1,), "complex64")),
    "RFFT-length-1": _call("RFFT", (1,), rand((3, 1), "float32")),
    "IRFFT-length-2": _call("IRFFT", (2,), rand((3, 2), "complex64")),
    "FFT-float32": _call("FFT", (4,), rand((3, 4), "float32")),
    "IFFT-int32": _call("IFFT", (4,), rand((3, 4), "int32")),
    "FFT-float16": _call("FFT", (4,), rand((3, 4), "float16")),
    "FFT-bool": _call("FFT", (4,), rand((3, 4), "bool")),
    "RFFT-int8": _call("RFFT", (4,), rand((3, 4), "int8")),
    "RFFT-uint32": _call("RFFT", (4,), rand((3, 4), "uint32")),
    "IRFFT-float32": _call("IRFFT", (4,), rand((3, 3), "float32")),
    "name-lowercase": _call("rfft", (4,), rand((3, 4), "float32")),
    "err-name-mixed-case": _call("iFft", (4,), rand((3, 4), "complex64")),
    "enum": lambda module: ((lambda x: module.lax.fft(x, module.lax.FftType.IRFFT, (4,))),
                            (rand((3, 3), "complex64"),)),
    "keywords": lambda module: ((lambda x: module.lax.fft(x, fft_type="FFT", fft_lengths=(4,))),
                                (rand((3, 4), "complex64"),)),
    "no-lengths-FFT-float32": _call("FFT", (), rand((3, 4), "float32")),
    "no-lengths-RFFT": _call("RFFT", (), rand((3, 4), "float32")),
    "no-lengths-IRFFT": _call("IRFFT", (), rand((3, 4), "complex64")),
    "no-lengths-IFFT-complex": _call("IFFT", (), rand((3, 4), "complex64")),
    "empty-FFT": _call("FFT", (0,), rand((3, 0), "complex64")),
    "empty-batch": _call("RFFT", (4,), rand((0, 4), "float32")),
    "weak-input": lambda module: ((lambda: module.lax.fft(module.lax.broadcast(1.0 + 2j, (4,)), "FFT", (4,))), ()),
    "weak-real-input": lambda module: ((lambda: module.lax.fft(module.lax.broadcast(1.5, (4,)), "RFFT", (4,))),
                                       ()),
    "nested-jit": lambda module: (module.jit(lambda x: module.lax.fft(x, "FFT", (3, 4)) * 2),
                                  (rand((3, 4), "complex64"),)),
    "jvp-FFT": _jvp("FFT", (4,), "complex64", (3, 4)),
    "jvp-RFFT": _jvp("RFFT", (3, 4), "float32", (3, 4)),
    "jvp-IRFFT": _jvp("IRFFT", (4,), "complex64", (3, 3)),
    "grad-IFFT": _grad("IFFT", (4,), "complex64", (3, 4)),
    "grad-IRFFT-odd": _grad("IRFFT", (5,), "complex64", (2, 3)),
    "grad-RFFT-odd": _grad("RFFT", (5,), "float32", (5,)),
    "grad-RFFT-1-element": _grad("RFFT", (1,), "float32", (2, 1)),
    "grad-IRFFT-length-2": _grad("IRFFT", (2,), "complex64", (2, 2)),
    "grad-of-float32-FFT": _grad("FFT", (4,), "float32", (3, 4)),
    "linear_transpose-RFFT": lambda module: (
        module.linear_transpose(lambda x: module.lax.fft(x, "RFFT", (4,)), rand((2, 2, 4), "float32")),
        (rand((2, 2, 3), "complex64"),)),
    "linear_transpose-IRFFT": lambda module: (
        module.linear_transpose(lambda x: module.lax.fft(x, "IRFFT", (3, 4)), rand((3, 3), "complex64")),
        (rand((3, 4), "float32"),)),
    "second-order-RFFT": lambda module: (
        module.grad(lambda x: _real_sum(module, module.grad(
            lambda y: _real_sum(module, module.lax.fft(y * y, "RFFT", (4,))))(x))), (rand((4,), "float32"),)),
    "vmap-FFT-0": _vmap("FFT", (4,), "complex64", (2, 3, 4), 0),
    "vmap-FFT-2": _vmap("FFT", (4,), "complex64", (2, 4, 3), 2),
    "vmap-RFFT-1": _vmap("RFFT", (2, 4), "float32", (2, 3, 4), 1),
    "vmap-IRFFT-out-1": _vmap("IRFFT", (3,), "complex64", (2, 3, 2), 1, 1),
    "vmap-IFFT-3d": _vmap("IFFT", (2, 3, 4), "complex64", (2, 3, 4, 5), 3),
    "vmap-grad-RFFT": lambda module: (
        module.vmap(module.grad(lambda x: _real_sum(module, module.lax.fft(x, "RFFT", (4,))))),
        (rand((2, 4), "float32"),)),
    "grad-vmap-IRFFT": lambda module: (
        module.grad(lambda x: _real_sum(module, module.vmap(lambda y: module.lax.fft(y, "IRFFT", (4,)))(x))),
        (rand((2, 3), "complex64"),)),
    "err-unknown-name": _call("bogus", (4,), rand((3, 4), "complex64")),
    "err-int-type": _call(0, (4,), rand((3, 4), "complex64")),
    "err-none-type": _call(None, (4,), rand((3, 4), "complex64")),
    "err-list-lengths": _call("FFT", [4], rand((3, 4), "complex64")),
    "err-int-lengths": _call("FFT", 4, rand((3, 4), "complex64")),
    "err-FFT-lengths": _call("FFT", (5,), rand((3, 4), "complex64")),
    "err-IFFT-lengths-2d": _call("IFFT", (4, 4), rand((3, 4), "complex64")),
    "err-too-many-lengths": _call("RFFT", (1, 3, 4), rand((3, 4), "float32")),
    "err-scalar": _call("IRFFT", (4,), np.complex64(1)),
    "err-RFFT-complex": _call("RFFT", (4,), rand((3, 4), "complex64")),
    "err-RFFT-float16": _call("RFFT", (4,), rand((3, 4), "float16")),
    "err-RFFT-bfloat16": _call("RFFT", (4,), rand((3, 4), "bfloat16")),
    "err-RFFT-lengths": _call("RFFT", (5,), rand((3, 4), "float32")),
    "err-IRFFT-minor": _call("IRFFT", (2, 6), rand((3, 4), "complex64")),
    "err-vmap-moves-lengths": _vmap("FFT", (4,), "complex64", (2, 3, 4), 2),
})

X64_CASES = {
    "x64-FFT-float64": _call("FFT", (4,), rand((3, 4), "float64")),
    "x64-FFT-complex128": _call("FFT", (3, 4), rand((3, 4), "complex128")),
    "x64-IFFT-int64": _call("IFFT", (4,), rand((3, 4), "int64")),
    "x64-FFT-int32": _call("FFT", (4,), rand((3, 4), "int32")),
    "x64-RFFT-float64": _call("RFFT", (2, 4), rand((2, 4), "float64")),
    "x64-RFFT-uint64": _call("RFFT", (4,), rand((3, 4), "uint64")),
    "x64-IRFFT-complex128": _call("IRFFT", (3, 4), rand((3, 3), "complex128")),
    "x64-IRFFT-complex64": _call("IRFFT", (4,), rand((3, 3), "complex64")),
    "x64-grad-RFFT": _grad("RFFT", (4,), "float64", (3, 4)),
    "x64-grad-RFFT-float32": _grad("RFFT", (4,), "float32", (4,)),
    "x64-grad-IRFFT": _grad("IRFFT", (3, 4), "complex128", (3, 3)),
    "x64-grad-IRFFT-complex64-odd": _grad("IRFFT", (5,), "complex64", (3,)),
}


def x64_flag(module):
    """The context manager enabling 64-bit types: ``jax.enable_x64`` or ``jaxle_core.config.enable_x64``."""
    return module.enable_x64 if hasattr(module, "enable_x64") else module.config.enable_x64


def record_case(module, build):
    """``run_case``'s outcome with the equations as the printed jaxpr: the text shows nested jaxprs in full, and
    leaves out the ``jit`` params that JAX keeps but does not print (shardings, layouts, compiler options)."""
    outcome = run_case(module, lambda _lax: build(module))
    if "error" not in outcome:
        fn, args = build(module)
        outcome["eqns"] = str(module.make_jaxpr(fn)(*args))
    return outcome


def assert_case_matches(module, build, expected):
    """``record_case``'s outcome of ``build`` against its golden, the error message included."""
    actual = record_case(module, build)
    assert_matches(actual, expected)
    assert actual.get("message") == expected.get("message")


def record_suite(module, run, cases, x64_cases) -> dict:
    """``run``'s outcome of every case, those of ``x64_cases`` with 64-bit types enabled."""
    golden = {name: run(module, build) for name, build in cases.items()}
    with x64_flag(module)(True):
        golden.update({name: run(module, build) for name, build in x64_cases.items()})
    return golden


def record(module) -> dict:
    return record_suite(module, record_case, CASES, X64_CASES)


if __name__ == "__main__":
    outcomes = record(importlib.import_module(sys.argv[1]))
    (HERE / "fft_golden.json").write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n")
