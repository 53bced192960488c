"""Golden records of ``jax.scipy.stats.gaussian_kde`` (see scipy_golden.py): construction with every bandwidth rule
and weights, every method on one- and two-dimensional data, errors, ``grad`` and ``vmap``, in float32 and with
64-bit types (float64 data, and float32 data met by float64 points).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_kde_golden.py jax
"""

import numpy as np
import scipy_golden

DATA_2D = [[0.0, 1.0, 2.0, 5.0, -1.5], [1.0, 0.0, 3.0, 2.0, 0.5]]
DATA_1D = [0.0, 1.0, 2.0, 5.0, -0.5, 3.5]
WEIGHTS_2D = [1.0, 2.0, 3.0, 4.0, 0.5]
POINTS_2D = [[0.5, 1.0, 3.0, -4.0], [1.0, 2.0, 0.0, 9.0]]
POINTS_1D = [0.5, 1.0, 7.0, -30.0]


def _kde(m, data, **kwargs):
    return m.scipy.stats.gaussian_kde(m.numpy.asarray(data), **kwargs)


def _fields(kde) -> tuple:
    return kde.neff, kde.dataset, kde.weights, kde.covariance, kde.inv_cov


def construct(data, weights=None, **kwargs):
    """A case building the estimate of ``data`` (and ``weights``), both traced: its fields."""
    if weights is None:
        return lambda m: (lambda d: _fields(m.scipy.stats.gaussian_kde(d, **kwargs)), [data])
    return lambda m: (lambda d, w: _fields(m.scipy.stats.gaussian_kde(d, weights=w, **kwargs)), [data, weights])


