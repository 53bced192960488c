"""Write host_operand_specs_golden.json: the sharding JAX reports for the results of ``jax.numpy`` functions called
eagerly on NumPy (host) operands on eight CPU devices: under ``jax.set_mesh`` of a mesh of Explicit axes and of one
of Auto axes (each result's spec, ``P()`` or one entry per dimension, depending on where the function turns its
host operands into arrays) and without a mesh (the kind of sharding and whether the result is committed),
recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_host_operand_specs_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import failure, first_line

HERE = pathlib.Path(__file__).parent

V = np.arange(1.0, 5.0, dtype=np.float32)           # (4,)
W = np.array([0.5, -1.5, 2.0, 3.0], np.float32)     # (4,)
M = np.arange(6.0, dtype=np.float32).reshape(2, 3)  # (2, 3)
S = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)  # square, invertible
U = np.array([0.25, 0.5, 0.75, 0.125], np.float32)  # inside (-1, 1)
I = np.array([3, 1, 2, 6], np.int32)
B = np.array([True, False, True, True])

# name -> the call, given jax.numpy
FUNCTIONS = {
    # one (4,) operand (a few of each family of elementwise functions)
    **{name: (lambda jnp, name=name: getattr(jnp, name)(V)) for name in (
        "abs", "negative", "positive", "sign", "floor", "round", "trunc", "sqrt", "square", "exp", "log", "sin",
        "tanh", "arccosh", "deg2rad", "reciprocal", "isnan", "signbit", "conj", "real", "imag", "angle",
        "nan_to_num", "sinc", "logical_not", "copy", "asarray", "array", "atleast_1d", "atleast_2d", "zeros_like",
        "ones_like", "empty_like", "ravel", "flip", "sort", "argsort", "cumsum", "cumprod", "nancumsum", "diff",
        "ediff1d", "gradient", "unwrap", "trim_zeros", "count_nonzero", "flatnonzero", "argwhere", "nonzero", "sum",
        "prod", "mean", "std", "var", "max", "argmax", "all", "median", "ptp", "nansum", "nanmean", "average",
        "iscomplex", "frexp", "modf")},
    **{name: (lambda jnp, name=name: getattr(jnp, name)(U)) for name in ("arcsin", "arccos", "arctanh")},
    **{name: (lambda jnp, name=name: getattr(jnp, name)(I)) for name in ("invert", "bincount", "bitwise_count")},
    # two (4,) operands
    **{name: (lambda jnp, name=name: getattr(jnp, name)(V, W)) for name in (
        "add", "subtract", "multiply", "divide", "floor_divide", "float_power", "maximum", "fmin", "mod", "arctan2",
        "hypot", "nextafter", "logaddexp", "equal", "less", "heaviside", "isclose", "dot", "inner", "outer", "vdot",
        "kron", "convolve", "correlate", "append", "array_equal", "polyval", "trapezoid")},
    **{name: (lambda jnp, name=name: getattr(jnp, name)(I, I)) for name in (
        "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "gcd", "lcm")},
    **{name: (lambda jnp, name=name: getattr(jnp, name)(B, B))
       for name in ("logical_and", "logical_or", "logical_xor")},
    "power_int": lambda jnp: jnp.power(V, 2),
    "power_float": lambda jnp: jnp.power(V, 0.5),
    "power_array": lambda jnp: jnp.power(V, W),
    "add_scalar": lambda jnp: jnp.add(V, 1.0),
    "multiply_python_scalars": lambda jnp: jnp.multiply(2.0, 3.0),
    "ldexp": lambda jnp: jnp.ldexp(V, I),
    "clip": lambda jnp: jnp.clip(V, 1.5, 3.0),
    "where": lambda jnp: jnp.where(B, V, W),
    "where_scalar": lambda jnp: jnp.where(B, V, 0.0),
    "select": lambda jnp: jnp.select([B], [V], 0.0),
    "interp": lambda jnp: jnp.interp(np.float32([1.5, 2.5]), V, W),
    "searchsorted": lambda jnp: jnp.searchsorted(V, W),
    "digitize": lambda jnp: jnp.digitize(W, V),
    "take": lambda jnp: jnp.take(V, I % 4),
    "take_along_axis": lambda jnp: jnp.take_along_axis(V, I % 4, axis=0),
    "extract": lambda jnp: jnp.extract(B, V),
    "compress": lambda jnp: jnp.compress(B, V),
    "cross": lambda jnp: jnp.cross(V[:3], W[:3]),
    "einsum": lambda jnp: jnp.einsum("i,i->", V, W),
    "einsum_matrix": lambda jnp: jnp.einsum("ij,kj->ik", M, M),
    "tensordot": lambda jnp: jnp.tensordot(M, M, axes=([1], [1])),
    "lexsort": lambda jnp: jnp.lexsort((V, W)),
    "partition": lambda jnp: jnp.partition(W, 2),
    "argpartition": lambda jnp: jnp.argpartition(W, 2),
    "unique": lambda jnp: jnp.unique(I),
    "cumsum_matrix": lambda jnp: jnp.cumsum(M, axis=1),
    "where_one_operand": lambda jnp: jnp.where(B)[0],
    # a (2, 3) matrix
    **{name: (lambda jnp, name=name: getattr(jnp, name)(M)) for name in (
        "transpose", "fliplr", "flipud", "rot90", "tril", "triu", "trace", "diagonal", "diag", "matrix_transpose",
        "hstack", "vstack", "dstack", "column_stack", "atleast_3d", "squeeze", "sum", "mean", "max")},
    "sum_axis": lambda jnp: jnp.sum(M, axis=0),
    "mean_axis": lambda jnp: jnp.mean(M, axis=0),
    "max_axis": lambda jnp: jnp.max(M, axis=1),
    "argmax_axis": lambda jnp: jnp.argmax(M, axis=1),
    "sort_axis": lambda jnp: jnp.sort(M, axis=0),
    "matmul": lambda jnp: jnp.matmul(M, M.T),
    "reshape": lambda jnp: jnp.reshape(M, (3, 2)),
    "reshape_method": lambda jnp: jnp.asarray(M).reshape(3, 2),
    "swapaxes": lambda jnp: jnp.swapaxes(M, 0, 1),
    "moveaxis": lambda jnp: jnp.moveaxis(M, 0, 1),
    "expand_dims": lambda jnp: jnp.expand_dims(M, 0),
    "roll": lambda jnp: jnp.roll(V, 1),
    "roll_axis": lambda jnp: jnp.roll(M, 1, axis=1),
    "concatenate": lambda jnp: jnp.concatenate([V, W]),
    "stack": lambda jnp: jnp.stack([V, W]),
    "tile": lambda jnp: jnp.tile(V, 2),
    "repeat": lambda jnp: jnp.repeat(V, 2),
    "pad": lambda jnp: jnp.pad(V, 1),
    "broadcast_to": lambda jnp: jnp.broadcast_to(V, (2, 4)),
    "split": lambda jnp: jnp.split(V, 2)[0],
    "array_split": lambda jnp: jnp.array_split(V, 3)[0],
    "insert": lambda jnp: jnp.insert(V, 1, 9.0),
    "delete": lambda jnp: jnp.delete(V, 1),
    "resize": lambda jnp: jnp.resize(V, (6,)),
    "meshgrid": lambda jnp: jnp.meshgrid(V, W)[0],
    "full_like": lambda jnp: jnp.full_like(V, 2.0),
    "astype": lambda jnp: jnp.astype(V, jnp.int32),
    "histogram": lambda jnp: jnp.histogram(V, bins=2)[0],
    "polyfit": lambda jnp: jnp.polyfit(V, W, 1),
    "permute_dims": lambda jnp: jnp.permute_dims(M, (1, 0)),
    "rollaxis": lambda jnp: jnp.rollaxis(M, 1),
    "argmin_axis": lambda jnp: jnp.argmin(M, axis=0),
    "nanargmax_axis": lambda jnp: jnp.nanargmax(M, axis=1),
    "hsplit": lambda jnp: jnp.hsplit(M, 3)[0],
    "vsplit": lambda jnp: jnp.vsplit(M, 2)[0],
    "unstack": lambda jnp: jnp.unstack(M)[0],
    "power_scalar_base": lambda jnp: jnp.power(2.0, 3),
    "einsum_interleaved": lambda jnp: jnp.einsum(M, [0, 1], M, [2, 1], [0, 2]),
    "nonzero_matrix": lambda jnp: jnp.nonzero(M),
    "stack_axis": lambda jnp: jnp.stack([V, W], axis=1),
    "linalg_norm": lambda jnp: jnp.linalg.norm(V),
    "linalg_inv": lambda jnp: jnp.linalg.inv(S),
    "linalg_det": lambda jnp: jnp.linalg.det(S),
    "linalg_solve": lambda jnp: jnp.linalg.solve(S, V[:2]),
    "fft_fft": lambda jnp: jnp.fft.fft(V),
    "fft_rfft": lambda jnp: jnp.fft.rfft(V),
}


def _described(jax, out, placement: bool) -> str:
    """Each result's spec and type, or with ``placement`` its kind of sharding, whether it is committed, and its
    type (a value that is not an array: its type)."""
    if isinstance(out, tuple):
        return "; ".join(_described(jax, part, placement) for part in out)
    if not hasattr(out, "sharding"):
        return f"{type(out).__name__}"
    where = f"{type(out.sharding).__name__} committed={out.committed}" if placement else f"{out.sharding.spec}"
    return f"{where} {jax.typeof(out).str_short()}"


def _case(jax, name: str) -> dict:
    """The spec of the result of function ``name`` under set_mesh of an Explicit and of an Auto mesh, and its
    placement without a mesh (or the error raised)."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    found = {}
    for context in ("Explicit", "Auto", None):
        try:
            if context is None:
                found["no_mesh"] = _described(jax, FUNCTIONS[name](jnp), placement=True)
                continue
            kind = getattr(jax.sharding.AxisType, context)
            with jax.sharding.set_mesh(jax.make_mesh((2, 4), ("x", "y"), axis_types=(kind, kind))):
                found[context] = _described(jax, FUNCTIONS[name](jnp), placement=False)
        except Exception as error:  # the type and message are what is compared
            found[context or "no_mesh"] = failure(error, first_line)
    return found


CASES = {name: (lambda jax, name=name: _case(jax, name)) for name in FUNCTIONS}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "host_operand_specs_golden.json")
