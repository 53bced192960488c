"""Write unreduced_golden.json: unreduced and reduced axes in types over a mesh of Explicit axes on eight CPU
devices (``f32[4@x,2]{U:y}``, ``{R:y}``): contractions left unreduced, reshards to reduced or plain layouts, the
types each operation gives or the error it raises, derivatives, results' layouts and values; recorded from the
module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_unreduced_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from make_sharding_types_golden import _jaxpr, _mesh, _outcome, _p, _put, _result

HERE = pathlib.Path(__file__).parent


def _spec(jax, *entries, unreduced=(), reduced=()):
    return jax.sharding.PartitionSpec(*entries, unreduced=set(unreduced), reduced=set(reduced))


def _operands(jax, mesh):
    """a: f32[4@x,8@y] and b: f32[8@y,2], whose product contracts over ``y``."""
    return _put(jax, mesh, (4, 8), "x", "y"), _put(jax, mesh, (8, 2), "y")


def _unreduced_product(jax, a, b):
    return jax.numpy.dot(a, b, out_sharding=_spec(jax, "x", None, unreduced="y"))


def _in_mesh(run):
    """``run(jax, a, b)`` under set_mesh of the Explicit (2, 4) mesh."""
    def case(jax):
        mesh = _mesh(jax)
        with jax.sharding.set_mesh(mesh):
            return run(jax, *_operands(jax, mesh))
    return case


def _traced(f):
    """The jaxpr of ``f(jax)`` applied to a and b."""
    return _in_mesh(lambda jax, a, b: _jaxpr(jax, f(jax), a, b))


def _ran(f):
    """The layout and values of ``jit(f(jax))`` applied to a and b (a pytree's leaves, in order)."""
    def run(jax, a, b):
        return _outcome(lambda: [_result(leaf) for leaf in jax.tree.leaves(jax.jit(f(jax))(a, b))])
    return _in_mesh(run)


def _type_of(op):
    """The type ``op(jax, u, r, plain)`` gives inside a jit, where u is the unreduced product f32[4@x,2]{U:y}, r it
    reduced (f32[4@x,2]{R:y}) and plain it summed (f32[4@x,2]), or the error it raises."""
    def run(jax, a, b):
        seen = []

        def f(a, b):
            u = _unreduced_product(jax, a, b)
            r = jax.sharding.reshard(u, _spec(jax, "x", None, reduced="y"))
            plain = jax.sharding.reshard(u, _p(jax, "x", None))
            seen.append(_outcome(lambda: str(jax.typeof(op(jax, u, r, plain)))))
            return u

        jax.make_jaxpr(f)(a, b)
        return seen[0]
    return _in_mesh(run)


def _loss(target):
    """The sum of the unreduced product resharded to ``target(jax)``."""
    def make(jax):
        return lambda a, b: jax.sharding.reshard(_unreduced_product(jax, a, b), target(jax)).sum()
    return make


def _host_typeof(spec):
    def run(jax, a, b):
        return _outcome(lambda: str(jax.typeof(jax.device_put(np.ones((8, 2), np.float32), spec(jax)))))
    return _in_mesh(run)


def _lowered(jax, a, b):
    def f(a, b):
        return jax.sharding.reshard(_unreduced_product(jax, a, b), _p(jax, "x", None))
    return [line.strip() for line in jax.jit(f).lower(a, b).as_text().splitlines() if "unreduced" in line]


_UNARY = {"neg": lambda jax, x: jax.lax.neg(x), "sin": lambda jax, x: jax.lax.sin(x),
          "convert": lambda jax, x: jax.lax.convert_element_type(x, np.float16),
          "transpose": lambda jax, x: jax.lax.transpose(x, (1, 0)), "sum_rows": lambda jax, x: x.sum(0),
          "sum_all": lambda jax, x: x.sum(), "max": lambda jax, x: jax.lax.reduce_max(x, (1,)),
          "reshape": lambda jax, x: jax.lax.reshape(x, (8,)),
          "broadcast": lambda jax, x: jax.lax.broadcast_in_dim(x, (3, 4, 2), (1, 2)),
          "slice": lambda jax, x: jax.lax.slice(x, (0, 0), (2, 2)),
          "concatenate": lambda jax, x: jax.lax.concatenate([x, x], 0),
          "scale": lambda jax, x: x * 2.0, "integer_pow": lambda jax, x: jax.lax.integer_pow(x, 2),
          "clamp": lambda jax, x: jax.lax.clamp(0.0, x, 3.0), "cumsum": lambda jax, x: jax.lax.cumsum(x, 1),
          "sort": lambda jax, x: jax.lax.sort(x), "rev": lambda jax, x: jax.lax.rev(x, (1,)),
          "argmax": lambda jax, x: jax.lax.argmax(x, 1, np.int32),
          "pad": lambda jax, x: jax.lax.pad(x, np.float32(0), ((0, 0, 0), (1, 1, 0))),
          "stop_gradient": lambda jax, x: jax.lax.stop_gradient(x), "exp": lambda jax, x: jax.lax.exp(x),
          "where_scalar": lambda jax, x: jax.numpy.where(x > 0, x, 0.0),
          "dot_self": lambda jax, x: jax.numpy.dot(x, x.T)}
_BINARY = {"add": lambda jax, x, y: jax.lax.add(x, y), "sub": lambda jax, x, y: jax.lax.sub(x, y),
           "mul": lambda jax, x, y: jax.lax.mul(x, y), "div": lambda jax, x, y: jax.lax.div(x, y)}
_KINDS = {"u": lambda u, r, plain: u, "r": lambda u, r, plain: r, "plain": lambda u, r, plain: plain}

CASES = {
    # types and layouts
    "partition_spec_repr": lambda jax: repr(_spec(jax, "x", None, unreduced="y", reduced="z")),
    "unreduced_over_auto_axes": lambda jax: _outcome(lambda: str(jax.sharding.NamedSharding(
        jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2), _spec(jax, unreduced="x")))),
    "reduced_over_auto_axes": lambda jax: _outcome(lambda: str(jax.sharding.NamedSharding(
        jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2), _spec(jax, reduced="x")))),
    "device_put_reduced": _host_typeof(lambda jax: _spec(jax, None, None, reduced="x")),
    "device_put_reduced_two_axes": _host_typeof(lambda jax: _spec(jax, None, None, reduced=("y", "x"))),
    "device_put_unreduced": _host_typeof(lambda jax: _spec(jax, None, None, unreduced="x")),
    "device_put_reduced_layout": _in_mesh(lambda jax, a, b: str(jax.device_put(
        np.ones(4, np.float32), _spec(jax, None, reduced="x")).sharding)),
    "reduced_layout_differs": lambda jax: [jax.sharding.NamedSharding(_mesh(jax), _spec(jax, None, **kind)) == (
        jax.sharding.NamedSharding(_mesh(jax), _p(jax, None))) for kind in ({"reduced": "x"}, {"unreduced": "x"})],
    "jit_reduced_then_plain": _in_mesh(lambda jax, a, b: [str(jax.typeof(jax.jit(lambda v: v * 2)(v))) for v in (
        jax.device_put(np.ones(4, np.float32), _spec(jax, None, reduced="x")),
        jax.device_put(np.ones(4, np.float32), _p(jax, None)))]),
    # contractions left unreduced
    "dot_unreduced": _traced(lambda jax: lambda a, b: _unreduced_product(jax, a, b)),
    "dot_unreduced_result": _ran(lambda jax: lambda a, b: _unreduced_product(jax, a, b)),
    "dot_unreduced_wrong_axes": _traced(lambda jax: lambda a, b: jax.numpy.dot(
        a, b, out_sharding=_spec(jax, None, None, unreduced="x"))),
    "dot_unreduced_one_side_split": _traced(lambda jax: lambda a, b: jax.numpy.dot(
        a, jax.sharding.reshard(b, _p(jax)), out_sharding=_spec(jax, "x", None, unreduced="y"))),
    # reshards insert the reduction
    "reshard_to_plain": _traced(lambda jax: lambda a, b: jax.sharding.reshard(
        _unreduced_product(jax, a, b), _p(jax, "x", None))),
    "reshard_to_plain_result": _ran(lambda jax: lambda a, b: jax.sharding.reshard(
        _unreduced_product(jax, a, b), _p(jax, "x", None))),
    "reshard_to_reduced": _traced(lambda jax: lambda a, b: jax.sharding.reshard(
        _unreduced_product(jax, a, b), _spec(jax, "x", None, reduced="y"))),
    "reshard_to_reduced_result": _ran(lambda jax: lambda a, b: jax.sharding.reshard(
        _unreduced_product(jax, a, b), _spec(jax, "x", None, reduced="y"))),
    "reduced_then_summed_result": _ran(lambda jax: lambda a, b: jax.sharding.reshard(
        _unreduced_product(jax, a, b), _spec(jax, "x", None, reduced="y")).sum(1) * 2.0),
    "reduced_with_scalars": _traced(lambda jax: lambda a, b: jax.numpy.maximum(jax.sharding.reshard(
        _unreduced_product(jax, a, b), _spec(jax, "x", None, reduced="y")) * 2.0 + a.sum(), 0.0)),
    "lowered_constraints": _in_mesh(_lowered),
    # derivatives: a cotangent of an unreduced value is reduced, and back
    "grad_through_plain": _traced(lambda jax: jax.grad(_loss(lambda jax: _p(jax, "x", None)), argnums=(0, 1))),
    "grad_through_reduced": _traced(lambda jax: jax.grad(_loss(
        lambda jax: _spec(jax, "x", None, reduced="y")), argnums=(0, 1))),
    "grad_through_plain_result": _ran(lambda jax: jax.grad(_loss(lambda jax: _p(jax, "x", None)), argnums=(0, 1))),
    "grad_through_reduced_result": _ran(lambda jax: jax.grad(_loss(
        lambda jax: _spec(jax, "x", None, reduced="y")), argnums=(0, 1))),
    "grad_of_split_contraction": _traced(lambda jax: jax.grad(
        lambda a, b: jax.numpy.dot(a, b, out_sharding=_p(jax, "x", None)).sum(), argnums=(0, 1))),
}
for _name, _op in _UNARY.items():
    for _kind in ("u", "r"):
        CASES[f"type_{_name}_{_kind}"] = _type_of(
            lambda jax, u, r, plain, op=_op, kind=_KINDS[_kind]: op(jax, kind(u, r, plain)))
