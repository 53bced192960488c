"""Write identity_results_golden.json: under ``jax.set_mesh`` of a mesh of Explicit axes on eight CPU devices, the
results of ``jax.numpy`` and ``jax.lax`` functions that may leave an array operand unchanged (a no-op reshape,
transpose, conversion, broadcast, the real part of a real array ...): whether the result is the operand itself, and
its sharding's spec and type, for operands laid out in several ways (``P()``, one entry per dimension, split) and
for an uncommitted array made outside the mesh; then the specs of other eager operations on uncommitted arrays
(conversions to another dtype among them). Recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_identity_results_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import failure, first_line, typed_mesh

HERE = pathlib.Path(__file__).parent

# name -> the call, given (jax, jax.numpy, operand); each may return its operand as it is
IDENTITIES = {
    "swapaxes_same": lambda jax, jnp, a: jnp.swapaxes(a, 0, 0),
    "swapaxes_method": lambda jax, jnp, a: a.swapaxes(-1, -1),
    "einsum_same": lambda jax, jnp, a: jnp.einsum("ij->ij", a),
    "einsum_implicit": lambda jax, jnp, a: jnp.einsum("ij", a),
    "real": lambda jax, jnp, a: jnp.real(a),
    "real_attribute": lambda jax, jnp, a: a.real,
    "imag": lambda jax, jnp, a: jnp.imag(a),
    "conj": lambda jax, jnp, a: jnp.conj(a),
    "conjugate_method": lambda jax, jnp, a: a.conjugate(),
    "positive": lambda jax, jnp, a: jnp.positive(a),
    "positive_operator": lambda jax, jnp, a: +a,
    "reshape_same": lambda jax, jnp, a: jnp.reshape(a, a.shape),
    "reshape_method": lambda jax, jnp, a: a.reshape(a.shape),
    "reshape_minus_one": lambda jax, jnp, a: jnp.reshape(a, (2, -1)),
    "transpose_same": lambda jax, jnp, a: jnp.transpose(a, (0, 1)),
    "permute_dims_same": lambda jax, jnp, a: jnp.permute_dims(a, (0, 1)),
    "moveaxis_same": lambda jax, jnp, a: jnp.moveaxis(a, 0, 0),
    "rollaxis_same": lambda jax, jnp, a: jnp.rollaxis(a, 0, 0),
    "astype_same": lambda jax, jnp, a: a.astype(a.dtype),
    "jnp_astype_same": lambda jax, jnp, a: jnp.astype(a, a.dtype),
    "squeeze_nothing": lambda jax, jnp, a: jnp.squeeze(a, ()),
    "squeeze_none": lambda jax, jnp, a: jnp.squeeze(a),
    "expand_dims_nothing": lambda jax, jnp, a: jnp.expand_dims(a, ()),
    "broadcast_to_same": lambda jax, jnp, a: jnp.broadcast_to(a, a.shape),
    "broadcast_arrays_one": lambda jax, jnp, a: jnp.broadcast_arrays(a)[0],
    "broadcast_arrays_two": lambda jax, jnp, a: jnp.broadcast_arrays(a, a)[1],
    "asarray": lambda jax, jnp, a: jnp.asarray(a),
    "asarray_dtype": lambda jax, jnp, a: jnp.asarray(a, dtype=a.dtype),
    "asarray_copy": lambda jax, jnp, a: jnp.asarray(a, copy=True),
    "array": lambda jax, jnp, a: jnp.array(a),
    "array_no_copy": lambda jax, jnp, a: jnp.array(a, copy=False),
    "copy": lambda jax, jnp, a: jnp.copy(a),
    "atleast_1d": lambda jax, jnp, a: jnp.atleast_1d(a),
    "atleast_2d": lambda jax, jnp, a: jnp.atleast_2d(a),
    "flip_nothing": lambda jax, jnp, a: jnp.flip(a, ()),
    "roll_zero": lambda jax, jnp, a: jnp.roll(a, 0, axis=0),
    "tile_once": lambda jax, jnp, a: jnp.tile(a, (1, 1)),
    "repeat_once": lambda jax, jnp, a: jnp.repeat(a, 1, axis=0),
    "concatenate_one": lambda jax, jnp, a: jnp.concatenate([a]),
    "rot90_zero": lambda jax, jnp, a: jnp.rot90(a, 0),
    "matrix_transpose_twice": lambda jax, jnp, a: jnp.matrix_transpose(jnp.matrix_transpose(a)),
    "index_ellipsis": lambda jax, jnp, a: a[...],
    "index_full_slices": lambda jax, jnp, a: a[:, :],
    "sum_no_axes": lambda jax, jnp, a: jnp.sum(a, axis=()),
    "where_same": lambda jax, jnp, a: jnp.where(True, a, a),
    "nan_to_num": lambda jax, jnp, a: jnp.nan_to_num(a),
    "lax_convert_same": lambda jax, jnp, a: jax.lax.convert_element_type(a, a.dtype),
    "lax_reshape_same": lambda jax, jnp, a: jax.lax.reshape(a, a.shape),
    "lax_transpose_same": lambda jax, jnp, a: jax.lax.transpose(a, (0, 1)),
    "lax_squeeze_nothing": lambda jax, jnp, a: jax.lax.squeeze(a, ()),
    "lax_expand_dims_nothing": lambda jax, jnp, a: jax.lax.expand_dims(a, ()),
    "lax_broadcast_nothing": lambda jax, jnp, a: jax.lax.broadcast(a, ()),
    "lax_broadcast_in_dim_same": lambda jax, jnp, a: jax.lax.broadcast_in_dim(a, a.shape, (0, 1)),
    "lax_broadcast_to_rank": lambda jax, jnp, a: jax.lax.broadcast_to_rank(a, 2),
    "lax_slice_full": lambda jax, jnp, a: jax.lax.slice(a, (0, 0), a.shape),
    "lax_pad_nothing": lambda jax, jnp, a: jax.lax.pad(a, a.dtype.type(0), [(0, 0, 0), (0, 0, 0)]),
    "lax_rev_nothing": lambda jax, jnp, a: jax.lax.rev(a, ()),
    "lax_stop_gradient": lambda jax, jnp, a: jax.lax.stop_gradient(a),
    "device_put": lambda jax, jnp, a: jax.device_put(a),
}

# name -> the call on a vector or a scalar (its operand made by summing the matrix operand's rows or elements)
LOWER_RANK_IDENTITIES = {
    "ravel_vector": lambda jax, jnp, v: jnp.ravel(v),
    "reshape_vector": lambda jax, jnp, v: jnp.reshape(v, -1),
    "flatten_vector": lambda jax, jnp, v: v.flatten(),
    "transpose_vector": lambda jax, jnp, v: v.T,
    "swapaxes_vector": lambda jax, jnp, v: jnp.swapaxes(v, 0, -1),
    "atleast_1d_vector": lambda jax, jnp, v: jnp.atleast_1d(v),
    "squeeze_vector": lambda jax, jnp, v: jnp.squeeze(v),
    "lax_broadcast_in_dim_scalar": lambda jax, jnp, s: jax.lax.broadcast_in_dim(s, (), ()),
    "lax_expand_dims_scalar": lambda jax, jnp, s: jax.lax.expand_dims(s, ()),
    "expand_dims_scalar": lambda jax, jnp, s: jnp.expand_dims(s, ()),
    "real_scalar": lambda jax, jnp, s: jnp.real(s),
    "squeeze_scalar": lambda jax, jnp, s: jnp.squeeze(s),
    "ravel_scalar": lambda jax, jnp, s: jnp.ravel(s),
}

# name -> the array operand, given (jax, jax.numpy), made under set_mesh (and an uncommitted one, made outside)
OPERANDS = {
    "P()": lambda jax, jnp: jax.device_put(np.arange(8.0, dtype=np.float32).reshape(2, 4), jax.P()),
    "P(None,None)": lambda jax, jnp: jax.device_put(np.arange(8.0, dtype=np.float32).reshape(2, 4), jax.P(None, None)),
    "P(x,y)": lambda jax, jnp: jax.device_put(np.arange(8.0, dtype=np.float32).reshape(2, 4), jax.P("x", "y")),
    "P(x)": lambda jax, jnp: jax.device_put(np.arange(8.0, dtype=np.float32).reshape(2, 4), jax.P("x")),
    "int32 P()": lambda jax, jnp: jax.device_put(np.arange(8, dtype=np.int32).reshape(2, 4), jax.P()),
    "complex64 P()": lambda jax, jnp: jax.device_put((np.arange(8) + 1j).astype(np.complex64).reshape(2, 4), jax.P()),
}

# name -> an eager operation on an uncommitted array (one made outside the mesh, on the default device)
UNCOMMITTED_OPERATIONS = {
    "astype": lambda jax, jnp, a: a.astype(jnp.int32),
    "jnp_astype": lambda jax, jnp, a: jnp.astype(a, jnp.float16),
    "convert_element_type": lambda jax, jnp, a: jax.lax.convert_element_type(a, jnp.int32),
    "bitcast_convert_type": lambda jax, jnp, a: jax.lax.bitcast_convert_type(a, jnp.int32),
    "asarray_dtype": lambda jax, jnp, a: jnp.asarray(a, jnp.float16),
    "scalar_type": lambda jax, jnp, a: jnp.float16(a),
    "lax_sin": lambda jax, jnp, a: jax.lax.sin(a),
    "lax_neg": lambda jax, jnp, a: jax.lax.neg(a),
    "lax_add": lambda jax, jnp, a: jax.lax.add(a, a),
    "lax_integer_pow": lambda jax, jnp, a: jax.lax.integer_pow(a, 2),
    "lax_reduce_precision": lambda jax, jnp, a: jax.lax.reduce_precision(a, 5, 10),
    "lax_clamp": lambda jax, jnp, a: jax.lax.clamp(0.0, a, 2.0),
    "lax_cumsum": lambda jax, jnp, a: jax.lax.cumsum(a),
    "lax_sort": lambda jax, jnp, a: jax.lax.sort(a),
    "lax_rev": lambda jax, jnp, a: jax.lax.rev(a, (0,)),
    "lax_pad": lambda jax, jnp, a: jax.lax.pad(a, 0.0, [(1, 1, 0)]),
    "lax_dynamic_slice": lambda jax, jnp, a: jax.lax.dynamic_slice(a, (1,), (2,)),
    "lax_pad_placed_value": lambda jax, jnp, a: jax.lax.pad(a, jax.device_put(np.float32(0), jax.P()), [(1, 1, 0)]),
    "lax_dynamic_slice_placed_index": lambda jax, jnp, a: jax.lax.dynamic_slice(
        a, (jax.device_put(np.int32(1), jax.P()),), (2,)),
    "lax_clamp_placed_bounds": lambda jax, jnp, a: jax.lax.clamp(jax.device_put(np.float32(0), jax.P()), a,
                                                                 jax.device_put(np.float32(2), jax.P())),
    "jit_pad_placed_value": lambda jax, jnp, a: jax.jit(lambda v, p: jax.lax.pad(v, p, [(1, 1, 0)]))(
        np.asarray(a), jax.device_put(np.float32(0), jax.P())),
    "lax_broadcast_in_dim": lambda jax, jnp, a: jax.lax.broadcast_in_dim(a, (3, 4), (1,)),
    "lax_reduce_sum": lambda jax, jnp, a: jax.lax.reduce_sum(a, (0,)),
    "reshape": lambda jax, jnp, a: a.reshape(2, 2),
    "slice": lambda jax, jnp, a: a[:1],
    "index": lambda jax, jnp, a: a[0],
    "copy": lambda jax, jnp, a: jnp.copy(a),
    "array": lambda jax, jnp, a: jnp.array(a),
    "negative": lambda jax, jnp, a: -a,
    "add_scalar": lambda jax, jnp, a: a + 1,
    "power": lambda jax, jnp, a: a ** 2,
    "sin": lambda jax, jnp, a: jnp.sin(a),
    "sum": lambda jax, jnp, a: jnp.sum(a),
    "where": lambda jax, jnp, a: jnp.where(a > 1, a, 0.0),
    "zeros_like": lambda jax, jnp, a: jnp.zeros_like(a),
    "expand_dims": lambda jax, jnp, a: jnp.expand_dims(a, 0),
    "jit_identity": lambda jax, jnp, a: jax.jit(lambda v: v)(a),
    "stop_gradient": lambda jax, jnp, a: jax.lax.stop_gradient(a),
    "device_put": lambda jax, jnp, a: jax.device_put(a),
    "reshard": lambda jax, jnp, a: jax.sharding.reshard(a, jax.P()),
}


def _described(jax, out, operand=None) -> str:
    """Whether ``out`` is ``operand`` (when given), its sharding's spec (or kind) and its type."""
    sharding = getattr(out.sharding, "spec", type(out.sharding).__name__)
    same = "" if operand is None else f"same={out is operand} "
    return f"{same}{sharding} committed={out.committed} {jax.typeof(out).str_short()}"


