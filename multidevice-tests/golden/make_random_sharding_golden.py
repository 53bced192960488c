"""Write random_sharding_golden.json: the samplers of ``jax.random`` given ``out_sharding`` on eight CPU devices (the
sample's type, layout and bits, eagerly and under ``jit``, over meshes of Explicit, Auto and mixed axes; the staged
jaxprs; the errors for specs a sample cannot take) and keys laid out over a mesh (the types and layouts of keys and
of their data put there, split, folded and wrapped), recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_random_sharding_golden.py jax
"""

import hashlib
import pathlib

import golden_main
import numpy as np
from golden_cases import before_source, outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
GOLDEN = HERE / "random_sharding_golden.json"
SHAPE = (8,)
LOGITS = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
ROWS = np.arange(16.0, dtype=np.float32).reshape(8, 2)

# every sampler whose signature has ``out_sharding`` in JAX 0.10.2: a draw of (or along) 8 values
SAMPLERS = {
    "ball": lambda r, k, o: r.ball(k, 2, shape=SHAPE, out_sharding=o),
    "bernoulli": lambda r, k, o: r.bernoulli(k, 0.3, SHAPE, out_sharding=o),
    "beta": lambda r, k, o: r.beta(k, 2.0, 3.0, SHAPE, out_sharding=o),
    "bits": lambda r, k, o: r.bits(k, SHAPE, out_sharding=o),
    "categorical": lambda r, k, o: r.categorical(k, LOGITS, out_sharding=o),
    "cauchy": lambda r, k, o: r.cauchy(k, SHAPE, out_sharding=o),
    "chisquare": lambda r, k, o: r.chisquare(k, 3.0, SHAPE, out_sharding=o),
    "dirichlet": lambda r, k, o: r.dirichlet(k, np.ones(3, np.float32), SHAPE, out_sharding=o),
    "exponential": lambda r, k, o: r.exponential(k, SHAPE, out_sharding=o),
    "f": lambda r, k, o: r.f(k, 2.0, 3.0, SHAPE, out_sharding=o),
    "gamma": lambda r, k, o: r.gamma(k, 2.0, SHAPE, out_sharding=o),
    "generalized_normal": lambda r, k, o: r.generalized_normal(k, 1.5, SHAPE, out_sharding=o),
    "geometric": lambda r, k, o: r.geometric(k, 0.3, SHAPE, out_sharding=o),
    "gumbel": lambda r, k, o: r.gumbel(k, SHAPE, out_sharding=o),
    "laplace": lambda r, k, o: r.laplace(k, SHAPE, out_sharding=o),
    "loggamma": lambda r, k, o: r.loggamma(k, 2.0, SHAPE, out_sharding=o),
    "logistic": lambda r, k, o: r.logistic(k, SHAPE, out_sharding=o),
    "lognormal": lambda r, k, o: r.lognormal(k, 0.5, SHAPE, out_sharding=o),
    "maxwell": lambda r, k, o: r.maxwell(k, SHAPE, out_sharding=o),
    "multivariate_normal": lambda r, k, o: r.multivariate_normal(
        k, np.zeros(2, np.float32), np.eye(2, dtype=np.float32), SHAPE, out_sharding=o),
    "normal": lambda r, k, o: r.normal(k, SHAPE, out_sharding=o),
    "orthogonal": lambda r, k, o: r.orthogonal(k, 2, SHAPE, out_sharding=o),
    "pareto": lambda r, k, o: r.pareto(k, 2.0, SHAPE, out_sharding=o),
    "permutation": lambda r, k, o: r.permutation(k, 8, out_sharding=o),
    "permutation_rows": lambda r, k, o: r.permutation(k, ROWS, out_sharding=o),
    "poisson": lambda r, k, o: r.poisson(k, 3.0, SHAPE, out_sharding=o),
    "rademacher": lambda r, k, o: r.rademacher(k, SHAPE, out_sharding=o),
    "randint": lambda r, k, o: r.randint(k, SHAPE, 0, 10, out_sharding=o),
    "randint_int8": lambda r, k, o: r.randint(k, SHAPE, -5, 100, dtype=np.int8, out_sharding=o),
    "rayleigh": lambda r, k, o: r.rayleigh(k, 2.0, SHAPE, out_sharding=o),
    "t": lambda r, k, o: r.t(k, 3.0, SHAPE, out_sharding=o),
    "triangular": lambda r, k, o: r.triangular(k, 0.0, 0.5, 1.0, SHAPE, out_sharding=o),
    "truncated_normal": lambda r, k, o: r.truncated_normal(k, -1.0, 1.0, SHAPE, out_sharding=o),
    "uniform": lambda r, k, o: r.uniform(k, SHAPE, out_sharding=o),
    "wald": lambda r, k, o: r.wald(k, 1.0, SHAPE, out_sharding=o),
}
# jaxprs recorded in full (the others' differ from these only in their jitted bodies, checked unsharded elsewhere)
JAXPRS = ("bernoulli", "bits", "categorical", "chisquare", "f", "geometric", "lognormal", "maxwell", "normal",
          "permutation", "permutation_rows", "poisson", "rademacher", "randint", "randint_int8", "triangular",
          "uniform")