for _name, _op in _BINARY.items():
    for _left in _KINDS:
        for _right in _KINDS:
            if "u" in (_left, _right) or "r" in (_left, _right):
                CASES[f"type_{_name}_{_left}_{_right}"] = _type_of(
                    lambda jax, u, r, plain, op=_op, x=_KINDS[_left], y=_KINDS[_right]: op(
                        jax, x(u, r, plain), y(u, r, plain)))
CASES["type_select_u"] = _type_of(lambda jax, u, r, plain: jax.lax.select(plain > 0, u, u))
CASES["type_reshard_u_to_r"] = _type_of(lambda jax, u, r, plain: jax.sharding.reshard(
    u, _spec(jax, None, None, reduced="y")))
CASES["type_reshard_r_to_u"] = _type_of(lambda jax, u, r, plain: jax.sharding.reshard(
    r, _spec(jax, None, None, unreduced="y")))


# ---------------------------------------------------------------- inside shard_map: manual axes


def _auto_ring(jax):
    return jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))


def _mapped(body, out_specs=("i",), in_specs=("i",)):
    """``shard_map(body(jax))`` over an Auto mesh of eight devices, checking types (``out_specs``: the entries of
    its spec, or a function of jax making it)."""
    def make(jax):
        out = out_specs(jax) if callable(out_specs) else _p(jax, *out_specs)
        return jax.shard_map(body(jax), mesh=_auto_ring(jax), in_specs=_p(jax, *in_specs), out_specs=out)
    return make


