"""``jax.nn.initializers``: functions ``init(key, shape, dtype) -> Array`` that draw neural-network parameters with
``jaxle.random``, giving JAX 0.10.2's bits for the same key; the factories (``normal``, ``variance_scaling``, ...)
build them from their scale and distribution."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal, Protocol

import numpy as np

import jaxle_numpy as jnp
import jaxle_random as random
from jaxle_core import dtypes, lax
from jaxle_core.sharding_types import checked_out_sharding
from jaxle_numpy import util
from jaxle_numpy.linalg import qr

__all__ = ["Initializer", "constant", "delta_orthogonal", "glorot_normal", "glorot_uniform", "he_normal",
           "he_uniform", "kaiming_normal", "kaiming_uniform", "lecun_normal", "lecun_uniform", "normal", "ones",
           "orthogonal", "truncated_normal", "uniform", "variance_scaling", "xavier_normal", "xavier_uniform",
           "zeros"]

Array = Any
DType = Any
Shape = Sequence[int]
Axes = int | Sequence[int]

# The standard deviation of a unit normal truncated to [-2, 2], and of the complex one truncated to radius 2: the
# truncated draws are divided by it so that they keep the requested variance.
_TRUNCATED_REAL_STDDEV = .87962566103423978
_TRUNCATED_COMPLEX_STDDEV = .95311164380491208


class Initializer(Protocol):
    """What every initializer is: ``init(key, shape, dtype=float) -> Array``."""

    def __call__(self, key: Array, shape: Shape, dtype: DType = None) -> Array:
        ...


def _dtype(dtype: DType) -> np.dtype:
    return dtypes.default_float_dtype() if dtype is None else dtypes.canonicalize_dtype(dtype)


def zeros(key: Array, shape: Shape, dtype: DType = None, out_sharding: Any = None) -> Array:
    """An initializer of zeros (``key`` is unused)."""
    return jnp.zeros(shape, _dtype(dtype), out_sharding=out_sharding)


def ones(key: Array, shape: Shape, dtype: DType = None, out_sharding: Any = None) -> Array:
    """An initializer of ones (``key`` is unused)."""
    return jnp.ones(shape, _dtype(dtype), out_sharding=out_sharding)


def constant(value: Any, dtype: DType = None) -> Initializer:
    """An initializer filling its shape with ``value``."""
    def init(key: Array, shape: Shape, dtype: DType = dtype, out_sharding: Any = None) -> Array:
        checked_out_sharding(out_sharding, "nn.initializers.constant")
        return jnp.full(shape, value, dtype=_dtype(dtype), out_sharding=out_sharding)
    return init


def uniform(scale: Any = 1e-2, dtype: DType = None) -> Initializer:
    """An initializer drawing uniformly from ``[0, scale)``."""
    def init(key: Array, shape: Shape, dtype: DType = dtype) -> Array:
        return random.uniform(key, shape, _dtype(dtype)) * scale
    return init


def normal(stddev: Any = 1e-2, dtype: DType = None) -> Initializer:
    """An initializer drawing from a centred normal distribution with standard deviation ``stddev``."""
    def init(key: Array, shape: Shape, dtype: DType = dtype) -> Array:
        return random.normal(key, shape, _dtype(dtype)) * stddev
    return init


def truncated_normal(stddev: Any = 1e-2, dtype: DType = None, lower: Any = -2.0, upper: Any = 2.0) -> Initializer:
    """An initializer drawing ``stddev`` times a unit normal truncated to ``[lower, upper]``."""
    def init(key: Array, shape: Shape, dtype: DType = dtype) -> Array:
        return random.truncated_normal(key, lower, upper, shape, _dtype(dtype)) * stddev
    return init


def _axes(axes: Axes, ndim: int) -> list[int]:
    return [a % ndim for a in ((axes,) if isinstance(axes, int) else axes)]


def _fans(shape: Shape, in_axis: Axes, out_axis: Axes, batch_axis: Axes) -> tuple[float, float]:
    """The fan-in and fan-out of a weight tensor: the sizes of its input and output axes, each times the receptive
    field (the product of the axes that are neither input, output nor batch)."""
    if len(shape) <= 1 and in_axis == -2:
        raise ValueError(f"Can't compute input and output sizes of a {len(shape)}-dimensional weights tensor with "
                         "default in_axis. Must be at least 2D or specify in_axis explicitly.")
    ndim = len(shape)
    in_size = math.prod(shape[a] for a in _axes(in_axis, ndim))
    out_size = math.prod(shape[a] for a in _axes(out_axis, ndim))
    batch_size = math.prod(shape[a] for a in _axes(batch_axis, ndim))
    receptive_field = math.prod(shape) / in_size / out_size / batch_size
    return in_size * receptive_field, out_size * receptive_field


def _complex_uniform(key: Array, shape: Shape, dtype: np.dtype) -> Array:
    """Complex values uniform on the disk of radius sqrt(2): zero mean, unit variance."""
    radius_key, angle_key = random.split(key)
    real_dtype = np.zeros((), dtype).real.dtype
    dtype = dtypes.to_complex_dtype(real_dtype)
    radius = jnp.sqrt(2 * random.uniform(radius_key, shape, real_dtype)).astype(dtype)
    angle = 2 * np.pi * random.uniform(angle_key, shape, real_dtype).astype(dtype)
    return radius * jnp.exp(1j * angle)


def _complex_truncated_normal(key: Array, upper: Any, shape: Shape, dtype: np.dtype) -> Array:
    """Complex normal values (real and imaginary parts of variance 1/2) conditioned on modulus below ``upper``,
    by inverting the modulus's distribution function."""
    radius_key, angle_key = random.split(key)
    real_dtype = np.zeros((), dtype).real.dtype
    dtype = dtypes.to_complex_dtype(real_dtype)
    cdf = (1 - jnp.exp(jnp.array(-(upper ** 2), dtype))) * random.uniform(radius_key, shape, real_dtype).astype(dtype)
    radius = jnp.sqrt(-jnp.log(1 - cdf))
    angle = 2 * np.pi * random.uniform(angle_key, shape, real_dtype).astype(dtype)
    return radius * jnp.exp(1j * angle)