def _mesh(jax, *kinds):
    return typed_mesh(jax, *kinds, shape=(4, 2))


def _p(jax, *spec):
    return jax.sharding.PartitionSpec(*spec)


def _bits(array) -> str:
    """A digest of the sample's bytes (the bits are compared, not printed)."""
    return hashlib.sha256(np.ascontiguousarray(np.asarray(array)).tobytes()).hexdigest()[:16]


def _sample(jax, array) -> str:
    return f"{jax.typeof(array)} | {array.sharding} | {_bits(array)}"


def _outcome(thunk) -> str:
    return outcome(thunk, message=before_source)


def _under(jax, kinds, run):
    with jax.sharding.set_mesh(_mesh(jax, *kinds)):
        return _outcome(run)


def _draw(jax, name, spec, *, jitted=False, kinds=("Explicit", "Explicit"), key=None):
    """The sampler ``name`` drawn with out_sharding=P(*spec) under a mesh of ``kinds``, eagerly or under jit."""
    def run():
        k = jax.random.key(0) if key is None else key(jax)
        draw = lambda k: SAMPLERS[name](jax.random, k, _p(jax, *spec))  # noqa: E731
        return _sample(jax, jax.jit(draw)(k) if jitted else draw(k))
    return _under(jax, kinds, run)


def _jaxpr(jax, name):
    return _under(jax, ("Explicit", "Explicit"), lambda: str(jax.make_jaxpr(
        lambda k: SAMPLERS[name](jax.random, k, _p(jax, "x")))(jax.random.key(0))))


def _jaxpr_again(jax, name):
    """The jaxpr of ``name`` traced a second time (the samplers' jitted pieces then come from the caches)."""
    _jaxpr(jax, name)
    return _jaxpr(jax, name)


def _uniform(jax, out_sharding, shape=(8, 4)):
    return lambda: _sample(jax, jax.random.uniform(jax.random.key(0), shape, out_sharding=out_sharding(jax)))


def _named(jax, *spec, kinds=("Explicit", "Explicit")):
    return jax.sharding.NamedSharding(_mesh(jax, *kinds), _p(jax, *spec))


# drawn under jit too (a compiled draw may fuse otherwise than an eager one: dirichlet's bits differ, as JAX's)
JITTED = ("bernoulli", "bits", "categorical", "dirichlet", "f", "gamma", "maxwell", "normal", "permutation_rows",
          "rademacher", "randint", "uniform")

CASES = {}
for _name in SAMPLERS:
    CASES[f"eager_{_name}"] = lambda jax, n=_name: _draw(jax, n, ("x",))