def cases(dtype) -> dict:
    """The cases with float data of ``dtype``."""
    data2, data1 = np.array(DATA_2D, dtype), np.array(DATA_1D, dtype)
    weights2, points2, points1 = np.array(WEIGHTS_2D, dtype), np.array(POINTS_2D, dtype), np.array(POINTS_1D, dtype)
    stats = lambda m: m.scipy.stats  # noqa: E731
    return {
        "construct": construct(data2),
        "construct_1d": construct(data1),
        "construct_weights": construct(data2, weights2),
        "construct_int_weights": construct(data1, np.arange(1, 7, dtype=np.int32)),
        "construct_int_data": construct(np.array([[0, 1, 5], [2, 2, 0]], np.int32)),
        "construct_silverman": construct(data2, bw_method="silverman"),
        "construct_scott": construct(data1, bw_method="scott"),
        "construct_scalar": construct(data2, bw_method=0.3),
        "construct_callable": construct(data2, bw_method=lambda k: k.neff ** -0.25),
        "evaluate": lambda m: (lambda d, p: stats(m).gaussian_kde(d).evaluate(p), [data2, points2]),
        "evaluate_kde": lambda m: (lambda k, p: k.evaluate(p), [_kde(m, data2, weights=weights2), points2]),
        "evaluate_1d": lambda m: (lambda k, p: k.evaluate(p), [_kde(m, data1), points1]),
        "evaluate_int_points": lambda m: (lambda k, p: k(p), [_kde(m, data1), np.array([0, 3, 9], np.int32)]),
        "evaluate_f32_points": lambda m: (lambda k, p: k(p), [_kde(m, data1), points1.astype(np.float32)]),
        "evaluate_scalar": lambda m: (lambda k: k.evaluate(1.5), [_kde(m, data1)]),
        "call_row": lambda m: (lambda k, p: k(p), [_kde(m, data2), points2[:, 0]]),
        "pdf": lambda m: (lambda k, p: k.pdf(p), [_kde(m, data2, bw_method="silverman"), points2]),
        "logpdf": lambda m: (lambda k, p: k.logpdf(p), [_kde(m, data2), points2]),
        "logpdf_weighted_1d": lambda m: (lambda d, w, p: stats(m).gaussian_kde(d, weights=w).logpdf(p),
                                         [data1, np.arange(1, 7).astype(dtype), points1]),
        "integrate_gaussian": lambda m: (lambda k, mean, cov: k.integrate_gaussian(mean, cov),
                                         [_kde(m, data2), np.array([0.5, -1.0], dtype),
                                          np.array([[2.0, 0.3], [0.3, 1.0]], dtype)]),
        "integrate_gaussian_1d": lambda m: (lambda k: k.integrate_gaussian(0.5, 2.0), [_kde(m, data1)]),
        "integrate_box_1d": lambda m: (lambda k: k.integrate_box_1d(-0.5, 1.0), [_kde(m, data1)]),
        "integrate_box_1d_traced": lambda m: (lambda k, lo, hi: k.integrate_box_1d(lo, hi),
                                              [_kde(m, data1, weights=np.arange(1, 7).astype(dtype)),
                                               np.array(-1.0, dtype), np.array(2.5, dtype)]),
        "integrate_kde": lambda m: (lambda k, o: k.integrate_kde(o), [_kde(m, data2), _kde(m, data2[:, :3] + 1)]),
        "integrate_kde_1d": lambda m: (lambda k, o: k.integrate_kde(o), [_kde(m, data1, bw_method=0.5),
                                                                          _kde(m, data1[:4] - 1)]),
        "grad_logpdf": lambda m: (m.grad(lambda p, k: k.logpdf(p)[0]), [points1[:1], _kde(m, data1)]),
        "grad_data": lambda m: (m.grad(lambda d, p: stats(m).gaussian_kde(d).evaluate(p).sum()), [data2, points2]),
        "vmap_evaluate": lambda m: (m.vmap(lambda k, p: k.evaluate(p), in_axes=(None, 1)),
                                    [_kde(m, data2), points2]),
        "jit_evaluate": lambda m: (m.jit(lambda k, p: k.evaluate(p)), [_kde(m, data2), points2]),
        "error_points_dimension": lambda m: (lambda k, p: k.evaluate(p), [_kde(m, data2), np.ones((3, 2), dtype)]),
        "error_bw_method": lambda m: (lambda d: stats(m).gaussian_kde(d, bw_method="foo"), [data2]),
        "error_weights_length": lambda m: (lambda d, w: stats(m).gaussian_kde(d, weights=w), [data2, weights2[:3]]),
        "error_weights_ndim": lambda m: (lambda d, w: stats(m).gaussian_kde(d, weights=w),
                                         [data2, np.ones((1, 5), dtype)]),
        "error_one_element": lambda m: (lambda d: stats(m).gaussian_kde(d), [np.ones(1, dtype)]),
        "error_complex": lambda m: (lambda d: stats(m).gaussian_kde(d), [data1.astype(np.complex64)]),
        "error_box_1d_2d": lambda m: (lambda k: k.integrate_box_1d(0.0, 1.0), [_kde(m, data2)]),
        "error_integrate_kde_dimension": lambda m: (lambda k, o: k.integrate_kde(o), [_kde(m, data2), _kde(m, data1)]),
        "error_integrate_gaussian_mean": lambda m: (lambda k: k.integrate_gaussian(np.zeros(3, dtype), np.eye(2)),
                                                    [_kde(m, data2)]),
        "error_integrate_gaussian_cov": lambda m: (lambda k: k.integrate_gaussian(np.zeros(2, dtype), np.eye(3)),
                                                   [_kde(m, data2)]),
        "error_integrate_box": lambda m: (lambda k: k.integrate_box([0.0, 0.0], [1.0, 1.0]), [_kde(m, data2)]),
        "error_set_bandwidth": lambda m: (lambda k: k.set_bandwidth("scott"), [_kde(m, data2)]),
    }


CASES = cases(np.float32)
CASES_X64 = cases(np.float64)

if __name__ == "__main__":
    scipy_golden.write(CASES, "scipy_kde_golden.json")
    scipy_golden.write_x64(CASES_X64, "scipy_kde_x64_golden.json")
