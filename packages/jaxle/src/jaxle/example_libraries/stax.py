"""``jax.example_libraries.stax``: layers as ``(init_fun, apply_fun)`` pairs.

``init_fun(rng, input_shape)`` returns ``(output_shape, params)``; ``apply_fun(params, inputs, **kwargs)`` returns the
layer's outputs. Combinators (``serial``, ``parallel``, ``shape_dependent``) build networks from layers.
"""

import functools
import operator

import jaxle.numpy as jnp
from jaxle import lax, random
from jaxle.nn import elu, gelu, leaky_relu, log_softmax, relu, selu, sigmoid, softmax, softplus, standardize
from jaxle.nn.initializers import glorot_normal, normal, ones, zeros

__all__ = ["AvgPool", "BatchNorm", "Conv", "Conv1DTranspose", "ConvTranspose", "Dense", "Dropout", "Elu", "Exp",
           "FanInConcat", "FanInSum", "FanOut", "Flatten", "Gelu", "GeneralConv", "GeneralConvTranspose", "Identity",
           "LeakyRelu", "LogSoftmax", "MaxPool", "Relu", "Selu", "Sigmoid", "Softmax", "Softplus", "SumPool", "Tanh",
           "elementwise", "elu", "gelu", "glorot", "glorot_normal", "leaky_relu", "log_softmax", "logsoftmax",
           "normal", "ones", "parallel", "randn", "relu", "selu", "serial", "shape_dependent", "sigmoid", "softmax",
           "softplus", "standardize", "zeros"]

# The older short names of the initializers and of log_softmax.
glorot = glorot_normal
randn = normal
logsoftmax = log_softmax

# Default initializers, made once: layers made with the defaults share them.
_DENSE_WEIGHTS = glorot_normal()
_DENSE_BIASES = normal()
_CONV_BIASES = normal(1e-6)


def Dense(out_dim, W_init=_DENSE_WEIGHTS, b_init=_DENSE_BIASES):
    """A fully connected layer: ``inputs @ W + b``."""

    def init_fun(rng, input_shape):
        output_shape = input_shape[:-1] + (out_dim,)
        w_key, b_key = random.split(rng)
        return output_shape, (W_init(w_key, (input_shape[-1], out_dim)), b_init(b_key, (out_dim,)))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return jnp.dot(inputs, W) + b

    return init_fun, apply_fun


def _kernel_shape(dimension_numbers, out_chan, filter_shape, input_shape):
    lhs_spec, rhs_spec, _ = dimension_numbers
    spatial = iter(filter_shape)
    in_chan = input_shape[lhs_spec.index("C")]
    return [out_chan if axis == "O" else in_chan if axis == "I" else next(spatial) for axis in rhs_spec]


def _convolution_layer(output_shape_of, convolve):
    """A layer maker for a convolution given its output-shape rule and its application."""

    def layer(dimension_numbers, out_chan, filter_shape, strides=None, padding="VALID", W_init=None,
              b_init=_CONV_BIASES):
        _, rhs_spec, out_spec = dimension_numbers
        strides = strides or (1,) * len(filter_shape)
        W_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

        def init_fun(rng, input_shape):
            kernel_shape = _kernel_shape(dimension_numbers, out_chan, filter_shape, input_shape)
            output_shape = output_shape_of(input_shape, kernel_shape, strides, padding, dimension_numbers)
            bias_shape = [out_chan if axis == "C" else 1 for axis in out_spec]
            w_key, b_key = random.split(rng)
            return output_shape, (W_init(w_key, kernel_shape), b_init(b_key, bias_shape))

        def apply_fun(params, inputs, **kwargs):
            W, b = params
            return convolve(inputs, W, strides, padding, dimension_numbers) + b

        return init_fun, apply_fun

    return layer


def _conv(inputs, kernel, strides, padding, dimension_numbers):
    unit = (1,) * len(strides)
    return lax.conv_general_dilated(inputs, kernel, strides, padding, unit, unit, dimension_numbers=dimension_numbers)


def _conv_transpose(inputs, kernel, strides, padding, dimension_numbers):
    return lax.conv_transpose(inputs, kernel, strides, padding, dimension_numbers=dimension_numbers)