for _name in JITTED:
    CASES[f"jit_{_name}"] = lambda jax, n=_name: _draw(jax, n, ("x",), jitted=True)
for _name in JAXPRS:
    CASES[f"jaxpr_{_name}"] = lambda jax, n=_name: _jaxpr(jax, n)
CASES["jaxpr_randint_int8_again"] = lambda jax: _jaxpr_again(jax, "randint_int8")

CASES.update({
    # layouts over two axes, replicated, over a mixed mesh and over Auto axes
    "uniform_both_axes": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j, "x", "y"))),
    "uniform_second_axis": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j, None, "y"))),
    "uniform_axis_pair": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j, ("x", "y")))),
    "uniform_replicated": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j))),
    "uniform_jit_both_axes": lambda jax: _draw(jax, "uniform", ("x", "y"), jitted=True),
    "uniform_named_sharding": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(
        jax, lambda j: _named(j, "x"))),
    "uniform_abstract_mesh": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(
        jax, lambda j: j.sharding.NamedSharding(_mesh(j, "Explicit", "Explicit").abstract_mesh, _p(j, "x")))),
    "uniform_mixed_mesh": lambda jax: _under(jax, ("Explicit", "Auto"), _uniform(jax, lambda j: _p(j, "x"))),
    "uniform_mixed_mesh_jaxpr": lambda jax: _under(jax, ("Explicit", "Auto"), lambda: str(jax.make_jaxpr(
        lambda k: jax.random.uniform(k, (8,), out_sharding=_p(jax, "x")))(jax.random.key(0)))),
    "uniform_mixed_mesh_auto_axis": lambda jax: _under(jax, ("Explicit", "Auto"), _uniform(
        jax, lambda j: _p(j, "x", "y"))),
    "uniform_auto_replicated": lambda jax: _under(jax, ("Auto", "Auto"), _uniform(jax, lambda j: _p(j))),
    "uniform_auto_axis": lambda jax: _under(jax, ("Auto", "Auto"), _uniform(jax, lambda j: _p(j, "x"))),
    "uniform_auto_axis_jit": lambda jax: _draw(jax, "uniform", ("x",), jitted=True, kinds=("Auto", "Auto")),
    "normal_raw_key": lambda jax: _draw(jax, "normal", ("x",), key=lambda j: j.random.PRNGKey(3)),
    "normal_complex": lambda jax: _under(jax, ("Explicit", "Explicit"), lambda: _sample(jax, jax.random.normal(
        jax.random.key(1), (8,), np.complex64, out_sharding=_p(jax, "x")))),
    "uniform_vmapped": lambda jax: _under(jax, ("Explicit", "Explicit"), lambda: _sample(jax, jax.vmap(
        lambda k: jax.random.uniform(k, (8,), out_sharding=_p(jax, "x")))(jax.random.split(jax.random.key(0), 2)))),
    # specs a sample cannot take, and other kinds of argument
    "unknown_axis": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j, "z"))),
    "repeated_axis": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j, "x", "x"))),
    "indivisible": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j, "x"), (3, 4))),
    "indivisible_jit": lambda jax: _under(jax, ("Explicit", "Explicit"), lambda: _sample(jax, jax.jit(
        lambda k: jax.random.uniform(k, (3,), out_sharding=_p(jax, "x")))(jax.random.key(0)))),
    "longer_than_rank": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j, "x", "y"),
                                                                                   (8,))),
    "scalar_split": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j, "x"), ())),
    "scalar_replicated": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: _p(j), ())),
    "string": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: "x")),
    "tuple": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(jax, lambda j: ("x",))),
    "single_device_sharding": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(
        jax, lambda j: j.sharding.SingleDeviceSharding(j.devices()[0]))),
    "unconstrained": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(
        jax, lambda j: _p(j, j.sharding.PartitionSpec.UNCONSTRAINED))),
    "other_mesh": lambda jax: _under(jax, ("Explicit", "Explicit"), _uniform(
        jax, lambda j: _named(j, "x", kinds=("Auto", "Auto")))),
    "several_keys": lambda jax: _under(jax, ("Explicit", "Explicit"), lambda: _sample(jax, jax.random.uniform(
        jax.random.split(jax.random.key(0)), (8,), out_sharding="x"))),
    "bad_dtype_and_sharding": lambda jax: _under(jax, ("Explicit", "Explicit"), lambda: _sample(
        jax, jax.random.uniform(jax.random.key(0), (8,), np.int32, out_sharding="x"))),
    # outside any mesh
    "no_mesh_spec": lambda jax: _outcome(_uniform(jax, lambda j: _p(j, "x"))),
    "no_mesh_empty_spec": lambda jax: _outcome(_uniform(jax, lambda j: _p(j))),
    "no_mesh_named_sharding": lambda jax: _outcome(_uniform(jax, lambda j: _named(j, "x"))),
    "no_mesh_named_replicated": lambda jax: _outcome(_uniform(jax, lambda j: _named(j))),
    "no_mesh_named_sharding_jit": lambda jax: _outcome(lambda: _sample(jax, jax.jit(lambda k: jax.random.uniform(
        k, (8,), out_sharding=_named(jax, "x")))(jax.random.key(0)))),
    "no_mesh_auto_named_sharding": lambda jax: _outcome(_uniform(jax, lambda j: _named(j, kinds=("Auto", "Auto")))),
    "no_mesh_auto_axis": lambda jax: _outcome(_uniform(jax, lambda j: _named(j, "x", kinds=("Auto", "Auto")))),
    "no_mesh_type_sharding": lambda jax: _outcome(_uniform(jax, lambda j: j.typeof(j.numpy.ones(3)).sharding, (3,))),
})