def _ring_jaxpr(make):
    return lambda jax: _jaxpr(jax, make(jax), np.arange(16.0, dtype=np.float32))


def _ring_values(make):
    return lambda jax: _outcome(lambda: np.asarray(jax.jit(make(jax))(np.arange(16.0, dtype=np.float32))).tolist())


def _inside(op, show=lambda aval: str(aval)):
    """What ``typeof`` says of ``op(jax, v)`` inside the body (v: the device's f32[2]{V:i} block; ``show`` prints
    the type), or the error."""
    def case(jax):
        seen = []

        def body(v):
            seen.append(_outcome(lambda: show(jax.typeof(op(jax, v)))))
            return v

        jax.make_jaxpr(jax.shard_map(body, mesh=_auto_ring(jax), in_specs=_p(jax, "i"), out_specs=_p(jax, "i")))(
            np.arange(16.0, dtype=np.float32))
        return seen[0]
    return case


def _gathered(jax, v):
    return jax.lax.all_gather(v, "i", to="reduced", tiled=True)


def _collectives_in(jax, f) -> list:
    """The primitives of the unreduced and reduced collectives (and the plain gathers) in ``f``'s jaxpr."""
    text = str(jax.make_jaxpr(f)(np.arange(16.0, dtype=np.float32)))
    names = ("all_gather_reduced", "unreduced_reduce_scatter", "preduced", "unreduced_psum", "reduced_vary_cast_p",
             "vary_unreduced_cast_p", "pvary", "psum_invariant", "reduce_scatter", "all_gather")
    return [word for line in text.splitlines() for word in line.replace("[", " ").split() if word in names]


