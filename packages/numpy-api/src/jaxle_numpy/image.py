"""``jax.image``: resizing images (any array: the dimensions whose size changes are resized).

``scale_and_translate`` maps output coordinate ``o`` of a spatial dimension to input coordinate
``(o + 0.5 - translation) / scale - 0.5`` and interpolates with the method's kernel. Downscaling with
``antialias`` widens the kernel by ``1 / scale`` so that every input sample contributes (a low-pass filter). For
each dimension, the kernel's weights form an (input, output) matrix, normalised so that each output's weights sum
to 1 and zero where the output coordinate falls outside the input; the image is contracted with each matrix in turn
at HIGHEST precision. ``resize`` is ``scale_and_translate`` with ``scale = new size / old size`` and no
translation; its ``"nearest"`` method picks the input sample under each output sample's centre instead.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_numpy import creation, ufuncs
from jaxle_numpy.conditional import where

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]


class ResizeMethod(enum.Enum):
    """The interpolation methods; ``from_string`` accepts their lower-case names and common aliases."""

    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4
    CUBIC_PYTORCH = 5
    AREA = 6

    @staticmethod
    def from_string(name: str) -> ResizeMethod:
        method = _METHOD_NAMES.get(name)
        if method is None:
            raise ValueError(f'Unknown resize method "{name}"')
        return method


_METHOD_NAMES = {"nearest": ResizeMethod.NEAREST, "linear": ResizeMethod.LINEAR,
                 "bilinear": ResizeMethod.LINEAR, "trilinear": ResizeMethod.LINEAR,
                 "triangle": ResizeMethod.LINEAR, "lanczos3": ResizeMethod.LANCZOS3,
                 "lanczos5": ResizeMethod.LANCZOS5, "cubic": ResizeMethod.CUBIC, "bicubic": ResizeMethod.CUBIC,
                 "tricubic": ResizeMethod.CUBIC}


def _triangle(x: Any) -> Any:
    return ufuncs.maximum(0.0, 1.0 - ufuncs.abs(x))


def _keys_cubic(a: float) -> Callable[[Any], Any]:
    """Keys' cubic convolution kernel with parameter ``a``."""

    def kernel(x: Any) -> Any:
        x = ufuncs.abs(x)
        inner = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
        outer = ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
        return where(x >= 2.0, 0.0, where(x >= 1.0, outer, inner))

    return kernel


def _lanczos(radius: int) -> Callable[[Any], Any]:
    def kernel(x: Any) -> Any:
        return where(ufuncs.abs(x) < radius, ufuncs.sinc(x) * ufuncs.sinc(x / radius), 0.0)

    return kernel


_KERNELS: dict[ResizeMethod, Callable[[Any], Any]] = {
    ResizeMethod.LINEAR: _triangle,
    ResizeMethod.CUBIC: _keys_cubic(-0.5),
    ResizeMethod.LANCZOS3: _lanczos(3),
    ResizeMethod.LANCZOS5: _lanczos(5),
}


def _kernel(method: ResizeMethod, antialias: bool) -> Callable[[Any], Any]:
    if method == ResizeMethod.CUBIC_PYTORCH:
        # Antialiased, JAX resamples it as the standard cubic. Without antialiasing JAX follows PyTorch's own
        # sampling, which jaxle does not reproduce: refused rather than answered differently.
        if not antialias:
            raise ValueError("jaxle's resize supports ResizeMethod.CUBIC_PYTORCH only with antialias=True")
        return _KERNELS[ResizeMethod.CUBIC]
    return _KERNELS[method]


def _area(distance: Any, width: Any) -> Any:
    """The overlap of an output sample ``width`` input samples wide with an input sample ``distance`` away."""
    return ufuncs.maximum(0.0, ufuncs.minimum(ufuncs.minimum(width, 1.0), (width + 1.0) / 2.0 - distance))


