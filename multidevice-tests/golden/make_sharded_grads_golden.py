"""Write sharded_grads_golden.json: derivatives under mesh types on eight CPU devices, recorded from the module named
on the command line: the gradients of the samplers given ``out_sharding`` with respect to their parameters (over
meshes of Explicit, mixed and Auto axes, eagerly and under ``jit``, beside the gradients without ``out_sharding``);
the gradients of ``scan``, ``fori_loop``, ``while_loop`` and ``cond`` under a ``vmap`` over a dimension split over a
mesh axis; and the results of an eager ``checkpoint`` returning a constant, under such a ``vmap`` and alone.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_sharded_grads_golden.py jax
"""

import pathlib

import golden_main
import numpy as np
from golden_cases import before_source, outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
SHAPE = (8,)
WEIGHTS = np.linspace(0.5, 1.5, 8, dtype=np.float32)
ROWS = np.arange(16.0, dtype=np.float32).reshape(8, 2) / 8
MEAN = np.array([0.5, -1.0], np.float32)
COV = np.array([[2.0, 0.3], [0.3, 1.0]], np.float32)

# sampler name: (its draw of 8 values (or rows) given the parameters and out_sharding, the parameters)
SAMPLERS = {
    "uniform": (lambda r, k, o, lo, hi: r.uniform(k, SHAPE, minval=lo, maxval=hi, out_sharding=o), (0.5, 2.0)),
    "truncated_normal": (lambda r, k, o, lo, hi: r.truncated_normal(k, lo, hi, SHAPE, out_sharding=o), (-1.0, 1.5)),
    "gamma": (lambda r, k, o, a: r.gamma(k, a, SHAPE, out_sharding=o), (1.5,)),
    "loggamma": (lambda r, k, o, a: r.loggamma(k, a, SHAPE, out_sharding=o), (0.7,)),
    "beta": (lambda r, k, o, a, b: r.beta(k, a, b, SHAPE, out_sharding=o), (2.0, 3.0)),
    "dirichlet": (lambda r, k, o, alpha: r.dirichlet(k, alpha, SHAPE, out_sharding=o),
                  (np.array([1.0, 2.0, 0.5], np.float32),)),
    "chisquare": (lambda r, k, o, df: r.chisquare(k, df, SHAPE, out_sharding=o), (3.0,)),
    "f": (lambda r, k, o, a, b: r.f(k, a, b, SHAPE, out_sharding=o), (4.0, 6.0)),
    "t": (lambda r, k, o, df: r.t(k, df, SHAPE, out_sharding=o), (5.0,)),
    "pareto": (lambda r, k, o, b: r.pareto(k, b, SHAPE, out_sharding=o), (2.5,)),
    "rayleigh": (lambda r, k, o, scale: r.rayleigh(k, scale, SHAPE, out_sharding=o), (2.0,)),
    "lognormal": (lambda r, k, o, sigma: r.lognormal(k, sigma, SHAPE, out_sharding=o), (0.5,)),
    "triangular": (lambda r, k, o, a, m, b: r.triangular(k, a, m, b, SHAPE, out_sharding=o), (0.0, 0.3, 1.0)),
    "wald": (lambda r, k, o, mean: r.wald(k, mean, SHAPE, out_sharding=o), (1.5,)),
    "generalized_normal": (lambda r, k, o, p: r.generalized_normal(k, p, SHAPE, out_sharding=o), (1.5,)),
    "multivariate_normal": (lambda r, k, o, mean, cov: r.multivariate_normal(k, mean, cov, SHAPE, out_sharding=o),
                            (MEAN, COV)),
    "permutation": (lambda r, k, o, x: r.permutation(k, x, out_sharding=o), (ROWS,)),
}


def _mesh(jax, *kinds):
    return typed_mesh(jax, *kinds, shape=(4, 2))


def _outcome(thunk):
    return outcome(thunk, message=before_source)


def _grads(jax, grads):
    """Each gradient's type and values (compared up to rounding: a compiled draw may fuse otherwise)."""
    return [[str(jax.typeof(g)), np.asarray(g, np.float64).ravel().tolist()] for g in grads]


def _sampler_grad(name, kinds, spec, jitted):
    """The gradients of a weighted sum of the draw of ``name`` laid out as ``P(*spec)`` (None: no out_sharding)
    under a mesh of ``kinds``, with respect to every parameter."""
    draw, params = SAMPLERS[name]

    def case(jax):
        def loss(*ps):
            out_sharding = None if spec is None else jax.sharding.PartitionSpec(*spec)
            sample = draw(jax.random, jax.random.key(3), out_sharding, *ps)
            weights = WEIGHTS.reshape((8,) + (1,) * (sample.ndim - 1))
            if sample.ndim > 1:  # rows weighted unevenly too (a dirichlet row sums to 1)
                weights = weights * np.arange(1.0, sample.shape[-1] + 1, dtype=np.float32)
            return (sample * weights).sum()

        grad = jax.grad(loss, argnums=tuple(range(len(params))))
        with jax.sharding.set_mesh(_mesh(jax, *kinds)):
            return _outcome(lambda: _grads(jax, (jax.jit(grad) if jitted else grad)(*params)))
    return case


_EXPLICIT, _MIXED, _AUTO = ("Explicit", "Explicit"), ("Explicit", "Auto"), ("Auto", "Auto")
CASES = {}
for _name in SAMPLERS:
    for _where, _jitted in (("eager", False), ("jit", True)):
        CASES[f"sampler_{_name}_{_where}"] = _sampler_grad(_name, _EXPLICIT, ("x",), _jitted)
        CASES[f"sampler_{_name}_{_where}_unsharded"] = _sampler_grad(_name, _EXPLICIT, None, _jitted)
