"""Write sharding_types_golden.json: sharding in types over a mesh of Explicit axes on eight CPU devices (types
as ``typeof`` prints them, jaxpr text, results' layouts and values, ShardingTypeErrors), recorded from the module
named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_sharding_types_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import first_line, outcome, typed_mesh

HERE = pathlib.Path(__file__).parent


def _mesh(jax):
    return typed_mesh(jax, "Explicit")


def _p(jax, *spec):
    return jax.sharding.PartitionSpec(*spec)


def _put(jax, mesh, shape, *spec):
    value = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    return jax.device_put(value, jax.sharding.NamedSharding(mesh, _p(jax, *spec)))


def _outcome(thunk) -> str:
    return outcome(thunk, message=first_line)


def _jaxpr(jax, f, *args) -> str:
    return _outcome(lambda: str(jax.make_jaxpr(f)(*args)))


def _result(array) -> str:
    return f"{array.sharding} {array.dtype} {np.asarray(array).tolist()}"


def _typeof(jax, x) -> str:
    aval = jax.typeof(x)
    return f"{aval} {aval.sharding}"


def _in_mesh(run):
    """``run(jax, mesh, a, b, c, d)`` under set_mesh, with a: f32[8@x,4], b: f32[8,4@y], c: f32[8@x,4@y] and
    d: f32[4@y,8@x]."""
    def case(jax):
        mesh = _mesh(jax)
        with jax.sharding.set_mesh(mesh):
            arrays = [_put(jax, mesh, (8, 4), "x"), _put(jax, mesh, (8, 4), None, "y"),
                      _put(jax, mesh, (8, 4), "x", "y"), _put(jax, mesh, (4, 8), "y", "x")]
            return run(jax, mesh, *arrays)
    return case


def _under_auto_mesh(f):
    """The jaxpr of ``f(jax)`` applied to a host f32[4,8] under set_mesh of the mesh's axes made Auto."""
    def case(jax):
        auto = jax.sharding.AxisType.Auto
        with jax.sharding.set_mesh(jax.make_mesh((2, 4), ("x", "y"), axis_types=(auto, auto))):
            return _jaxpr(jax, f(jax), np.arange(32.0, dtype=np.float32).reshape(4, 8))
    return case


def _typeof_inside(jax):
    """The type ``explicit_axes`` gives its argument inside a jit, under a mesh of Auto axes."""
    seen = []

    def f(b):
        seen.append(str(jax.typeof(b)))
        return b

    auto = jax.sharding.AxisType.Auto
    with jax.sharding.set_mesh(jax.make_mesh((2, 4), ("x", "y"), axis_types=(auto, auto))):
        jax.jit(jax.sharding.explicit_axes(f, in_sharding=_p(jax, "x", "y")))(np.ones((4, 8), np.float32))
    return seen[0]


def _traced(f, *which):
    """The jaxpr of ``f(jax)`` applied to the arrays named by ``which`` (indices into a, b, c, d)."""
    return _in_mesh(lambda jax, mesh, *arrays: _jaxpr(jax, f(jax), *[arrays[i] for i in which]))


