"""Golden records of a sample of ``jax.scipy.signal``, ``optimize``, ``sparse.linalg`` and ``interpolate``
(see scipy_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_signal_golden.py jax
"""

import importlib
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
ROWS = _RNG.standard_normal((4, 3)).astype(np.float32)
SPD = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]], np.float32)
GENERAL = (_RNG.standard_normal((4, 4)) + 4 * np.eye(4)).astype(np.float32)


def _rosenbrock(m):
    return lambda x: m.numpy.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def _optimize_fields(result):
    return (result.x, result.success, result.status, result.fun, result.jac, result.hess_inv, result.nfev,
            result.njev, result.nit)


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
    "signal.fftconvolve_axis_subset": signal_case("fftconvolve", IMAGE, ROWS, axes=1),
    "signal.fftconvolve_axis_subset_same": signal_case("fftconvolve", IMAGE, ROWS, mode="same", axes=[-1]),
    "signal.fftconvolve_axis_subset_valid": signal_case("fftconvolve", IMAGE.T, ROWS.T, mode="valid", axes=0),
    "signal.fftconvolve_axis_subset_3d": signal_case("fftconvolve", np.stack([IMAGE[:, :3], IMAGE[:, 2:]]),
                                                     np.stack([ROWS, ROWS[::-1]]), axes=(0, 2)),
    "signal.fftconvolve_axis_subset_complex": signal_case("fftconvolve", IMAGE + 1j, ROWS, axes=1),
    "signal.fftconvolve_broadcast_axis": signal_case("fftconvolve", IMAGE, ROWS[:1], axes=1),
    "signal.stft_boundaries": lambda m: (
        lambda x: [m.scipy.signal.stft(x, nperseg=6, noverlap=2, boundary=b, padded=p)
                   for b, p in (("even", True), ("odd", False), ("constant", True), (None, False))], [LONG]),
    "signal.stft_options": signal_case("stft", np.stack([LONG, LONG[::-1]]).T, fs=4.0, window="hamming",
                                       nperseg=7, nfft=10, detrend="linear", axis=0),
    "signal.stft_two_sided_complex": signal_case("stft", LONG + 1j * LONG[::-1], nperseg=8, return_onesided=False),
    "signal.stft_window_array": signal_case("stft", LONG, window=np.hanning(5).astype(np.float32), nperseg=5),
    "signal.stft_int": signal_case("stft", np.arange(12, dtype=np.int32), nperseg=4),
    "signal.welch_options": signal_case("welch", np.stack([LONG, 2 * LONG]), fs=10.0, nperseg=6, noverlap=3,
                                        nfft=9, detrend=False, scaling="spectrum", return_onesided=False),
    "signal.welch_axis0_median": signal_case("welch", np.stack([LONG, LONG ** 2]).T, nperseg=8, axis=0,
                                             average="median"),
    "signal.welch_one_segment": signal_case("welch", LONG[:8], nperseg=8),
    "signal.csd_lengths_differ": lambda m: (lambda x, y: m.scipy.signal.csd(x, y, nperseg=6, average="median"),
                                            [LONG, LONG[:20].copy()]),
    "signal.csd_bad_average": lambda m: (lambda x, y: m.scipy.signal.csd(x, y, nperseg=6, average="x"),
                                         [LONG, LONG]),
    "signal.istft_options": signal_case("istft", SPECTRUM, fs=2.0, nperseg=6, noverlap=2, nfft=8, boundary=False),
    "signal.istft_two_sided": signal_case("istft", SPECTRUM, input_onesided=False, window="hamming"),
    "signal.istft_axes": signal_case("istft", np.stack([SPECTRUM, SPECTRUM.T]), time_axis=1, freq_axis=2),
    "signal.istft_roundtrip": lambda m: (
        lambda x: m.scipy.signal.istft(m.scipy.signal.stft(x, nperseg=8)[2], nperseg=8), [LONG]),
    "signal.istft_bad_window": signal_case("istft", SPECTRUM, window=np.ones(3, np.float32)),
    "signal.stft_bad_noverlap": signal_case("stft", LONG, nperseg=8, noverlap=8),
    "signal.stft_bad_boundary": signal_case("stft", LONG, nperseg=8, boundary="x"),
    "signal.welch_bad_scaling": signal_case("welch", LONG, scaling="x"),
    "signal.stft_bad_nfft": signal_case("stft", LONG, nperseg=8, nfft=4),
    "signal.istft_same_axes": signal_case("istft", SPECTRUM, time_axis=0, freq_axis=0),
    "optimize.minimize": lambda m: (
        lambda x0: m.scipy.optimize.minimize(lambda x: m.numpy.sum((x - 1.0) ** 2 * SPD[0]), x0, method="BFGS").x,
        [np.zeros(3, np.float32)]),
    "optimize.minimize_rosenbrock": lambda m: (
        lambda x0: _optimize_fields(m.scipy.optimize.minimize(_rosenbrock(m), x0, method="BFGS")),
        [np.array([-1.2, 1.0, 0.5], np.float32)]),
    "optimize.minimize_args_options": lambda m: (
        lambda x0, c: _optimize_fields(m.scipy.optimize.minimize(
            lambda x, c: m.numpy.sum((x - c) ** 4), x0, (c,), method="bfgs", options={"maxiter": 5, "gtol": 1e-3})),
        [np.zeros(3, np.float32), X[:3]]),
    "optimize.minimize_line_search_fails": lambda m: (
        lambda x0: _optimize_fields(m.scipy.optimize.minimize(
            lambda x: m.numpy.sum(m.numpy.abs(x)), x0, method="BFGS", options={"line_search_maxiter": 2})),
        [X[:3]]),
    "optimize.minimize_bad_args": lambda m: (
        lambda x0: m.scipy.optimize.minimize(lambda x: m.numpy.sum(x ** 2), x0, [1], method="BFGS").x,
        [np.zeros(3, np.float32)]),
    "optimize.bad_method": lambda m: (
        lambda x0: m.scipy.optimize.minimize(lambda x: m.numpy.sum(x ** 2), x0, method="x").x,
        [np.zeros(3, np.float32)]),
    "sparse.cg": lambda m: (lambda a, b: m.scipy.sparse.linalg.cg(a, b)[0], [SPD, X[:3]]),
    "sparse.bicgstab": lambda m: (lambda a, b: m.scipy.sparse.linalg.bicgstab(a, b)[0], [SPD, X[:3]]),
    "sparse.gmres": lambda m: (lambda a, b: m.scipy.sparse.linalg.gmres(a, b)[0], [SPD, X[:3]]),
    "sparse.gmres_info": lambda m: (lambda a, b: m.scipy.sparse.linalg.gmres(a, b), [SPD, X[:3]]),
    "sparse.gmres_incremental": lambda m: (
        lambda a, b: m.scipy.sparse.linalg.gmres(a, b, solve_method="incremental"), [GENERAL, X[4:]]),
    "sparse.gmres_restart": lambda m: (
        lambda a, b: m.scipy.sparse.linalg.gmres(a, b, restart=2, maxiter=3), [GENERAL, X[4:]]),
    "sparse.gmres_restart_incremental": lambda m: (
        lambda a, b: m.scipy.sparse.linalg.gmres(a, b, restart=2, solve_method="incremental"), [GENERAL, X[4:]]),
    "sparse.gmres_complex": lambda m: (
        lambda a, b: m.scipy.sparse.linalg.gmres(a, b), [GENERAL + 1j * np.eye(4, dtype=np.float32), X[4:] + 0.5j]),
    "sparse.gmres_preconditioned_incremental": lambda m: (
        lambda a, b: m.scipy.sparse.linalg.gmres(a, b, M=lambda x: x / m.numpy.diag(a), solve_method="incremental"),
        [GENERAL, X[4:]]),
    "sparse.gmres_jit_incremental": lambda m: (
        m.jit(lambda a, b: m.scipy.sparse.linalg.gmres(a, b, solve_method="incremental")), [GENERAL, X[4:]]),
    "sparse.bicgstab_general": lambda m: (
        lambda a, b: m.scipy.sparse.linalg.bicgstab(a, b, tol=1e-6)[0], [GENERAL, X[4:]]),
    "sparse.bicgstab_preconditioned": lambda m: (
        lambda a, b: m.scipy.sparse.linalg.bicgstab(a, b, M=a)[0], [GENERAL, X[4:]]),
    "sparse.cg_preconditioned": lambda m: (
        lambda a, b, x0: m.scipy.sparse.linalg.cg(a, b, x0, M=lambda x: x / m.numpy.diag(a))[0], [SPD, X[:3], X[3:6]]),
    "sparse.cg_function_tree": lambda m: (
        lambda a, b, c: m.scipy.sparse.linalg.cg(lambda t: {"u": a @ t["u"], "v": 2.0 * t["v"]}, {"u": b, "v": c},
                                                 maxiter=4)[0]["u"], [SPD, X[:3], X[3:5]]),
    "sparse.cg_complex": lambda m: (lambda a, b: m.scipy.sparse.linalg.cg(a, b)[0], [SPD + 0j, X[:3] + 1j * X[3:6]]),
    "sparse.cg_not_square": lambda m: (lambda a, b: m.scipy.sparse.linalg.cg(a[:2], b)[0], [SPD, X[:3]]),
    "sparse.cg_bad_x0": lambda m: (lambda a, b: m.scipy.sparse.linalg.cg(a, b, b[:2])[0], [SPD, X[:3]]),
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

if __name__ == "__main__":
    for submodule in ("signal", "optimize", "sparse.linalg", "interpolate"):
        importlib.import_module(f"{sys.argv[1]}.scipy.{submodule}")
    scipy_golden.write(CASES, "scipy_signal_golden.json")
