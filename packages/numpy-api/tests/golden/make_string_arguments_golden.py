"""Golden records of JAX 0.10.2's errors for jnp functions given a string or bytes where an array goes: ufuncs,
reductions (and as their axis), creation (and as a dtype), manipulation, indexing and ``.at``, sorting and
selection, products, linalg and fft; and for ``typeof``, ``vmap`` and custom derivatives given one. Each case calls
``fn(jnp, s)``, ``s`` being ``'abc'`` and then ``b'abc'``, eagerly and inside ``jit``; the record is the error's
type and message (a function's address in it written ``0x..``), or what the call returned.

Run with JAX's environment:
/work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_string_arguments_golden.py jax
"""

from __future__ import annotations

import functools
import importlib
import json
import pathlib
import re
import sys
from collections.abc import Callable
from typing import Any

HERE = pathlib.Path(__file__).parent
VALUES = {"str": "abc", "bytes": b"abc"}


def _ones(jnp: Any) -> Any:
    return jnp.ones(3)


def _matrix(jnp: Any) -> Any:
    return jnp.ones((3, 3))


CALLS: dict[str, Callable[[Any, Any], Any]] = {
    # ufuncs
    "sin": lambda jnp, s: jnp.sin(s),
    "exp": lambda jnp, s: jnp.exp(s),
    "abs": lambda jnp, s: jnp.abs(s),
    "negative": lambda jnp, s: jnp.negative(s),
    "sqrt": lambda jnp, s: jnp.sqrt(s),
    "floor": lambda jnp, s: jnp.floor(s),
    "isnan": lambda jnp, s: jnp.isnan(s),
    "sign": lambda jnp, s: jnp.sign(s),
    "add_first": lambda jnp, s: jnp.add(s, 1),
    "add_second": lambda jnp, s: jnp.add(1, s),
    "maximum": lambda jnp, s: jnp.maximum(_ones(jnp), s),
    "arctan2": lambda jnp, s: jnp.arctan2(s, 1.0),
    "logical_and": lambda jnp, s: jnp.logical_and(s, True),
    "bitwise_and": lambda jnp, s: jnp.bitwise_and(s, 1),
    "true_divide": lambda jnp, s: jnp.true_divide(s, 2),
    "clip": lambda jnp, s: jnp.clip(s, 0, 1),
    "clip_min": lambda jnp, s: jnp.clip(_ones(jnp), s),
    "round": lambda jnp, s: jnp.round(s),
    "real": lambda jnp, s: jnp.real(s),
    "conj": lambda jnp, s: jnp.conj(s),
    "angle": lambda jnp, s: jnp.angle(s),
    "isclose": lambda jnp, s: jnp.isclose(s, 1),
    "allclose": lambda jnp, s: jnp.allclose(s, 1),
    "array_equal": lambda jnp, s: jnp.array_equal(s, 1),
    "nan_to_num": lambda jnp, s: jnp.nan_to_num(s),
    "sinc": lambda jnp, s: jnp.sinc(s),
    "logaddexp": lambda jnp, s: jnp.logaddexp(s, 1.0),
    "heaviside": lambda jnp, s: jnp.heaviside(s, 1.0),
    "ldexp": lambda jnp, s: jnp.ldexp(s, 1),
    "frexp": lambda jnp, s: jnp.frexp(s),
    "modf": lambda jnp, s: jnp.modf(s),
    "divmod": lambda jnp, s: jnp.divmod(s, 1),
    "square": lambda jnp, s: jnp.square(s),
    "reciprocal": lambda jnp, s: jnp.reciprocal(s),
    "equal": lambda jnp, s: jnp.equal(s, 1),
    "float_power": lambda jnp, s: jnp.float_power(s, 1),
    "hypot": lambda jnp, s: jnp.hypot(s, 1),
    "copysign": lambda jnp, s: jnp.copysign(s, 1),
    "fmax": lambda jnp, s: jnp.fmax(s, 1),
    "left_shift": lambda jnp, s: jnp.left_shift(s, 1),
    "gcd": lambda jnp, s: jnp.gcd(s, 1),
    "lcm": lambda jnp, s: jnp.lcm(s, 1),
    "i0": lambda jnp, s: jnp.i0(s),
    "logical_not": lambda jnp, s: jnp.logical_not(s),
    "invert": lambda jnp, s: jnp.invert(s),
    "bitwise_count": lambda jnp, s: jnp.bitwise_count(s),
    "isreal": lambda jnp, s: jnp.isreal(s),
    "iscomplex": lambda jnp, s: jnp.iscomplex(s),
    "signbit": lambda jnp, s: jnp.signbit(s),
    "positive": lambda jnp, s: jnp.positive(s),
    "trunc": lambda jnp, s: jnp.trunc(s),
    "deg2rad": lambda jnp, s: jnp.deg2rad(s),
    "power": lambda jnp, s: jnp.power(s, 2),
    "power_second": lambda jnp, s: jnp.power(2, s),
    "add_reduce": lambda jnp, s: jnp.add.reduce(s),
    "add_outer": lambda jnp, s: jnp.add.outer(s, 1),
    "list_operand": lambda jnp, s: jnp.sin([s]),
    # reductions and statistics
    "sum": lambda jnp, s: jnp.sum(s),
    "sum_where": lambda jnp, s: jnp.sum(_ones(jnp), where=s),
    "sum_initial": lambda jnp, s: jnp.sum(_ones(jnp), initial=s),
    "sum_axis": lambda jnp, s: jnp.sum(_ones(jnp), axis=s),
    "max_axis": lambda jnp, s: jnp.max(_ones(jnp), axis=s),
    "mean_axis": lambda jnp, s: jnp.mean(_ones(jnp), axis=s),
    "var_axis": lambda jnp, s: jnp.var(_ones(jnp), axis=s),
    "count_nonzero_axis": lambda jnp, s: jnp.count_nonzero(_ones(jnp), axis=s),
    "method_sum_axis": lambda jnp, s: _ones(jnp).sum(axis=s),
    "method_sum_where": lambda jnp, s: _ones(jnp).sum(where=s),
    "prod": lambda jnp, s: jnp.prod(s),
    "max": lambda jnp, s: jnp.max(s),
    "min": lambda jnp, s: jnp.min(s),
    "amax": lambda jnp, s: jnp.amax(s),
    "mean": lambda jnp, s: jnp.mean(s),
    "var": lambda jnp, s: jnp.var(s),
    "std": lambda jnp, s: jnp.std(s),
    "all": lambda jnp, s: jnp.all(s),
    "any": lambda jnp, s: jnp.any(s),
    "argmax": lambda jnp, s: jnp.argmax(s),
    "argmin": lambda jnp, s: jnp.argmin(s),
    "cumsum": lambda jnp, s: jnp.cumsum(s),
    "cumprod": lambda jnp, s: jnp.cumprod(s),
    "cumulative_sum": lambda jnp, s: jnp.cumulative_sum(s),
    "nancumsum": lambda jnp, s: jnp.nancumsum(s),
    "nansum": lambda jnp, s: jnp.nansum(s),
    "nanmean": lambda jnp, s: jnp.nanmean(s),
    "nanmax": lambda jnp, s: jnp.nanmax(s),
    "median": lambda jnp, s: jnp.median(s),
    "ptp": lambda jnp, s: jnp.ptp(s),
    "count_nonzero": lambda jnp, s: jnp.count_nonzero(s),
    "average": lambda jnp, s: jnp.average(s),
    "average_weights": lambda jnp, s: jnp.average(_ones(jnp), weights=s),
    "quantile": lambda jnp, s: jnp.quantile(s, 0.5),
    "percentile_q": lambda jnp, s: jnp.percentile(_ones(jnp), s),
    "histogram": lambda jnp, s: jnp.histogram(s),
    "histogram2d": lambda jnp, s: jnp.histogram2d(s, _ones(jnp)),
    "bincount": lambda jnp, s: jnp.bincount(s),
    "bincount_weights": lambda jnp, s: jnp.bincount(jnp.arange(3), weights=s, length=4),
    "digitize": lambda jnp, s: jnp.digitize(s, _ones(jnp)),
    "cov": lambda jnp, s: jnp.cov(s),
    "corrcoef": lambda jnp, s: jnp.corrcoef(s),
    # creation
    "zeros_like": lambda jnp, s: jnp.zeros_like(s),
    "ones_like": lambda jnp, s: jnp.ones_like(s),
    "empty_like": lambda jnp, s: jnp.empty_like(s),
    "full_like": lambda jnp, s: jnp.full_like(s, 1),
    "full": lambda jnp, s: jnp.full((2,), s),
    "full_shape": lambda jnp, s: jnp.full(s, 1),
    "zeros_shape": lambda jnp, s: jnp.zeros(s),
    "array": lambda jnp, s: jnp.array(s),
    "array_list": lambda jnp, s: jnp.array([s]),
    "asarray": lambda jnp, s: jnp.asarray(s),
    "copy": lambda jnp, s: jnp.copy(s),
    "arange": lambda jnp, s: jnp.arange(s),
    "arange_dtype": lambda jnp, s: jnp.arange(s, dtype=jnp.float32),
    "zeros_dtype": lambda jnp, s: jnp.zeros(2, dtype=s),
    "array_dtype": lambda jnp, s: jnp.array(1, dtype=s),
    "astype_dtype": lambda jnp, s: _ones(jnp).astype(s),
    "linspace": lambda jnp, s: jnp.linspace(s, 1),
    "logspace": lambda jnp, s: jnp.logspace(s, 1),
    "eye": lambda jnp, s: jnp.eye(s),
    "identity": lambda jnp, s: jnp.identity(s),
    "tri": lambda jnp, s: jnp.tri(s),
    "diag": lambda jnp, s: jnp.diag(s),
    "vander": lambda jnp, s: jnp.vander(s),
    "tril": lambda jnp, s: jnp.tril(s),
    "triu": lambda jnp, s: jnp.triu(s),
    "meshgrid": lambda jnp, s: jnp.meshgrid(s),
    "ix_": lambda jnp, s: jnp.ix_(s),
    # manipulation
    "reshape": lambda jnp, s: jnp.reshape(s, (1,)),
    "transpose": lambda jnp, s: jnp.transpose(s),
    "permute_dims": lambda jnp, s: jnp.permute_dims(s, (0,)),
    "matrix_transpose": lambda jnp, s: jnp.matrix_transpose(s),
    "ravel": lambda jnp, s: jnp.ravel(s),
    "squeeze": lambda jnp, s: jnp.squeeze(s),
    "expand_dims": lambda jnp, s: jnp.expand_dims(s, 0),
    "concatenate": lambda jnp, s: jnp.concatenate([s]),
    "concatenate_second": lambda jnp, s: jnp.concatenate([_ones(jnp), s]),
    "concatenate_bare": lambda jnp, s: jnp.concatenate(s),
    "stack": lambda jnp, s: jnp.stack([s]),
    "hstack": lambda jnp, s: jnp.hstack([s]),
    "vstack": lambda jnp, s: jnp.vstack([s]),
    "unstack": lambda jnp, s: jnp.unstack(s),
    "atleast_1d": lambda jnp, s: jnp.atleast_1d(s),
    "flip": lambda jnp, s: jnp.flip(s),
    "rot90": lambda jnp, s: jnp.rot90(s),
    "roll": lambda jnp, s: jnp.roll(s, 1),
    "tile": lambda jnp, s: jnp.tile(s, 2),
    "repeat": lambda jnp, s: jnp.repeat(s, 2),
    "resize": lambda jnp, s: jnp.resize(s, 2),
    "pad": lambda jnp, s: jnp.pad(s, 1),
    "pad_constant": lambda jnp, s: jnp.pad(_ones(jnp), 1, constant_values=s),
    "swapaxes": lambda jnp, s: jnp.swapaxes(s, 0, 0),
    "moveaxis": lambda jnp, s: jnp.moveaxis(s, 0, 0),
    "broadcast_to": lambda jnp, s: jnp.broadcast_to(s, (2,)),
    "broadcast_arrays": lambda jnp, s: jnp.broadcast_arrays(s),
    "split": lambda jnp, s: jnp.split(s, 1),
    "append": lambda jnp, s: jnp.append(s, 1),
    "insert": lambda jnp, s: jnp.insert(s, 0, 1),
    "insert_values": lambda jnp, s: jnp.insert(_ones(jnp), 0, s),
    "delete": lambda jnp, s: jnp.delete(s, 0),
    "diff": lambda jnp, s: jnp.diff(s),
    "ediff1d": lambda jnp, s: jnp.ediff1d(s),
    "gradient": lambda jnp, s: jnp.gradient(s),
    "trapezoid": lambda jnp, s: jnp.trapezoid(s),
    "unwrap": lambda jnp, s: jnp.unwrap(s),
    "astype": lambda jnp, s: jnp.astype(s, jnp.float32),
    "apply_along_axis": lambda jnp, s: jnp.apply_along_axis(jnp.sum, 0, s),
    "apply_over_axes": lambda jnp, s: jnp.apply_over_axes(jnp.sum, s, [0]),
    # selection, sorting, set operations
    "where_one": lambda jnp, s: jnp.where(s),
    "where_condition": lambda jnp, s: jnp.where(s, 1, 2),
    "where_x": lambda jnp, s: jnp.where(True, s, 2),
    "select": lambda jnp, s: jnp.select([s], [1]),
    "index": lambda jnp, s: _matrix(jnp)[s],
    "index_tuple": lambda jnp, s: _matrix(jnp)[0, s],
    "at_get": lambda jnp, s: _matrix(jnp).at[s].get(),
    "at_set": lambda jnp, s: _ones(jnp).at[0].set(s),
    "at_add": lambda jnp, s: _ones(jnp).at[0].add(s),
    "at_tuple_set": lambda jnp, s: _matrix(jnp).at[0, s].set(1),
    "take": lambda jnp, s: jnp.take(s, 0),
    "take_indices": lambda jnp, s: jnp.take(_ones(jnp), s),
    "take_fill": lambda jnp, s: jnp.take(_ones(jnp), jnp.array([0, 9]), mode="fill", fill_value=s),
    "nonzero": lambda jnp, s: jnp.nonzero(s),
    "argwhere": lambda jnp, s: jnp.argwhere(s),
    "flatnonzero": lambda jnp, s: jnp.flatnonzero(s),
    "put": lambda jnp, s: jnp.put(s, 0, 1, inplace=False),
    "place": lambda jnp, s: jnp.place(s, True, 1, inplace=False),
    "compress": lambda jnp, s: jnp.compress(s, _ones(jnp)),
    "extract": lambda jnp, s: jnp.extract(s, _ones(jnp)),
    "packbits": lambda jnp, s: jnp.packbits(s),
    "choose": lambda jnp, s: jnp.choose(s, [_ones(jnp)]),
    "piecewise": lambda jnp, s: jnp.piecewise(s, [True], [1]),
    "ravel_multi_index": lambda jnp, s: jnp.ravel_multi_index((s,), (2,)),
    "unravel_index": lambda jnp, s: jnp.unravel_index(s, (2,)),
    "sort": lambda jnp, s: jnp.sort(s),
    "argsort": lambda jnp, s: jnp.argsort(s),
    "lexsort": lambda jnp, s: jnp.lexsort([s]),
    "partition": lambda jnp, s: jnp.partition(s, 0),
    "searchsorted": lambda jnp, s: jnp.searchsorted(s, 1),
    "unique": lambda jnp, s: jnp.unique(s),
    "unique_fill": lambda jnp, s: jnp.unique(_ones(jnp), size=5, fill_value=s),
    "isin": lambda jnp, s: jnp.isin(s, _ones(jnp)),
    "union1d": lambda jnp, s: jnp.union1d(s, _ones(jnp)),
    "interp": lambda jnp, s: jnp.interp(s, _ones(jnp), _ones(jnp)),
    # products, polynomials, signal
    "dot": lambda jnp, s: jnp.dot(s, _ones(jnp)),
    "matmul": lambda jnp, s: jnp.matmul(s, _ones(jnp)),
    "matvec": lambda jnp, s: jnp.matvec(s, _ones(jnp)),
    "vecdot": lambda jnp, s: jnp.vecdot(s, _ones(jnp)),
    "outer": lambda jnp, s: jnp.outer(s, _ones(jnp)),
    "inner": lambda jnp, s: jnp.inner(s, _ones(jnp)),
    "vdot": lambda jnp, s: jnp.vdot(s, _ones(jnp)),
    "einsum": lambda jnp, s: jnp.einsum("i,i", s, _ones(jnp)),
    "tensordot": lambda jnp, s: jnp.tensordot(s, _ones(jnp), 1),
    "cross": lambda jnp, s: jnp.cross(s, _ones(jnp)),
    "kron": lambda jnp, s: jnp.kron(s, _ones(jnp)),
    "trace": lambda jnp, s: jnp.trace(s),
    "diagonal": lambda jnp, s: jnp.diagonal(s),
    "convolve": lambda jnp, s: jnp.convolve(s, _ones(jnp)),
    "correlate": lambda jnp, s: jnp.correlate(_ones(jnp), s),
    "polyval": lambda jnp, s: jnp.polyval(s, 1.0),
    "polyfit": lambda jnp, s: jnp.polyfit(s, _ones(jnp), 1),
    "roots": lambda jnp, s: jnp.roots(s),
    # linalg
    "inv": lambda jnp, s: jnp.linalg.inv(s),
    "det": lambda jnp, s: jnp.linalg.det(s),
    "slogdet": lambda jnp, s: jnp.linalg.slogdet(s),
    "norm": lambda jnp, s: jnp.linalg.norm(s),
    "vector_norm": lambda jnp, s: jnp.linalg.vector_norm(s),
    "svd": lambda jnp, s: jnp.linalg.svd(s),
    "eigh": lambda jnp, s: jnp.linalg.eigh(s),
    "eigvalsh": lambda jnp, s: jnp.linalg.eigvalsh(s),
    "eig": lambda jnp, s: jnp.linalg.eig(s),
    "solve": lambda jnp, s: jnp.linalg.solve(s, _ones(jnp)),
    "lstsq": lambda jnp, s: jnp.linalg.lstsq(s, _ones(jnp)),
    "qr": lambda jnp, s: jnp.linalg.qr(s),
    "cholesky": lambda jnp, s: jnp.linalg.cholesky(s),
    "pinv": lambda jnp, s: jnp.linalg.pinv(s),
    "matrix_power": lambda jnp, s: jnp.linalg.matrix_power(s, 2),
    "matrix_rank": lambda jnp, s: jnp.linalg.matrix_rank(s),
    "linalg_outer": lambda jnp, s: jnp.linalg.outer(s, _ones(jnp)),
    # fft
    "fft": lambda jnp, s: jnp.fft.fft(s),
    "ifft": lambda jnp, s: jnp.fft.ifft(s),
    "rfft": lambda jnp, s: jnp.fft.rfft(s),
    "irfft": lambda jnp, s: jnp.fft.irfft(s),
    "hfft": lambda jnp, s: jnp.fft.hfft(s),
    "fft2": lambda jnp, s: jnp.fft.fft2(s),
    "fftn": lambda jnp, s: jnp.fft.fftn(s),
    "fftshift": lambda jnp, s: jnp.fft.fftshift(s),
    "fftfreq": lambda jnp, s: jnp.fft.fftfreq(s),
    "rfftfreq": lambda jnp, s: jnp.fft.rfftfreq(s),
    "fftfreq_spacing": lambda jnp, s: jnp.fft.fftfreq(4, s),
    # inspection
    "shape": lambda jnp, s: jnp.shape(s),
    "ndim": lambda jnp, s: jnp.ndim(s),
    "size": lambda jnp, s: jnp.size(s),
    "isscalar": lambda jnp, s: jnp.isscalar(s),
    "can_cast": lambda jnp, s: jnp.can_cast(s, jnp.float32),
    "iscomplexobj": lambda jnp, s: jnp.iscomplexobj(s),
    "isrealobj": lambda jnp, s: jnp.isrealobj(s),
}


