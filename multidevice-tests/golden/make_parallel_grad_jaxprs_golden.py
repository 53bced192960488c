"""Write parallel_grad_jaxprs_golden.json: the jaxprs of derivatives of ``shard_map`` and ``pmap`` on eight CPU
devices (the seed cotangent resharded to the layout of an output computed by a shard_map, the ``out_sharding`` of
reductions a transposed body makes over the manual mesh), and their values, recorded from the module named on the
command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_parallel_grad_jaxprs_golden.py jax
"""

import functools
import pathlib

import golden_main
import numpy as np
from golden_cases import typed_mesh

HERE = pathlib.Path(__file__).parent
W = np.arange(3, dtype=np.float32) / 4
X = np.arange(24, dtype=np.float32).reshape(8, 3) / 8
V = np.arange(8, dtype=np.float32) / 2


def _mesh(jax):
    return typed_mesh(jax, "Auto", shape=(4,), names=("i",))


def _shard_map(jax, body, in_specs, out_specs, check_vma=True):
    return jax.shard_map(body, mesh=_mesh(jax), in_specs=in_specs, out_specs=out_specs, check_vma=check_vma)


def _psum_loss(jax, check_vma=True):
    """sum over the devices of (rows * w).sum(): w replicated, the rows split over 'i'."""
    P = jax.sharding.PartitionSpec
    return _shard_map(jax, lambda w, x: jax.lax.psum((x * w).sum(), "i"), (P(), P("i")), P(), check_vma)


def _expanding_loss(jax):
    """A body broadcasting a replicated value against its rows and summing back (the transposes of both)."""
    P = jax.sharding.PartitionSpec

    def body(w, x):
        row = jax.numpy.broadcast_to(w[:1], (2, 3)) + x
        return jax.lax.psum((row * w[None]).sum(), "i")
    return _shard_map(jax, body, (P(), P("i")), P())


def _rows_loss(jax, check_vma):
    """The sum of a body whose residuals (the cosine of its block, the block's sum) are joined along dimension 0
    over the manual axes, a scalar's made a row, whether types are checked or not."""
    P = jax.sharding.PartitionSpec
    mapped = _shard_map(jax, lambda x: jax.numpy.sin(x) * x.sum(), P("i"), P("i"), check_vma)
    return lambda x: mapped(x).sum()


def _pmapped_rows_loss(jax):
    """The sum of a pmap whose residual (the cosine of each device's row) is a row of each device's value."""
    mapped = jax.pmap(lambda u: jax.lax.psum(jax.numpy.sin(u), "i"), axis_name="i")
    return lambda x: mapped(x).sum()


def _pmapped(jax):
    return jax.pmap(lambda u: u * jax.lax.psum(u, "i"), axis_name="i")


def _explicit_mesh_grad(jax) -> str:
    """The jaxpr of the gradient of a shard_map over a mesh of Explicit axes, under set_mesh of that mesh."""
    P = jax.sharding.PartitionSpec
    mesh = jax.make_mesh((4,), ("i",), axis_types=(jax.sharding.AxisType.Explicit,))
    loss = jax.shard_map(lambda a: jax.lax.psum(a.sum(), "i"), mesh=mesh, in_specs=P("i"), out_specs=P())
    with jax.sharding.set_mesh(mesh):
        v = jax.device_put(V, jax.sharding.NamedSharding(mesh, P("i")))
        return str(jax.make_jaxpr(jax.grad(lambda u: loss(u) * 2))(v))


def _broadcast_loss(w, x, jnp):
    return (jnp.sin(x + w[None]) * 2).sum()


def _under_auto_mesh(jax, make) -> str:
    """The jaxpr of ``make(jax)`` under set_mesh of a mesh of one Auto axis: the reductions and reshapes its
    transpositions make outside any shard_map name that mesh where JAX's do."""
    with jax.sharding.set_mesh(_mesh(jax)):
        return str(jax.make_jaxpr(make(jax))(W, X))


def _over_auto_mesh(jax, make, split_w: bool) -> str:
    """The jaxpr of ``make(jax)`` for arguments of which one is laid out over a mesh of Auto axes (no set_mesh):
    the seed is resharded to the output's type, the transposed reductions name the mesh where JAX's do."""
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    put = lambda a, *spec: jax.device_put(a, jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec)))  # noqa: E731
    w, x = (put(W), X) if split_w else (W, put(X, "x"))
    return str(jax.make_jaxpr(make(jax))(w, x))