def _laid_out(jax, value) -> str:
    return f"{jax.typeof(value)} | {value.sharding.spec}"


def _keys(jax, kinds, make, *, under_mesh=False):
    """The type and layout of ``make(jax, keys)`` for 8 keys (or their raw data with ``raw``) put over a mesh of
    ``kinds`` split along ``x``, outside the mesh or under ``set_mesh``."""
    def run():
        mesh = _mesh(jax, *kinds)
        keys = jax.device_put(jax.random.split(jax.random.key(0), 8), jax.sharding.NamedSharding(mesh, _p(jax, "x")))
        if not under_mesh:
            return _laid_out(jax, make(jax, keys))
        with jax.sharding.set_mesh(mesh):
            return _laid_out(jax, make(jax, keys))
    return _outcome(run)


def _grid_keys(jax):
    """8 x 2 keys laid out over both axes of an Explicit mesh."""
    mesh = _mesh(jax, "Explicit", "Explicit")
    return jax.device_put(jax.random.split(jax.random.key(0), (8, 2)),
                          jax.sharding.NamedSharding(mesh, _p(jax, "x", "y")))


_EXPLICIT = ("Explicit", "Explicit")
_AUTO = ("Auto", "Auto")
_split = lambda jax, k: jax.vmap(jax.random.split)(k)  # noqa: E731
_fold = lambda jax, k: jax.vmap(jax.random.fold_in, (0, None))(k, 3)  # noqa: E731
CASES.update({
    "keys_put": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: k),
    "keys_data": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.random.key_data(k)),
    "keys_split": lambda jax: _keys(jax, _EXPLICIT, _split),
    "keys_split_data": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.random.key_data(_split(j, k))),
    "keys_fold_in": lambda jax: _keys(jax, _EXPLICIT, _fold),
    "keys_fold_in_data": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.random.key_data(_fold(j, k))),
    "keys_sliced_data": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.random.key_data(k[:4])),
    "keys_wrapped": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.random.wrap_key_data(j.random.key_data(k))),
    "keys_rewrapped_data": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.random.key_data(
        j.random.wrap_key_data(j.random.key_data(k)))),
    "keys_jit_split": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.jit(lambda a: _split(j, a))(k)),
    "keys_jit_split_data": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.jit(
        lambda a: j.random.key_data(_split(j, a)))(k)),
    "keys_vmap_bits": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.vmap(lambda a: j.random.bits(a, (2,)))(k)),
    "keys_vmap_normal": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.vmap(
        lambda a: j.random.normal(a, (2,)))(k)),
    "keys_split_in_mesh": lambda jax: _keys(jax, _EXPLICIT, _split, under_mesh=True),
    "keys_split_shape_in_mesh": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.random.key_data(j.vmap(
        lambda a: j.random.split(a, (3, 2)))(k)), under_mesh=True),
    "keys_fold_in_in_mesh": lambda jax: _keys(jax, _EXPLICIT, _fold, under_mesh=True),
    "keys_wrapped_in_mesh": lambda jax: _keys(jax, _EXPLICIT, lambda j, k: j.random.wrap_key_data(
        j.random.key_data(k)), under_mesh=True),
    "keys_grid_data": lambda jax: _outcome(lambda: _laid_out(jax, jax.random.key_data(_grid_keys(jax)))),
    "keys_grid_split_data": lambda jax: _outcome(lambda: _laid_out(jax, jax.random.key_data(
        jax.vmap(jax.vmap(jax.random.split))(_grid_keys(jax))))),
})