def _weights(in_size: int, out_size: int, scale: Any, translation: Any, method: ResizeMethod, antialias: bool,
             dtype: np.dtype) -> Any:
    """The (in_size, out_size) interpolation matrix of one spatial dimension."""
    inv_scale = 1.0 / scale
    sample = (lax.iota(dtype, out_size) + 0.5) * inv_scale - translation * inv_scale - 0.5
    distance = ufuncs.abs(sample[None, :] - lax.iota(dtype, in_size)[:, None])
    if method == ResizeMethod.AREA:
        weights = _area(distance, inv_scale)
    else:
        kernel_scale = ufuncs.maximum(inv_scale, 1.0) if antialias else 1.0
        weights = _kernel(method, antialias)(distance / kernel_scale)
    total = weights.sum(axis=0, keepdims=True)
    eps = float(dtypes.finfo(dtype).eps)
    weights = where(ufuncs.abs(total) > 1000.0 * eps, weights / where(total != 0, total, 1), 0)
    inside = (sample >= -0.5) & (sample <= in_size - 0.5)
    return where(inside[None, :], weights, 0)


def _move_last(x: Any, dim: int) -> Any:
    order = list(range(x.ndim - 1))
    order.insert(dim, x.ndim - 1)
    return lax.transpose(x, order)


def _method(method: str | ResizeMethod) -> ResizeMethod:
    return method if isinstance(method, ResizeMethod) else ResizeMethod.from_string(method)


def _arguments(image: Any, shape: Sequence[int],
               method: str | ResizeMethod) -> tuple[Any, tuple[int, ...], ResizeMethod]:
    """The image as an array, ``shape`` checked against its rank, and the method as a ``ResizeMethod``."""
    image = creation.asarray(image)
    shape = tuple(shape)
    if len(shape) != image.ndim:
        raise ValueError("shape must have length equal to the number of dimensions of x; "
                         f" {shape} vs {image.shape}")
    return image, shape, _method(method)


def scale_and_translate(image: Any, shape: Sequence[int], spatial_dims: Sequence[int], scale: Any,
                        translation: Any, method: str | ResizeMethod, antialias: bool = True,
                        precision: Any = lax.Precision.HIGHEST) -> Any:
    """``image`` resampled to ``shape`` along ``spatial_dims``, output coordinate ``o`` of dimension ``d`` taken
    from input coordinate ``(o + 0.5 - translation[d]) / scale[d] - 0.5``. Not for ``"nearest"``."""
    image, shape, method = _arguments(image, shape, method)
    if method == ResizeMethod.NEAREST:
        raise ValueError("scale_and_translate does not support the nearest method; use resize")
    # Integer images are resampled as floats; the weights are computed in at least single precision.
    dtype = image.dtype if dtypes.issubdtype(image.dtype, np.inexact) else dtypes.canonicalize_dtype(np.float32)
    weights_dtype = dtypes.result_type(dtype, np.float32)
    out = image.astype(dtype)
    scale, translation = creation.asarray(scale, weights_dtype), creation.asarray(translation, weights_dtype)
    for i, dim in enumerate(spatial_dims):
        weights = _weights(image.shape[dim], shape[dim], scale[i], translation[i], method, antialias, weights_dtype)
        weights = weights.astype(dtype)
        out = _move_last(lax.dot_general(out, weights, (((dim,), (0,)), ((), ())), precision=precision), dim)
    return out


def _resize_nearest(image: Any, shape: tuple[int, ...]) -> Any:
    for dim, (old, new) in enumerate(zip(image.shape, shape)):
        if old == new:
            continue
        # the input sample under the centre of each output sample
        centres = (np.arange(new, dtype=np.float64) + 0.5) * old / new
        indices = np.floor(centres).astype(np.int32)
        image = image.take(creation.asarray(indices), axis=dim)
    return image


def resize(image: Any, shape: Sequence[int], method: str | ResizeMethod, antialias: bool = True,
           precision: Any = lax.Precision.HIGHEST) -> Any:
    """``image`` resized to ``shape`` with ``method`` (nearest, linear, cubic, lanczos3, lanczos5, or the
    ``ResizeMethod`` members, AREA and CUBIC_PYTORCH included); every dimension whose size changes is resized."""
    image, shape, method = _arguments(image, shape, method)
    if method == ResizeMethod.NEAREST:
        return _resize_nearest(image, shape)
    spatial_dims = [d for d in range(image.ndim) if image.shape[d] != shape[d]]
    scale = [shape[d] / image.shape[d] for d in spatial_dims]
    return scale_and_translate(image, shape, spatial_dims, scale, [0.0] * len(spatial_dims), method, antialias,
                               precision)