def _mesh(jax):
    return typed_mesh(jax, "Explicit")


def _identity_case(jax, name: str) -> dict:
    """Function ``name`` on each operand (and on an uncommitted array) under set_mesh of an Explicit mesh."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    uncommitted = jnp.arange(8.0, dtype=np.float32).reshape(2, 4)
    found = {}
    with jax.sharding.set_mesh(_mesh(jax)):
        operands = {label: make(jax, jnp) for label, make in OPERANDS.items()}
        operands["uncommitted"] = uncommitted
        for label, operand in operands.items():
            try:
                if name in LOWER_RANK_IDENTITIES:
                    axes = 0 if name.endswith("vector") else None
                    operand = jnp.sum(operand, axis=axes)
                    found[label] = _described(jax, LOWER_RANK_IDENTITIES[name](jax, jnp, operand), operand)
                else:
                    found[label] = _described(jax, IDENTITIES[name](jax, jnp, operand), operand)
            except Exception as error:  # the type and message are what is compared
                found[label] = failure(error, first_line)
    return found


def _uncommitted_case(jax, name: str) -> dict:
    """Operation ``name`` under set_mesh of an Explicit mesh on uncommitted arrays of one and of no dimension."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    operands = {"vector": jnp.arange(4.0, dtype=np.float32), "scalar": jnp.float32(2.0)}
    found = {}
    with jax.sharding.set_mesh(_mesh(jax)):
        for label, operand in operands.items():
            try:
                found[label] = _described(jax, UNCOMMITTED_OPERATIONS[name](jax, jnp, operand))
            except Exception as error:  # the type and message are what is compared
                found[label] = failure(error, first_line)
    return found


CASES = {**{f"identity/{name}": (lambda jax, name=name: _identity_case(jax, name))
            for name in (*IDENTITIES, *LOWER_RANK_IDENTITIES)},
         **{f"uncommitted/{name}": (lambda jax, name=name: _uncommitted_case(jax, name))
            for name in UNCOMMITTED_OPERATIONS}}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "identity_results_golden.json")