def variance_scaling(scale: Any,
                     mode: Literal["fan_in"] | Literal["fan_out"] | Literal["fan_avg"] | Literal["fan_geo_avg"],
                     distribution: Literal["truncated_normal"] | Literal["normal"] | Literal["uniform"],
                     in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: DType = None
                     ) -> Initializer:
    """An initializer whose draws have variance ``scale / n``, ``n`` being the fan-in, the fan-out, their mean
    (``fan_avg``) or their geometric mean (``fan_geo_avg``) of the shape; ``distribution`` is a normal truncated to
    two standard deviations, a normal, or a uniform (complex dtypes draw from their complex counterparts)."""
    def init(key: Array, shape: Shape, dtype: DType = dtype) -> Array:
        shape = tuple(shape)
        dtype = _dtype(dtype)
        fan_in, fan_out = _fans(shape, in_axis, out_axis, batch_axis)
        if mode == "fan_in":
            denominator = fan_in
        elif mode == "fan_out":
            denominator = fan_out
        elif mode == "fan_avg":
            denominator = (fan_in + fan_out) / 2
        elif mode == "fan_geo_avg":
            denominator = (fan_in * fan_out) ** 0.5
        else:
            raise ValueError(f"invalid mode for variance scaling initializer: {mode}")
        variance = jnp.array(scale / denominator, dtype=dtype)
        real = dtypes.issubdtype(dtype, np.floating)
        if distribution == "truncated_normal":
            if real:
                stddev = jnp.sqrt(variance) / jnp.array(_TRUNCATED_REAL_STDDEV, dtype)
                return random.truncated_normal(key, -2, 2, shape, dtype) * stddev
            stddev = jnp.sqrt(variance) / jnp.array(_TRUNCATED_COMPLEX_STDDEV, dtype)
            return _complex_truncated_normal(key, 2, shape, dtype) * stddev
        if distribution == "normal":
            return random.normal(key, shape, dtype) * jnp.sqrt(variance)
        if distribution == "uniform":
            if real:
                return random.uniform(key, shape, dtype, -1) * jnp.sqrt(3 * variance)
            return _complex_uniform(key, shape, dtype) * jnp.sqrt(variance)
        raise ValueError(f"invalid distribution for variance scaling initializer: {distribution}")
    return init