def _put_keys(jax, kinds, spec, shape=(6,)):
    """``split`` keys of ``shape`` put over a mesh of ``kinds`` as ``P(*spec)``: JAX's errors name the keys' shape."""
    def run():
        sharding = jax.sharding.NamedSharding(_mesh(jax, *kinds), _p(jax, *spec))
        return _laid_out(jax, jax.device_put(jax.random.split(jax.random.key(0), shape), sharding))
    return _outcome(run)


CASES.update({
    "keys_put_indivisible": lambda jax: _put_keys(jax, _EXPLICIT, ("x",)),
    "keys_put_indivisible_auto": lambda jax: _put_keys(jax, _AUTO, ("x",)),
    "keys_put_indivisible_mixed": lambda jax: _put_keys(jax, ("Explicit", "Auto"), ("x",)),
    "keys_put_spec_longer_than_rank": lambda jax: _put_keys(jax, _AUTO, (None, "y")),
    "keys_put_dividing": lambda jax: _put_keys(jax, _EXPLICIT, ("y",)),
    "keys_grid_put_indivisible": lambda jax: _put_keys(jax, _EXPLICIT, ("y", "x"), (3, 2)),
})
# over a mesh of Auto axes the partitioner lays the results out: JAX names a key result's layout in full and that of
# its data as an argument's of the same rank, or else by the shortest spec (jaxle's slices of keys differ: not here)
for _name, _make in {"put": lambda j, k: k, "data": lambda j, k: j.random.key_data(k), "split": _split,
                     "split_data": lambda j, k: j.random.key_data(_split(j, k)), "fold_in": _fold,
                     "fold_in_data": lambda j, k: j.random.key_data(_fold(j, k)),
                     "wrapped": lambda j, k: j.random.wrap_key_data(j.random.key_data(k)),
                     "vmap_bits": lambda j, k: j.vmap(lambda a: j.random.bits(a, (2,)))(k),
                     "jit_split_data": lambda j, k: j.jit(lambda a: j.random.key_data(_split(j, a)))(k)}.items():
    CASES[f"auto_keys_{_name}"] = lambda jax, m=_make: _keys(jax, _AUTO, m)
    CASES[f"auto_keys_{_name}_in_mesh"] = lambda jax, m=_make: _keys(jax, _AUTO, m, under_mesh=True)


def record(module) -> dict:
    """Every case's outcome, on 8 CPU devices."""
    module.config.update("jax_num_cpu_devices", 8)
    assert module.device_count() == 8
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(record, GOLDEN)