GeneralConv = _convolution_layer(lax.conv_general_shape_tuple, _conv)
GeneralConv.__name__ = GeneralConv.__qualname__ = "GeneralConv"
GeneralConv.__doc__ = "A general convolution layer with the given ``(lhs, rhs, out)`` dimension specs."
Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))
GeneralConvTranspose = _convolution_layer(lax.conv_transpose_shape_tuple, _conv_transpose)
GeneralConvTranspose.__name__ = GeneralConvTranspose.__qualname__ = "GeneralConvTranspose"
GeneralConvTranspose.__doc__ = "A general transposed-convolution layer with the given dimension specs."
Conv1DTranspose = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
ConvTranspose = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))


def BatchNorm(axis=(0, 1, 2), epsilon=1e-5, center=True, scale=True, beta_init=zeros, gamma_init=ones):
    """Normalizes over ``axis`` (without running statistics), then scales by gamma and shifts by beta."""

    def init_fun(rng, input_shape):
        shape = tuple(size for i, size in enumerate(input_shape) if i not in axis)
        beta_key, gamma_key = random.split(rng)
        beta = beta_init(beta_key, shape) if center else ()
        gamma = gamma_init(gamma_key, shape) if scale else ()
        return input_shape, (beta, gamma)

    def apply_fun(params, x, **kwargs):
        beta, gamma = params
        # Broadcast the per-feature parameters back over the normalized axes.
        expand = tuple(None if i in axis else slice(None) for i in range(jnp.ndim(x)))
        z = standardize(x, axis, epsilon=epsilon)
        if center and scale:
            return gamma[expand] * z + beta[expand]
        if center:
            return z + beta[expand]
        if scale:
            return gamma[expand] * z
        return z

    return init_fun, apply_fun


def elementwise(fun, **fun_kwargs):
    """A parameterless layer applying ``fun(inputs, **fun_kwargs)``."""

    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        return fun(inputs, **fun_kwargs)

    return init_fun, apply_fun


Tanh = elementwise(jnp.tanh)
Relu = elementwise(relu)
Exp = elementwise(jnp.exp)
LogSoftmax = elementwise(log_softmax, axis=-1)
Softmax = elementwise(softmax, axis=-1)
Softplus = elementwise(softplus)
Sigmoid = elementwise(sigmoid)
Elu = elementwise(elu)
LeakyRelu = elementwise(leaky_relu)
Selu = elementwise(selu)
Gelu = elementwise(gelu)


def _non_spatial_axes(spec, ndim):
    return (0, ndim - 1) if spec is None else (spec.index("N"), spec.index("C"))


def _divide_by_window_size(window_shape, strides, padding):
    """The rescaling of a sum pool into an average pool: each output divided by the count of inputs in its window
    (padding excluded)."""

    def rescale(outputs, inputs, spec):
        non_spatial = _non_spatial_axes(spec, inputs.ndim)
        spatial_shape = tuple(size for i, size in enumerate(inputs.shape) if i not in non_spatial)
        counts = lax.reduce_window(jnp.ones(spatial_shape, dtype=inputs.dtype), 0.0, lax.add, window_shape, strides,
                                   padding)
        for i in sorted(non_spatial):
            counts = jnp.expand_dims(counts, i)
        return outputs / counts

    return rescale


def _pooling_layer(reducer, init_value, rescaler=None):
    def PoolingLayer(window_shape, strides=None, padding="VALID", spec=None):
        strides = strides or (1,) * len(window_shape)
        rescale = rescaler(window_shape, strides, padding) if rescaler else None
        non_spatial = _non_spatial_axes(spec, len(window_shape) + 2)
        full_window, full_strides = tuple(window_shape), tuple(strides)
        for i in sorted(non_spatial):
            full_window = full_window[:i] + (1,) + full_window[i:]
            full_strides = full_strides[:i] + (1,) + full_strides[i:]

        def init_fun(rng, input_shape):
            pads = lax.padtype_to_pads(input_shape, full_window, full_strides, padding)
            unit = (1,) * len(full_window)
            return lax.reduce_window_shape_tuple(input_shape, full_window, full_strides, pads, unit, unit), ()

        def apply_fun(params, inputs, **kwargs):
            outputs = lax.reduce_window(inputs, init_value, reducer, full_window, full_strides, padding)
            return rescale(outputs, inputs, spec) if rescale else outputs

        return init_fun, apply_fun

    return PoolingLayer