for _name in ("uniform", "gamma", "beta", "permutation"):
    CASES[f"sampler_{_name}_both_axes"] = _sampler_grad(_name, _EXPLICIT, (("x", "y"),), False)
    CASES[f"sampler_{_name}_mixed_mesh"] = _sampler_grad(_name, _MIXED, ("x",), False)
    CASES[f"sampler_{_name}_mixed_mesh_jit"] = _sampler_grad(_name, _MIXED, ("x",), True)
    CASES[f"sampler_{_name}_auto_mesh_replicated"] = _sampler_grad(_name, _AUTO, (), False)


def _batch(jax, mesh):
    return jax.device_put(np.arange(32.0, dtype=np.float32).reshape(8, 4) / 8,
                          jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("x")))


def _grad(jax, f):
    return jax.grad(f)


# per example (an f32[4]): how it is differentiated, and the function of it differentiated (a loop whose carry
# starts typed over the mesh, a jnp.ones under set_mesh say, and becomes batched differs: see docs/parallel.md)
LOOPS = {
    "scan_batched_carry": (_grad, lambda jax: lambda row: sum(v.sum() for v in jax.lax.scan(
        lambda c, x: (c + x * c, jax.numpy.cos(c)), row, jax.numpy.arange(3.0)))),
    "scan_example_as_xs": (_grad, lambda jax: lambda row: jax.lax.scan(
        lambda c, x: (c * jax.numpy.cos(x) + x, c * x), 0.5 * row, row)[1].sum()),
    "scan_unbatched_carry_made_batched": (_grad, lambda jax: lambda row: jax.lax.scan(
        lambda c, x: (c * jax.numpy.sin(x), c), 1.0, row)[0]),
    "fori_loop": (_grad, lambda jax: lambda row: jax.lax.fori_loop(
        0, 3, lambda i, c: c * jax.numpy.sin(row) + 1.0, row).sum()),
    "cond": (_grad, lambda jax: lambda row: jax.lax.cond(
        row.sum() > 1.0, lambda r: jax.numpy.sin(r), lambda r: r * 2, row).sum()),
    "switch": (_grad, lambda jax: lambda row: jax.lax.switch(
        (row.sum() > 1.0).astype(int), [lambda r: jax.numpy.cos(r), lambda r: r ** 2], row).sum()),
}


def _loop_grad(name, where):
    """The derivative of ``LOOPS[name]`` under a vmap over an f32[8@x,4] (a mesh of one Explicit axis), under jit
    outside any mesh, or under set_mesh eagerly or under jit."""
    def case(jax):
        mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Explicit,))
        differentiate, make = LOOPS[name]
        f = jax.vmap(differentiate(jax, make(jax)))
        xs = _batch(jax, mesh)
        if where == "jit":
            return _outcome(lambda: _grads(jax, [jax.jit(f)(xs)]))
        with jax.sharding.set_mesh(mesh):
            return _outcome(lambda: _grads(jax, [(jax.jit(f) if where == "set_mesh_jit" else f)(xs)]))
    return case


CASES.update({f"vmap_grad_{name}_{where}": _loop_grad(name, where)
              for name in LOOPS for where in ("jit", "set_mesh", "set_mesh_jit")})


def _leaf(jax, value) -> str:
    sharding = getattr(value, "sharding", None)
    layout = sharding.spec if hasattr(sharding, "spec") else type(sharding).__name__
    return f"{jax.typeof(value)} | {layout} | {np.asarray(value).ravel().tolist()}"


CHECKPOINTS = {
    "constant_beside": lambda jax: jax.checkpoint(lambda a: (a * 2, 3.0)),
    "constant_only": lambda jax: jax.checkpoint(lambda a: 3.0),
    "ones_beside": lambda jax: jax.checkpoint(lambda a: (a * 2, jax.numpy.ones(3))),
    "strong_constant": lambda jax: jax.checkpoint(lambda a: (a, np.float32(2.0), 4)),
}


def _checkpoint(name, vmapped, under_mesh, jitted=False):
    """The results of ``CHECKPOINTS[name]`` of an f32[8@x] (vmapped over it or not), under set_mesh or not."""
    def case(jax):
        mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Explicit,))
        x = jax.device_put(np.arange(8.0, dtype=np.float32), jax.sharding.NamedSharding(
            mesh, jax.sharding.PartitionSpec("x")))
        f = CHECKPOINTS[name](jax)
        f = jax.vmap(f) if vmapped else f
        f = jax.jit(f) if jitted else f

        def run():
            return [_leaf(jax, leaf) for leaf in jax.tree.leaves(f(x))]
        if not under_mesh:
            return _outcome(run)
        with jax.sharding.set_mesh(mesh):
            return _outcome(run)
    return case


for _name in CHECKPOINTS:
    CASES[f"checkpoint_{_name}_vmap_set_mesh"] = _checkpoint(_name, True, True)
    CASES[f"checkpoint_{_name}_vmap_set_mesh_jit"] = _checkpoint(_name, True, True, jitted=True)
    CASES[f"checkpoint_{_name}_vmap"] = _checkpoint(_name, True, False)
    CASES[f"checkpoint_{_name}_set_mesh"] = _checkpoint(_name, False, True)
    CASES[f"checkpoint_{_name}"] = _checkpoint(_name, False, False)


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "sharded_grads_golden.json")