def _identity_custom_vjp(m: Any) -> Any:
    fn = m.custom_vjp(lambda a: a)
    fn.defvjp(lambda a: (a, None), lambda _, g: (g,))
    return fn


def _identity_custom_jvp(m: Any) -> Any:
    fn = m.custom_jvp(lambda a: a)
    fn.defjvp(lambda primals, tangents: (primals[0], tangents[0]))
    return fn


# Transformations and types of the top-level module (``jax``; ``jaxle_core`` in the test): ``fn(module, s)``.
API_CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "typeof": lambda m, s: m.typeof(s),
    "custom_vjp": lambda m, s: _identity_custom_vjp(m)(s),
    "custom_jvp": lambda m, s: _identity_custom_jvp(m)(s),
    "vmap": lambda m, s: m.vmap(lambda a: a)(s),
}


def normalized(message: str) -> str:
    """``message`` with the addresses of functions it shows written ``0x..``."""
    return re.sub(r" at 0x[0-9a-f]+>", " at 0x..>", message)


def record(call: Callable[[], Any], jit: Callable[[Callable], Callable]) -> dict[str, str]:
    """What ``call`` raises (type and message) or returns, eagerly and inside ``jit``."""
    out = {}
    for mode, run in (("eager", call), ("jit", jit(call))):
        try:
            result = run()
        except Exception as error:  # noqa: BLE001 - the error is what we record
            out[mode] = f"{type(error).__name__}: {normalized(str(error))}"
        else:
            out[mode] = "returns " + (repr(result) if isinstance(result, (bool, int, tuple)) else "an array")
    return out


def records(calls: dict[str, Callable[[Any, Any], Any]], namespace: Any, jit: Callable) -> dict:
    """Every case of ``calls`` (``fn(namespace, value)``) with each of ``VALUES``."""
    return {name: {kind: record(functools.partial(fn, namespace, value), jit) for kind, value in VALUES.items()}
            for name, fn in calls.items()}


def write(data: dict, filename: str) -> None:
    (HERE / filename).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{len(data)} cases -> {HERE / filename}")


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    write({**records(CALLS, importlib.import_module(f"{sys.argv[1]}.numpy"), module.jit),
           **{f"api_{name}": case for name, case in records(API_CALLS, module, module.jit).items()}},
          "string_arguments_golden.json")