CASES = {
    # types, printing and normalised specs
    "typeof_rows": _in_mesh(lambda jax, m, a, b, c, d: _typeof(jax, a)),
    "typeof_both": _in_mesh(lambda jax, m, a, b, c, d: _typeof(jax, c)),
    "typeof_two_axes": _in_mesh(lambda jax, m, *_: _typeof(jax, _put(jax, m, (8, 4), ("x", "y")))),
    "typeof_replicated": _in_mesh(lambda jax, m, *_: _typeof(jax, _put(jax, m, (8, 4)))),
    "typeof_scalar": _in_mesh(lambda jax, m, *_: _typeof(jax, _put(jax, m, ()))),
    "typeof_outside_mesh": lambda jax: _typeof(jax, _put(jax, _mesh(jax), (8, 4), None, "y")),
    "typeof_created_in_mesh": _in_mesh(lambda jax, *_: _typeof(jax, jax.numpy.ones(3))),
    "typeof_repr": _in_mesh(lambda jax, m, a, *_: repr(jax.typeof(a))),
    "eval_shape": _in_mesh(lambda jax, m, a, *_: str(jax.eval_shape(lambda u: u * 2, a))),
    "shape_dtype_struct": lambda jax: str(jax.ShapeDtypeStruct((8, 4), np.float32, weak_type=True, sharding=(
        jax.sharding.NamedSharding(_mesh(jax), _p(jax, "x"))))),
    "shape_dtype_struct_argument": lambda jax: _jaxpr(jax, lambda u: u.sum(1), jax.ShapeDtypeStruct(
        (8, 4), np.float32, sharding=jax.sharding.NamedSharding(_mesh(jax), _p(jax, "x")))),
    "device_put_spec": _in_mesh(lambda jax, m, *_: str(_put(jax, m, (8, 4), "x").sharding)),
    "device_put_partition_spec": _in_mesh(lambda jax, m, *_: _result(jax.device_put(np.ones((8, 4), np.float32),
                                                                                    _p(jax, None, "y")))),
    # results of computations carry their type's layout
    "jit_result": _in_mesh(lambda jax, m, a, *_: _result(jax.jit(lambda u: u * 2)(a))),
    "jit_reduced_result": _in_mesh(lambda jax, m, a, *_: _result(jax.jit(lambda u: u.sum(0))(a))),
    "jit_host_argument": _in_mesh(lambda jax, *_: _result(jax.jit(lambda u: u * 2)(np.ones((2, 4), np.float32)))),
    "eager_result": _in_mesh(lambda jax, m, a, b, c, d: _result(jax.numpy.sin(c))),
    "eager_outside_mesh": lambda jax: _result(_put(jax, _mesh(jax), (8, 4), None, "y") * 2),
    "jit_outside_mesh": lambda jax: _result(jax.jit(lambda u: u + 1)(_put(jax, _mesh(jax), (8, 4), None, "y"))),
    "eager_created_in_mesh": _in_mesh(lambda jax, *_: _result(jax.numpy.ones(3))),
    "reshard_result": _in_mesh(lambda jax, m, a, b, c, d: _result(jax.sharding.reshard(b, _p(jax, "x")))),
    "reshard_host_value": _in_mesh(lambda jax, *_: _result(jax.sharding.reshard(np.arange(8.0), _p(jax, "x")))),
    "matmul_result": _in_mesh(lambda jax, m, a, b, c, d: _result(a @ jax.numpy.ones((4, 2), np.float32))),
    # jaxprs: the rules
    "jaxpr_outside_mesh": lambda jax: _jaxpr(jax, lambda u: u * 2, _put(jax, _mesh(jax), (8, 4), "x")),
    "jaxpr_host_argument": _in_mesh(lambda jax, *_: _jaxpr(jax, lambda u: u * 2, np.ones((8, 4), np.float32))),
    "add_merges": _traced(lambda jax: lambda u, v: u + v, 0, 1),
    "add_same": _traced(lambda jax: lambda u, v: jax.lax.add(u, v), 0, 2),
    "add_conflict": _in_mesh(lambda jax, m, a, *_: _jaxpr(jax, lambda u, v: u + v, a,
                                                          _put(jax, m, (8, 4), ("x", "y")))),
    "mul_scalar": _traced(lambda jax: lambda u: u * 3, 2),
    "sin": _traced(lambda jax: jax.numpy.sin, 2),
    "convert": _traced(lambda jax: lambda u: u.astype(jax.numpy.int32), 2),
    "broadcast_leading": _traced(lambda jax: lambda u: jax.numpy.broadcast_to(u, (3, 8, 4)), 0),
    "expand_dims": _traced(lambda jax: lambda u: u[None], 2),
    "reshape_merge": _traced(lambda jax: lambda u: u.reshape(32), 0),
    "reshape_merge_minor": _traced(lambda jax: lambda u: u.reshape(32), 1),
    "reshape_split": _traced(lambda jax: lambda u: u.reshape(2, 4, 4), 0),
    "reshape_split_minor": _traced(lambda jax: lambda u: u.reshape(8, 2, 2), 1),
    "transpose": _traced(lambda jax: lambda u: u.T, 2),
    "sum_rows": _traced(lambda jax: lambda u: u.sum(0), 2),
    "sum_columns": _traced(lambda jax: lambda u: u.sum(1), 2),
    "max_all": _traced(lambda jax: lambda u: u.max(), 2),
    "mean": _traced(lambda jax: lambda u: u.mean(0), 2),
    "argmax": _traced(lambda jax: lambda u: jax.numpy.argmax(u, 0), 2),
    "cumsum_sharded_axis": _traced(lambda jax: lambda u: jax.numpy.cumsum(u, 0), 2),
    "slice_even": _traced(lambda jax: lambda u: u[:4], 2),
    "slice_uneven": _traced(lambda jax: lambda u: u[:, :2], 2),
    "concatenate": _traced(lambda jax: lambda u: jax.numpy.concatenate([u, u], 0), 2),
    "squeeze": _traced(lambda jax: lambda u: u[:, :1].squeeze(1), 0),
    "nested_jit": _traced(lambda jax: jax.jit(lambda u: u * 2), 2),
    "dot_free_dims": _traced(lambda jax: lambda u: u @ u.T, 0),
    "dot_duplicate_axis": _traced(lambda jax: lambda u, v: u @ v, 0, 3),
    "dot_contracting_sharded": _traced(lambda jax: lambda u, v: u @ v, 2, 3),
    "dot_general_out_sharding": _traced(lambda jax: lambda u, v: jax.lax.dot_general(
        u, v, (((1,), (0,)), ((), ())), out_sharding=_p(jax, None, "y")), 2, 3),
    "dot_batch": _in_mesh(lambda jax, m, *_: _jaxpr(jax, lambda u, v: u @ v, _put(jax, m, (2, 8, 4), "x", None, "y"),
                                                    _put(jax, m, (2, 4, 8), "x"))),
    "reshard": _traced(lambda jax: lambda u: jax.sharding.reshard(u, _p(jax, "y", "x")), 2),
    "reshard_duplicate": _traced(lambda jax: lambda u: jax.sharding.reshard(u, _p(jax, "x", "x")), 2),
    "reshard_unknown_axis": _traced(lambda jax: lambda u: jax.sharding.reshard(u, _p(jax, None, "z")), 0),
    "device_put_in_jit": _traced(lambda jax: lambda u: jax.device_put(u, _p(jax, "x")), 1),
    "constraint_matches": _traced(lambda jax: lambda u: jax.lax.with_sharding_constraint(u, _p(jax, "x")), 0),
    "constraint_asserts": _traced(lambda jax: lambda u: jax.lax.with_sharding_constraint(u, _p(jax, None, "y")), 0),
    "lax_reshape_out_sharding": _traced(lambda jax: lambda u: jax.lax.reshape(u, (32,), out_sharding=_p(jax, "y")),
                                        1),
    "lax_broadcast_out_sharding": _traced(lambda jax: lambda u: jax.lax.broadcast_in_dim(
        u, (2, 8, 4), (1, 2), out_sharding=_p(jax, "x", None, "y")), 0),
    # out_sharding arguments
    "zeros_out_sharding": _traced(lambda jax: lambda: jax.numpy.zeros((8, 4), out_sharding=_p(jax, "x"))),
    "ones_out_sharding": _traced(lambda jax: lambda: jax.numpy.ones((8, 4), out_sharding=_p(jax, None, "y"))),
    "full_out_sharding": _traced(lambda jax: lambda: jax.numpy.full((8, 4), 2.0, out_sharding=_p(jax, "x", "y"))),
    "zeros_named_sharding": _in_mesh(lambda jax, m, *_: _jaxpr(jax, lambda: jax.numpy.zeros(
        (8, 4), out_sharding=jax.sharding.NamedSharding(m, _p(jax, "x"))))),
    "arange_out_sharding": _traced(lambda jax: lambda: jax.numpy.arange(8, out_sharding=_p(jax, "x"))),
    "arange_start_out_sharding": _traced(lambda jax: lambda: jax.numpy.arange(2, 10, out_sharding=_p(jax, "x"))),
    "zeros_like": _traced(lambda jax: jax.numpy.zeros_like, 2),
    "ones_like_out_sharding": _traced(lambda jax: lambda u: jax.numpy.ones_like(u, out_sharding=_p(jax, "y")), 2),
    "full_like": _traced(lambda jax: lambda u: jax.numpy.full_like(u, 3.0), 2),
    "reshape_out_sharding": _traced(lambda jax: lambda u: jax.numpy.reshape(u, (32,), out_sharding=_p(jax, "x")), 2),
    "ravel": _traced(lambda jax: lambda u: u.ravel(), 0),
    "broadcast_to": _traced(lambda jax: lambda u: jax.numpy.broadcast_to(u[0], (8, 4)), 1),
    "broadcast_to_out_sharding": _in_mesh(lambda jax, m, *_: _jaxpr(jax, lambda u: jax.numpy.broadcast_to(
        u, (8, 4), out_sharding=_p(jax, "x", "y")), _put(jax, m, (4,), "y"))),
    "dot_out_sharding": _traced(lambda jax: lambda u, v: jax.numpy.dot(u, v, out_sharding=_p(jax, "x")), 2, 3),
    "matmul_out_sharding": _traced(lambda jax: lambda u, v: jax.numpy.matmul(u, v, out_sharding=_p(jax, "x", "y")),
                                   2, 3),
    "einsum_out_sharding": _traced(lambda jax: lambda u, v: jax.numpy.einsum("ij,jk->ik", u, v,
                                                                             out_sharding=_p(jax, "x", "y")), 2, 3),
    "einsum_transposed_out_sharding": _traced(lambda jax: lambda u, v: jax.numpy.einsum(
        "ij,jk->ki", u, v, out_sharding=_p(jax, "y", "x")), 2, 3),
    "tensordot_out_sharding": _traced(lambda jax: lambda u, v: jax.numpy.tensordot(u, v, 1, out_sharding=_p(
        jax, "x")), 2, 3),
    "matmul_batch_out_sharding": _in_mesh(lambda jax, m, *_: _jaxpr(
        jax, lambda u, v: jax.numpy.matmul(u, v, out_sharding=_p(jax, "x", None, "y")),
        _put(jax, m, (2, 8, 4), "x", None, "y"), _put(jax, m, (2, 4, 8), "x", "y"))),
    "einsum_batch": _in_mesh(lambda jax, m, *_: _jaxpr(jax, lambda u, v: jax.numpy.einsum("bij,bjk->bik", u, v),
                                                       _put(jax, m, (2, 8, 4), "x"), _put(jax, m, (2, 4, 8), "x"))),
    "zeros_result": _in_mesh(lambda jax, *_: _result(jax.numpy.zeros((8, 4), out_sharding=_p(jax, "x")))),
    "arange_result": _in_mesh(lambda jax, *_: _result(jax.numpy.arange(8, out_sharding=_p(jax, "x")))),
    "dot_out_sharding_result": _in_mesh(lambda jax, m, a, b, c, d: _result(jax.numpy.dot(
        c, d, out_sharding=_p(jax, None, "y")))),
    # broadcasting, transformations
    "add_row": _in_mesh(lambda jax, m, a, b, c, d: _jaxpr(jax, lambda u, w: u + w, c, _put(jax, m, (4,), "y"))),
    "add_host_row": _traced(lambda jax: lambda u: u + np.ones(4, np.float32), 2),
    "where_scalar": _traced(lambda jax: lambda u: jax.numpy.where(u > 1, u, 0.0), 2),
    "vmap": _traced(lambda jax: jax.vmap(lambda u: u * 2), 2),
    "grad": _traced(lambda jax: jax.grad(lambda u: (u * u).sum()), 2),
    "grad_result": _in_mesh(lambda jax, m, a, b, c, d: _result(jax.jit(jax.grad(lambda u: (u * u).sum()))(c))),
    "scan_over_sharded_axis": _traced(lambda jax: lambda u: jax.lax.scan(
        lambda carry, r: (carry + r, r * 2), jax.numpy.zeros(4), u), 0),
    "cond": _traced(lambda jax: lambda u: jax.lax.cond(True, lambda z: z * 2, lambda z: z + 1, u), 2),
    "explicit_axes_types": _under_auto_mesh(lambda jax: jax.sharding.explicit_axes(
        lambda b: b.sum(0) * 2, in_sharding=_p(jax, "x"))),
    "explicit_axes_some_axes_types": _under_auto_mesh(lambda jax: jax.sharding.explicit_axes(
        lambda b: b * 2, axes="x", in_sharding=_p(jax, "x"))),
    "explicit_axes_typeof_inside": _typeof_inside,
    "auto_axes_some_axes_types": _traced(lambda jax: lambda u: jax.sharding.auto_axes(
        lambda z: z * 2, axes="x", out_sharding=_p(jax, "x", "y"))(u), 2),
    "auto_axes_matmul_types": _traced(lambda jax: lambda u: jax.sharding.auto_axes(
        lambda z: z @ z.T, out_sharding=_p(jax, "x"))(u), 2),
    "auto_axes_types": _traced(lambda jax: lambda u: jax.sharding.auto_axes(
        lambda z: z * 2, out_sharding=_p(jax, None, "y"))(u), 2),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "sharding_types_golden.json")