AUTO_MESH_DERIVATIVES = {
    "grad": lambda jax: jax.grad(lambda w, x: _broadcast_loss(w, x, jax.numpy)),
    "grad_both": lambda jax: jax.grad(lambda w, x: _broadcast_loss(w, x, jax.numpy), argnums=(0, 1)),
    "vjp": lambda jax: lambda w, x: jax.vjp(lambda u, v: _broadcast_loss(u, v, jax.numpy), w, x)[1](np.float32(1)),
    "linearize": lambda jax: lambda w, x: jax.linearize(lambda u, v: _broadcast_loss(u, v, jax.numpy), w, x)[1](
        w, x),
    "grad_of_product": lambda jax: jax.grad(lambda w, x: (x * w[None]).sum()),
    "grad_of_difference": lambda jax: jax.grad(lambda w, x: (w[None] - x).sum()),
    "grad_of_two_broadcasts": lambda jax: jax.grad(lambda w, x: (w[None] + jax.numpy.sin(w)).sum() + x.sum()),
    "grad_of_scalar_product": lambda jax: jax.grad(lambda w, x: (w * w).sum() * x.sum()),
    "grad_of_scalar_sum_both": lambda jax: jax.grad(lambda w, x: (w * w).sum() + x.sum(), argnums=(0, 1)),
    "grad_of_scalar_sum": lambda jax: jax.grad(lambda w, x: (w * w).sum() + x.sum()),
    "grad_of_vector_plus_sum": lambda jax: jax.grad(lambda w, x: ((w * w) + x.sum(0)).sum()),
    "linearize_of_scalar_sum": lambda jax: lambda w, x: jax.linearize(lambda u: (u * u).sum() + x.sum(), w)[1](w),
}


OVER_AUTO_MESH = ("grad", "grad_both", "vjp", "grad_of_product", "grad_of_difference", "grad_of_two_broadcasts",
                  "grad_of_scalar_product", "grad_of_scalar_sum", "grad_of_scalar_sum_both", "grad_of_vector_plus_sum",
                  "linearize_of_scalar_sum")


def _psum_loss_plus_outside(jax):
    """The psum loss plus a sum computed outside the shard_map: the cotangent of that sum is a scalar of another
    type than the seed (resharded over the shard_map's mesh), summed over no axes."""
    loss = _psum_loss(jax)
    return jax.grad(lambda w, x: loss(w, x) + (w * w).sum())


def _text_and_values(jax, f, *args) -> dict:
    return {"jaxpr": str(jax.make_jaxpr(f)(*args)),
            "values": np.round(np.asarray(jax.jit(f)(*args)), 4).tolist()}


CASES = {
    "grad_of_shard_map_psum_loss": lambda jax: _text_and_values(jax, jax.grad(_psum_loss(jax)), W, X),
    "grad_of_shard_map_psum_loss_both": lambda jax: {
        "jaxpr": str(jax.make_jaxpr(jax.grad(_psum_loss(jax), argnums=(0, 1)))(W, X))},
    "grad_of_shard_map_unchecked": lambda jax: _text_and_values(jax, jax.grad(_psum_loss(jax, False)), W, X),
    "grad_of_scaled_shard_map_result": lambda jax: _text_and_values(
        jax, jax.grad(lambda w, x: jax.numpy.sin(_psum_loss(jax)(w, x)) * 2), W, X),
    "grad_of_shard_map_broadcasts": lambda jax: _text_and_values(jax, jax.grad(_expanding_loss(jax)), W, X),
    "value_and_grad_of_shard_map": lambda jax: {
        "jaxpr": str(jax.make_jaxpr(jax.value_and_grad(_psum_loss(jax)))(W, X))},
    "vjp_of_shard_map": lambda jax: {"jaxpr": str(jax.make_jaxpr(
        lambda w, x, ct: jax.vjp(lambda u: _psum_loss(jax)(u, x), w)[1](ct))(W, X, np.float32(1)))},
    "grad_of_shard_map_over_explicit_mesh": _explicit_mesh_grad,
    "pmap_of_grad": lambda jax: _text_and_values(
        jax, jax.pmap(jax.grad(lambda v: jax.lax.psum(v * v, "i")), axis_name="i"), V),
    "grad_of_shard_map_of_rows": lambda jax: _text_and_values(jax, jax.grad(_rows_loss(jax, True)), X),
    "grad_of_unchecked_shard_map_of_rows": lambda jax: _text_and_values(jax, jax.grad(_rows_loss(jax, False)), X),
    "grad_of_pmap_of_rows": lambda jax: _text_and_values(jax, jax.grad(_pmapped_rows_loss(jax)), X),
    "grad_of_pmap": lambda jax: _text_and_values(jax, jax.grad(lambda v: _pmapped(jax)(v).sum()), V),
    "grad_of_pmap_then_sin": lambda jax: _text_and_values(
        jax, jax.grad(lambda v: jax.numpy.sin(_pmapped(jax)(v)).sum()), V),
    **{f"under_auto_mesh_{name}": functools.partial(_under_auto_mesh, make=make)
       for name, make in AUTO_MESH_DERIVATIVES.items()},
    **{f"over_auto_mesh_{name}_{'w' if split_w else 'x'}": functools.partial(_over_auto_mesh, make=make,
                                                                            split_w=split_w)
       for name, make in AUTO_MESH_DERIVATIVES.items() if name in OVER_AUTO_MESH for split_w in (False, True)},
    "grad_of_shard_map_plus_outside": lambda jax: _text_and_values(jax, _psum_loss_plus_outside(jax), W, X),
    "grad_inside_shard_map": lambda jax: _text_and_values(jax, _shard_map(
        jax, lambda w, x: jax.grad(lambda u: jax.lax.psum((x * u).sum(), "i"))(w),
        (jax.sharding.PartitionSpec(), jax.sharding.PartitionSpec("i")), jax.sharding.PartitionSpec()), W, X),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "parallel_grad_jaxprs_golden.json")