def _gather_loss(jax):
    def body(v):
        return (jax.lax.all_gather(v, "i", to="reduced", tiled=True) * v.sum()).sum(keepdims=True)
    mapped = jax.shard_map(body, mesh=_auto_ring(jax), in_specs=_p(jax, "i"), out_specs=_p(jax, "i"))
    return lambda x: (mapped(x) ** 2).sum()


def _explicit_ring(run):
    """``run(jax, x)`` under set_mesh of an Explicit mesh of eight devices, x: f32[16@i]."""
    def case(jax):
        mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Explicit,))
        with jax.sharding.set_mesh(mesh):
            return run(jax, _put(jax, mesh, (16,), "i"))
    return case


def _explicit_result(f):
    def run(jax, x):
        return [_jaxpr(jax, f(jax), x), _outcome(lambda: _result(jax.jit(f(jax))(x)))]
    return _explicit_ring(run)


def _explicit_pair(f):
    """Like ``_explicit_result``, for ``f(jax)`` of a: f32[4]{R:i} and x: f32[16@i]."""
    def run(jax, x):
        reduced = jax.device_put(np.arange(4.0, dtype=np.float32), _spec(jax, None, reduced="i"))
        return [_jaxpr(jax, f(jax), reduced, x), _outcome(lambda: _result(jax.jit(f(jax))(reduced, x)))]
    return _explicit_ring(run)