MaxPool = _pooling_layer(lax.max, -jnp.inf)
SumPool = _pooling_layer(lax.add, 0.0)
AvgPool = _pooling_layer(lax.add, 0.0, _divide_by_window_size)


def _flatten():
    def init_fun(rng, input_shape):
        return (input_shape[0], functools.reduce(operator.mul, input_shape[1:], 1)), ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.reshape(inputs, (inputs.shape[0], -1))

    return init_fun, apply_fun


Flatten = _flatten()


def _identity():
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        return inputs

    return init_fun, apply_fun


Identity = _identity()


def FanOut(num):
    """A layer copying its input into a list of ``num`` outputs."""

    def init_fun(rng, input_shape):
        return [input_shape] * num, ()

    def apply_fun(params, inputs, **kwargs):
        return [inputs] * num

    return init_fun, apply_fun


def _fan_in_sum():
    def init_fun(rng, input_shape):
        return input_shape[0], ()

    def apply_fun(params, inputs, **kwargs):
        return sum(inputs)

    return init_fun, apply_fun


FanInSum = _fan_in_sum()


def FanInConcat(axis=-1):
    """A layer concatenating its list of inputs along ``axis``."""

    def init_fun(rng, input_shape):
        ax = axis % len(input_shape[0])
        concat_size = sum(shape[ax] for shape in input_shape)
        return input_shape[0][:ax] + (concat_size,) + input_shape[0][ax + 1:], ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.concatenate(inputs, axis)

    return init_fun, apply_fun


_DROPOUT_NEEDS_KEY = (
    "Dropout layer requires apply_fun to be called with a PRNG key argument. That is, instead of "
    "`apply_fun(params, inputs)`, call it like `apply_fun(params, inputs, rng)` where `rng` is a PRNG key "
    "(e.g. from `jax.random.key`).")


def Dropout(rate, mode="train"):
    """Keeps each input with probability ``rate`` (scaled by ``1/rate``) in ``"train"`` mode; the identity
    otherwise. ``apply_fun`` needs ``rng=`` in either mode."""

    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng", None)
        if rng is None:
            raise ValueError(_DROPOUT_NEEDS_KEY)
        if mode == "train":
            keep = random.bernoulli(rng, rate, inputs.shape)
            return jnp.where(keep, inputs / rate, 0)
        return inputs

    return init_fun, apply_fun


def _layer_keys(rng, count):
    return random.split(rng, count) if rng is not None else (None,) * count


def serial(*layers):
    """Layers applied one after another; params are a list, one entry per layer."""
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        params = []
        for layer_init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, layer_params = layer_init(layer_rng, input_shape)
            params.append(layer_params)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        rngs = _layer_keys(kwargs.pop("rng", None), len(layers))
        for layer_apply, layer_params, layer_rng in zip(apply_funs, params, rngs):
            inputs = layer_apply(layer_params, inputs, rng=layer_rng, **kwargs)
        return inputs

    return init_fun, apply_fun


def parallel(*layers):
    """Layers applied side by side, each to its own element of a sequence of inputs."""
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        rngs = random.split(rng, len(layers))
        return zip(*[layer_init(layer_rng, shape)
                     for layer_init, layer_rng, shape in zip(init_funs, rngs, input_shape)])

    def apply_fun(params, inputs, **kwargs):
        rngs = _layer_keys(kwargs.pop("rng", None), len(layers))
        return [layer_apply(layer_params, x, rng=layer_rng, **kwargs)
                for layer_apply, layer_params, x, layer_rng in zip(apply_funs, params, inputs, rngs)]

    return init_fun, apply_fun


def shape_dependent(make_layer):
    """A layer built afresh from each input shape by ``make_layer(shape) -> (init_fun, apply_fun)``."""

    def init_fun(rng, input_shape):
        return make_layer(input_shape)[0](rng, input_shape)

    def apply_fun(params, inputs, **kwargs):
        return make_layer(inputs.shape)[1](params, inputs, **kwargs)

    return init_fun, apply_fun