def _scaled(scale: float, mode: str, distribution: str, doc: str) -> Any:
    """A named ``variance_scaling`` preset (Glorot/Xavier, LeCun, He/Kaiming)."""
    def preset(in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: DType = None) -> Initializer:
        return variance_scaling(scale, mode, distribution, in_axis=in_axis, out_axis=out_axis,
                                batch_axis=batch_axis, dtype=dtype)
    preset.__doc__ = doc
    return preset


glorot_uniform = _scaled(1.0, "fan_avg", "uniform", "Glorot (Xavier) uniform: variance 2 / (fan_in + fan_out).")
glorot_normal = _scaled(1.0, "fan_avg", "truncated_normal",
                        "Glorot (Xavier) normal: truncated normal of variance 2 / (fan_in + fan_out).")
lecun_uniform = _scaled(1.0, "fan_in", "uniform", "LeCun uniform: variance 1 / fan_in.")
lecun_normal = _scaled(1.0, "fan_in", "truncated_normal", "LeCun normal: truncated normal of variance 1 / fan_in.")
he_uniform = _scaled(2.0, "fan_in", "uniform", "He (Kaiming) uniform: variance 2 / fan_in.")
he_normal = _scaled(2.0, "fan_in", "truncated_normal", "He (Kaiming) normal: truncated normal of variance 2 / fan_in.")
for _preset, _name in [(glorot_uniform, "glorot_uniform"), (glorot_normal, "glorot_normal"),
                       (lecun_uniform, "lecun_uniform"), (lecun_normal, "lecun_normal"),
                       (he_uniform, "he_uniform"), (he_normal, "he_normal")]:
    _preset.__name__ = _preset.__qualname__ = _name
xavier_uniform = glorot_uniform
xavier_normal = glorot_normal
kaiming_uniform = he_uniform
kaiming_normal = he_normal


@util.named_jit("_orthogonal", static_argnames=("shape", "column_axis", "dtype"))
def _orthogonal(key: Array, shape: tuple[int, ...], column_axis: int, dtype: np.dtype) -> Array:
    n_rows, n_cols = math.prod(shape) // shape[column_axis], shape[column_axis]
    matrix_shape = (n_cols, n_rows) if n_rows < n_cols else (n_rows, n_cols)
    q, r = qr(random.normal(key, matrix_shape, dtype))
    q = q * lax.broadcast_to_rank(jnp.sign(jnp.diagonal(r)), q.ndim)  # R's diagonal positive: Q is unique
    return q.T if n_rows < n_cols else q


def orthogonal(scale: Any = 1.0, column_axis: int = -1, dtype: DType = None) -> Initializer:
    """An initializer of (semi-)orthogonal matrices times ``scale``: the columns along ``column_axis`` against
    the other axes flattened, from the QR decomposition of a normal draw (signs fixed by R's diagonal)."""
    def init(key: Array, shape: Shape, dtype: DType = dtype) -> Array:
        if len(shape) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        matrix = _orthogonal(key, tuple(shape), column_axis, _dtype(dtype))
        columns_last = jnp.reshape(matrix, tuple(np.delete(shape, column_axis)) + (shape[column_axis],))
        return scale * jnp.moveaxis(columns_last, -1, column_axis)
    return init


def delta_orthogonal(scale: Any = 1.0, column_axis: int = -1, dtype: DType = None) -> Initializer:
    """An initializer for 1-, 2- or 3-d convolution kernels (shapes of rank 3 to 5): zero except at the spatial
    centre, which holds an orthogonal matrix (Xiao et al., 2018)."""
    def init(key: Array, shape: Shape, dtype: DType = dtype) -> Array:
        dtype = _dtype(dtype)
        if len(shape) not in (3, 4, 5):
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shape[-1] < shape[-2]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        centre_matrix = orthogonal(scale, column_axis, dtype)(key, shape[-2:])
        centre = tuple((size - 1) // 2 for size in shape[:-2])
        return jnp.zeros(shape, dtype=dtype).at[centre].set(centre_matrix)
    return init
