"""Golden records of a sample of ``jax.scipy.signal``, ``optimize``, ``sparse.linalg`` and ``interpolate``
(see scipy_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_signal_golden.py jax
"""

import importlib
import json
import sys

import numpy as np
import scipy_golden

_RNG = np.random.default_rng(11)
X = _RNG.standard_normal(8).astype(np.float32)
K = _RNG.standard_normal(3).astype(np.float32)
IMAGE = _RNG.standard_normal((4, 5)).astype(np.float32)
KERNEL = _RNG.standard_normal((2, 3)).astype(np.float32)
LONG = _RNG.standard_normal(24).astype(np.float32)
SPECTRUM = (_RNG.standard_normal((5, 5)) + 1j * _RNG.standard_normal((5, 5))).astype(np.complex64)
SPD = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]], np.float32)


def signal_case(name, *args, **kwargs):
    return lambda m: (lambda *a: getattr(m.scipy.signal, name)(*a, **kwargs), list(args))


CASES = {
    **{f"signal.convolve_{mode}": signal_case("convolve", X, K, mode=mode) for mode in ("full", "same", "valid")},
    "signal.correlate_same": signal_case("correlate", X, K, mode="same"),
    "signal.convolve_2d": signal_case("convolve", IMAGE, KERNEL, mode="same"),
    "signal.convolve_int": signal_case("convolve", np.arange(4, dtype=np.int32), np.arange(2, dtype=np.int32)),
    "signal.convolve2d": signal_case("convolve2d", IMAGE, KERNEL),
    "signal.correlate2d_same": signal_case("correlate2d", IMAGE, KERNEL, mode="same"),
    "signal.convolve2d_smaller_first_same": signal_case("convolve2d", KERNEL, IMAGE, mode="same"),
    "signal.correlate2d_smaller_first": signal_case("correlate2d", KERNEL + 1j * KERNEL[::-1], IMAGE),
    "signal.correlate_valid_smaller_first": signal_case("correlate", K, X, mode="valid"),
    "signal.fftconvolve": signal_case("fftconvolve", X, K, mode="same"),
    "signal.fftconvolve_valid_2d": signal_case("fftconvolve", KERNEL, IMAGE, mode="valid"),
    "signal.fftconvolve_mapped_axes": signal_case("fftconvolve", IMAGE, KERNEL, axes=1),
    "signal.convolve_bad_mode": signal_case("convolve", X, K, mode="x"),
    "signal.convolve_bad_method": signal_case("convolve", X, K, method="x"),
    "signal.convolve_rank_mismatch": signal_case("convolve", IMAGE, K),
    "signal.convolve2d_boundary": signal_case("convolve2d", IMAGE, KERNEL, boundary="wrap"),
    "signal.detrend": signal_case("detrend", IMAGE),
    "signal.detrend_constant": signal_case("detrend", IMAGE, axis=0, type="constant"),
    "signal.detrend_breakpoints": signal_case("detrend", IMAGE, axis=0, bp=[1, 3]),
    "signal.detrend_bad_type": signal_case("detrend", X, type="x"),
    "signal.detrend_bad_breakpoint": signal_case("detrend", X, bp=[9]),
    "signal.welch": signal_case("welch", LONG, nperseg=8),
    "signal.welch_median_spectrum": signal_case("welch", LONG, nperseg=8, average="median", scaling="spectrum"),
    "signal.csd": lambda m: (lambda x, y: m.scipy.signal.csd(x, y, nperseg=8), [LONG, LONG[::-1].copy()]),
    "signal.stft": signal_case("stft", LONG, nperseg=8),
    "signal.istft": signal_case("istft", SPECTRUM, nperseg=8),
    "signal.welch_bad_scaling": signal_case("welch", LONG, scaling="x"),
    "signal.stft_bad_nfft": signal_case("stft", LONG, nperseg=8, nfft=4),
    "signal.istft_same_axes": signal_case("istft", SPECTRUM, time_axis=0, freq_axis=0),
    "optimize.minimize": lambda m: (
        lambda x0: m.scipy.optimize.minimize(lambda x: m.numpy.sum((x - 1.0) ** 2 * SPD[0]), x0, method="BFGS").x,
        [np.zeros(3, np.float32)]),
    "optimize.bad_method": lambda m: (
        lambda x0: m.scipy.optimize.minimize(lambda x: m.numpy.sum(x ** 2), x0, method="x").x,
        [np.zeros(3, np.float32)]),
    "sparse.cg": lambda m: (lambda a, b: m.scipy.sparse.linalg.cg(a, b)[0], [SPD, X[:3]]),
    "sparse.bicgstab": lambda m: (lambda a, b: m.scipy.sparse.linalg.bicgstab(a, b)[0], [SPD, X[:3]]),
    "sparse.gmres": lambda m: (lambda a, b: m.scipy.sparse.linalg.gmres(a, b)[0], [SPD, X[:3]]),
    "sparse.gmres_bad_method": lambda m: (
        lambda a, b: m.scipy.sparse.linalg.gmres(a, b, solve_method="x")[0], [SPD, X[:3]]),
    "interpolate.linear": lambda m: (
        lambda v, p: m.scipy.interpolate.RegularGridInterpolator(
            (np.linspace(0, 1, 4), np.array([0.0, 0.5, 2.0])), v)(p),
        [IMAGE[:, :3], np.array([[0.2, 0.3], [0.9, 1.7], [1.5, 0.0]], np.float32)]),
    "interpolate.nearest_trailing": lambda m: (
        lambda v, p: m.scipy.interpolate.RegularGridInterpolator(
            (np.linspace(0, 1, 4),), v, method="nearest", fill_value=None)(p),
        [IMAGE[:, :3], np.array([[0.2], [0.5], [1.5]], np.float32)]),
    "interpolate.axes_tuple": lambda m: (
        lambda v, p, q: m.scipy.interpolate.RegularGridInterpolator(
            (np.linspace(0, 1, 4), np.array([0.0, 0.5, 2.0])), v, fill_value=-1.0)((p, q)),
        [IMAGE[:, :3], X[:4], K[:1]]),
    "interpolate.bad_method": lambda m: (
        lambda v: m.scipy.interpolate.RegularGridInterpolator((np.linspace(0, 1, 4),), v, method="cubic").values,
        [X[:4]]),
}

# Cases whose long jaxprs (while loops, segment-wise spectra) are left out of the record to keep it small: their
# values are compared.
VALUES_ONLY = ("optimize.minimize", "sparse.cg", "sparse.bicgstab", "sparse.gmres", "signal.welch",
               "signal.welch_median_spectrum", "signal.csd", "signal.stft", "signal.istft")

if __name__ == "__main__":
    for submodule in ("signal", "optimize", "sparse.linalg", "interpolate"):
        importlib.import_module(f"{sys.argv[1]}.scipy.{submodule}")
    scipy_golden.write(CASES, "scipy_signal_golden.json")
    path = scipy_golden.jnp_golden.HERE / "scipy_signal_golden.json"
    records = json.loads(path.read_text())
    for name in VALUES_ONLY:
        records[name]["jaxpr"] = ""
    path.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