CASES.update({
    "manual_typeof_gathered": _inside(lambda jax, v: _gathered(jax, v)),
    "manual_mat_gathered": _inside(lambda jax, v: _gathered(jax, v), lambda aval: repr(aval.mat)),
    "manual_sin_of_reduced": _inside(lambda jax, v: jax.numpy.sin(_gathered(jax, v))),
    "manual_sum_of_reduced": _inside(lambda jax, v: jax.lax.all_gather(v, "i", to="reduced").sum(0)),
    "manual_reduced_times_scalar": _inside(lambda jax, v: _gathered(jax, v) * 2.0),
    "manual_reduced_plus_reduced": _inside(lambda jax, v: _gathered(jax, v) + _gathered(jax, v)),
    "manual_unreduced": _inside(lambda jax, v: jax.lax.pcast(v, "i", to="unreduced")),
    "manual_unreduced_sin": _inside(lambda jax, v: jax.numpy.sin(jax.lax.pcast(v, "i", to="unreduced"))),
    "manual_unreduced_times_reduced": _inside(lambda jax, v: jax.lax.pcast(v, "i", to="unreduced") * jax.lax.pcast(
        jax.lax.psum(v, "i"), "i", to="reduced")),
    "manual_pcast_invariant_to_reduced": _inside(lambda jax, v: jax.lax.pcast(jax.lax.psum(v, "i"), "i",
                                                                              to="reduced")),
    "manual_pcast_varying_to_reduced": _inside(lambda jax, v: jax.lax.pcast(v, "i", to="reduced")),
    "manual_pcast_varying_to_varying": _inside(lambda jax, v: jax.lax.pcast(v, "i", to="varying")),
    "manual_pcast_invariant_to_unreduced": _inside(lambda jax, v: jax.lax.pcast(jax.lax.psum(v, "i"), "i",
                                                                                to="unreduced")),
    "manual_pcast_reduced_to_unreduced": _inside(lambda jax, v: jax.lax.pcast(_gathered(jax, v), "i",
                                                                              to="unreduced")),
    "manual_psum_of_reduced": _inside(lambda jax, v: jax.lax.psum(_gathered(jax, v), "i")),
    "manual_gather_invariant_to_reduced": _inside(lambda jax, v: jax.lax.all_gather(jax.lax.psum(v, "i"), "i",
                                                                                    to="reduced")),
    "gather_reduced_times_varying": _ring_jaxpr(_mapped(lambda jax: lambda v: _gathered(jax, v) * v.sum())),
    "gather_reduced_times_varying_values": _ring_values(_mapped(lambda jax: lambda v: _gathered(jax, v) * v.sum())),
    "gather_reduced_untiled": _ring_jaxpr(_mapped(lambda jax: lambda v: jax.lax.pcast(
        jax.lax.all_gather(v, "i", to="reduced", axis=1), "i", to="varying"))),
    "gather_reduced_out_replicated": _ring_jaxpr(_mapped(lambda jax: lambda v: _gathered(jax, v), out_specs=())),
    "gather_reduced_out_split": _ring_jaxpr(_mapped(lambda jax: lambda v: _gathered(jax, v))),
    "reduced_out_specs_over_auto": _ring_jaxpr(_mapped(lambda jax: lambda v: _gathered(jax, v),
                                                       out_specs=lambda jax: _spec(jax, reduced="i"))),
    "reduced_in_specs_over_auto": _ring_jaxpr(lambda jax: jax.shard_map(
        lambda v: v, mesh=_auto_ring(jax), in_specs=_spec(jax, reduced="i"), out_specs=_p(jax))),
    "pcast_to_reduced_then_varying": _ring_jaxpr(_mapped(lambda jax: lambda v: jax.lax.pcast(
        jax.lax.psum(v, "i"), "i", to="reduced") * v)),
    "pcast_to_reduced_then_varying_values": _ring_values(_mapped(lambda jax: lambda v: jax.lax.pcast(
        jax.lax.psum(v, "i"), "i", to="reduced") * v)),
    "psum_of_unreduced": _ring_jaxpr(_mapped(lambda jax: lambda v: jax.lax.psum(
        jax.lax.pcast(v, "i", to="unreduced"), "i"), out_specs=())),
    "psum_of_unreduced_values": _ring_values(_mapped(lambda jax: lambda v: jax.lax.psum(
        jax.lax.pcast(v, "i", to="unreduced"), "i"), out_specs=())),
    "grad_gather_reduced_collectives": lambda jax: _collectives_in(jax, jax.grad(_gather_loss(jax))),
    "grad_gather_reduced_values": lambda jax: np.asarray(jax.jit(jax.grad(_gather_loss(jax)))(
        np.arange(16.0, dtype=np.float32))).tolist(),
    "explicit_out_reduced": _explicit_result(lambda jax: jax.shard_map(
        lambda v: _gathered(jax, v), out_specs=_spec(jax, reduced="i"))),
    "explicit_out_reduced_then_sin": _explicit_result(lambda jax: lambda x: jax.numpy.sin(jax.shard_map(
        lambda v: _gathered(jax, v), out_specs=_spec(jax, reduced="i"))(x))),
    "explicit_out_unreduced_then_summed": _explicit_result(lambda jax: lambda x: jax.sharding.reshard(jax.shard_map(
        lambda v: jax.lax.pcast(v, "i", to="unreduced"), out_specs=_spec(jax, unreduced="i"))(x), _p(jax))),
    "explicit_in_reduced": _explicit_pair(lambda jax: jax.shard_map(
        lambda a, b: a.sum() * b, in_specs=(_spec(jax, None, reduced="i"), _p(jax, "i")), out_specs=_p(jax, "i"))),
    "explicit_in_reduced_inferred": _explicit_pair(lambda jax: jax.shard_map(
        lambda a, b: a.sum() * b, out_specs=_p(jax, "i"))),
    "explicit_in_reduced_grad": _explicit_pair(lambda jax: jax.grad(lambda a, b: jax.shard_map(
        lambda a, b: a.sum() * b, in_specs=(_spec(jax, None, reduced="i"), _p(jax, "i")),
        out_specs=_p(jax, "i"))(a, b).sum())),
    "explicit_out_reduced_grad": _explicit_result(lambda jax: jax.grad(lambda x: jax.numpy.sin(jax.shard_map(
        lambda v: _gathered(jax, v), out_specs=_spec(jax, reduced="i"))(x)).sum())),
})


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "unreduced_golden.json")
