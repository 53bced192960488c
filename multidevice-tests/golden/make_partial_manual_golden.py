"""Write partial_manual_golden.json: ``shard_map`` manual over some of a mesh's axes (``axis_names``) where some of
the others are Explicit, eager and under ``jit``: what JAX 0.10.2 refuses (blocks its types no longer divide, eager
untyped bodies, inner ``shard_map``s of eager bodies given specs other than their arguments' types) and what it runs
(values, layouts, jaxprs and the lowered program), on eight CPU devices, recorded from the module named on the
command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_partial_manual_golden.py jax

Each case is a function of the module returning text; the test runs the same functions with jaxle and compares.
"""

import contextlib
import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh
from make_shard_map_axes_golden import _body_text, _manual_computations, _p, _sorted_sets
from make_vma_golden import _values

HERE = pathlib.Path(__file__).parent
X = np.arange(16.0, dtype=np.float32).reshape(4, 4)
TALL = np.arange(32.0, dtype=np.float32).reshape(8, 4)


def _put(jax, mesh, *spec, value=X):
    return jax.device_put(value, jax.sharding.NamedSharding(mesh, _p(jax, *spec)))


def _outcome(jax, thunk) -> str:
    """The values, layout and type of ``thunk()``'s result, or its error."""
    return outcome(thunk, lambda r: f"{_values(r)} {r.sharding.spec} {jax.typeof(r)}", message=_sorted_sets)


def _sm(jax, f, mesh, in_specs, out_specs, axis_names, **options):
    """A shard_map of ``f`` manual over ``axis_names`` (over the context mesh when ``mesh`` is None)."""
    if mesh is not None:
        options["mesh"] = mesh
    return jax.shard_map(f, in_specs=in_specs, out_specs=out_specs, axis_names=axis_names, **options)


def _auto_explicit(jax, body=lambda v: v * 2):
    """Over ('x': Auto, 'y': Explicit), manual over y, the argument whole in the body (split over y outside)."""
    return _sm(jax, body, typed_mesh(jax, "Auto", "Explicit"), _p(jax), _p(jax), {"y"})


def _y_split(jax, spec=(None, "y")):
    return _put(jax, typed_mesh(jax, "Auto", "Explicit"), *spec)


def _doubled(jax, kinds, check_vma):
    """A shard_map over ('x', 'y') of the given axis types, manual over x, doubling its blocks."""
    return _sm(jax, lambda v: v * 2, typed_mesh(jax, *kinds), _p(jax, "x"), _p(jax, "x"), {"x"}, check_vma=check_vma)


def _grad(jax, f):
    return jax.grad(lambda v: f(v).sum())


def _nested(jax, inner_spec):
    """Over the ('x', 'y') Explicit mesh, manual over x, a body tripling its block with a shard_map manual over y
    (``inner_spec``: the entries of its in and out specs)."""
    body = lambda v: _sm(jax, lambda w: w * 3, None, _p(jax, *inner_spec), _p(jax, *inner_spec), {"y"})(v)
    return _sm(jax, body, _explicit_2x4(jax), _p(jax, "x"), _p(jax, "x"), {"x"})


def _explicit_2x2x2(jax):
    return typed_mesh(jax, "Explicit", "Explicit", "Explicit", shape=(2, 2, 2), names=("a", "b", "c"))


def _explicit_2x4(jax):
    return typed_mesh(jax, "Explicit", "Explicit")


def _three_axes(jax):
    return typed_mesh(jax, "Auto", "Auto", "Auto", shape=(2, 2, 2), names=("a", "b", "c"))


def _eager_layout(jax, kinds, context, spec, names, out_spec):
    """The eager shard_map over ('x', 'y') of the given axis types (its own mesh, or the one ``set_mesh`` makes
    current), manual over ``names``, doubling TALL laid out as ``spec``: the result's layout is named by its out
    specs as written when every axis is manual, else as a jitted program's result (no argument's sharding)."""
    mesh = typed_mesh(jax, *kinds)
    value = _put(jax, mesh, *spec, value=TALL)
    mapped = _sm(jax, lambda v: v * 2, None if context else mesh, _p(jax, *out_spec), _p(jax, *out_spec), names)
    with jax.set_mesh(mesh) if context else contextlib.nullcontext():
        return _outcome(jax, lambda: mapped(value))


CASES = {
    # the axes left Explicit inside lay the block out as they laid the array out: they must still divide it
    "block_no_longer_divided": lambda jax: _outcome(jax, lambda: _sm(
        jax, lambda v: v * 2, _explicit_2x4(jax), _p(jax, "x"), _p(jax, "x"), {"x"})(
        _put(jax, _explicit_2x4(jax), "y", None))),
    "block_no_longer_divided_jit": lambda jax: _outcome(jax, lambda: jax.jit(_sm(
        jax, lambda v: v * 2, _explicit_2x4(jax), _p(jax, "x"), _p(jax, "x"), {"x"}))(
        _put(jax, _explicit_2x4(jax), "y", None))),
    "block_no_longer_divided_by_two_axes": lambda jax: _outcome(jax, lambda: _sm(
        jax, lambda v: v, typed_mesh(jax, "Explicit", "Explicit", "Explicit", shape=(2, 2, 2), names=("a", "b", "c")),
        _p(jax, "a"), _p(jax, "a"), {"a"})(_put(jax, typed_mesh(
            jax, "Explicit", "Explicit", "Explicit", shape=(2, 2, 2), names=("a", "b", "c")), ("b", "c"), None))),
    "block_still_divided": lambda jax: _outcome(jax, lambda: _sm(
        jax, lambda v: v * 2, _explicit_2x4(jax), _p(jax, "x"), _p(jax, "x"), {"x"})(
        _put(jax, _explicit_2x4(jax), "y", None, value=TALL))),
    # manual over the Explicit axis of a mesh with an Auto one, the argument split over it outside, whole inside
    "auto_explicit_eager": lambda jax: _outcome(jax, lambda: _auto_explicit(jax)(_y_split(jax))),
    "auto_explicit_jit": lambda jax: _outcome(jax, lambda: jax.jit(_auto_explicit(jax))(_y_split(jax))),
    "auto_explicit_rows_split": lambda jax: _outcome(jax, lambda: _auto_explicit(jax)(_y_split(jax, ("y",)))),
    "auto_explicit_sum": lambda jax: _outcome(jax, lambda: _auto_explicit(jax, lambda v: v.sum(0))(
        _y_split(jax, ("y",)))),
    "auto_explicit_sum_jit": lambda jax: _outcome(jax, lambda: jax.jit(_auto_explicit(jax, lambda v: v.sum(0)))(
        _y_split(jax, ("y",)))),
    "auto_explicit_jaxpr": lambda jax: str(jax.make_jaxpr(_auto_explicit(jax))(_y_split(jax))),
    "auto_explicit_lowered": lambda jax: _body_text(jax, _auto_explicit(jax), _y_split(jax)),
    # a shard_map directly in the body of an eager one (also under grad), over the axes left (all Explicit), checks
    # its in_specs against its arguments' types as JAX's eager evaluation does (naming the stacked blocks); in a
    # jitted body, or leaving an axis to the partitioner, it does not
    **{f"inner_{name}_{how}": (lambda jax, inner=inner, value=value, how=how: _outcome(jax, lambda: {
        "eager": lambda f: f(value(jax)), "jit": lambda f: jax.jit(f)(value(jax)),
        "grad": lambda f: _grad(jax, f)(value(jax))}[how](_nested(jax, inner))))
       for name, inner, value in (
           ("split_unsplit", (None, "y"), lambda jax: _put(jax, _explicit_2x4(jax), "x", None)),
           ("whole_split", (), lambda jax: _put(jax, _explicit_2x4(jax), "x", "y")),
           ("matching", (None, "y"), lambda jax: _put(jax, _explicit_2x4(jax), "x", "y")))
       for how in ("eager", "jit", "grad")},
    # JAX 0.10.2's eager grad of a shard_map nested in an eager one stacks the inner's residuals over axes they are
    # already joined over (its DuplicateSpecError); under jit, and with every axis Auto, it computes
    **{f"inner_sin_auto_{how}": (lambda jax, how=how: _outcome(jax, lambda: {
        "grad": lambda f: _grad(jax, f)(X), "eager": lambda f: f(X)}[how](_sm(
            jax, lambda v: _sm(jax, jax.numpy.sin, None, _p(jax, None, "y"), _p(jax, None, "y"), {"y"})(v),
            typed_mesh(jax, "Auto", "Auto"), _p(jax, "x"), _p(jax, "x"), {"x"}))))
       for how in ("eager", "grad")},
    **{f"inner_three_axes_{name}": (lambda jax, outer=outer, inner=inner, spec=spec, names=names: _outcome(
        jax, lambda: _sm(jax, lambda v: _sm(jax, lambda w: w * 3, None, _p(jax, *inner), _p(jax, *inner), names)(v),
                         _explicit_2x2x2(jax), _p(jax, spec[0]), _p(jax, spec[0]), outer)(
            _put(jax, _explicit_2x2x2(jax), *spec))))
       for name, outer, inner, spec, names in (
           ("two_outer_axes", {"a", "b"}, (None, "c"), (("b", "a"),), {"c"}),
           ("axis_left", {"a"}, ("b",), ("a", "c"), {"b"}),
           ("two_inner_axes", {"a"}, ("b", "c"), ("a", "c"), {"b", "c"}),
           ("two_inner_axes_matching", {"a"}, (None, "c"), ("a", "c"), {"b", "c"}))},
    # over a mesh with Auto axes, the manual computation's dimensions are open and the Explicit axes its specs do
    # not name are listed as replicated
    **{f"mixed_mesh_lowered_{'_'.join(sorted(names))}": (
        lambda jax, names=names, spec=spec: _manual_computations(jax, _sm(
            jax, lambda v: v * 2,
            typed_mesh(jax, "Explicit", "Auto", "Explicit", shape=(2, 2, 2), names=("a", "b", "c")),
            _p(jax, *spec), _p(jax, *spec), names), X))
       for names, spec in (({"b"}, ()), ({"a"}, ()), ({"a", "c"}, ("c",)), ({"c"}, (None, "c")))},
    # JAX 0.10.2's eager shard_map with unchecked types refuses a body manual over only some axes, naming the others
    # as if its out_specs did (also under grad and vmap, and under set_mesh); under jit it runs
    **{f"unchecked_{'_'.join(kinds).lower()}_{how}": (
        lambda jax, kinds=kinds, how=how: _outcome(jax, lambda: {
            "eager": lambda f: f(X), "grad": lambda f: _grad(jax, f)(X),
            "jit_grad": lambda f: jax.jit(_grad(jax, f))(X)}[how](_doubled(jax, kinds, False))))
       for kinds in (("Auto", "Auto"), ("Explicit", "Explicit"), ("Auto", "Explicit"))
       for how in ("eager", "grad", "jit_grad") if (kinds, how) != (("Auto", "Explicit"), "jit_grad")},
    "unchecked_vmap": lambda jax: _outcome(jax, lambda: jax.vmap(_doubled(jax, ("Auto", "Auto"), False))(
        np.ones((3, 4, 4), np.float32))),
    "unchecked_three_axes": lambda jax: _outcome(jax, lambda: _sm(
        jax, lambda v: v * 2, _three_axes(jax), _p(jax), _p(jax), {"b"}, check_vma=False)(X)),
    "unchecked_two_of_three_axes": lambda jax: _outcome(jax, lambda: _sm(
        jax, lambda v: v * 2, _three_axes(jax), _p(jax), _p(jax), {"a", "c"}, check_vma=False)(X)),
    "unchecked_all_axes": lambda jax: _outcome(jax, lambda: _sm(
        jax, lambda v: v * 2, _three_axes(jax), _p(jax), _p(jax), {"a", "b", "c"}, check_vma=False)(X)),
    # a body printed on its own lists the axes its types vary over in its mesh's order (not their names')
    **{f"body_alone_{'_'.join(names)}": (lambda jax, names=names: str(jax.make_jaxpr(_sm(
        jax, lambda v: v * 2, typed_mesh(jax, "Auto", "Auto", names=names), _p(jax, names), _p(jax, names), set()))(
        TALL).eqns[0].params["jaxpr"]))
       for names in (("b", "a"), ("x", "y"))},
    "nested_body_alone": lambda jax: str(jax.make_jaxpr(_sm(
        jax, lambda v: _sm(jax, lambda w: w * 2, None, _p(jax, None, "a"), _p(jax, None, "a"), {"a"})(v),
        typed_mesh(jax, "Auto", "Auto", names=("b", "a")), _p(jax, "b"), _p(jax, "b"), {"b"}))(X)).split(
        "jaxpr=")[0] + str(jax.make_jaxpr(_sm(
            jax, lambda v: _sm(jax, lambda w: w * 2, None, _p(jax, None, "a"), _p(jax, None, "a"), {"a"})(v),
            typed_mesh(jax, "Auto", "Auto", names=("b", "a")), _p(jax, "b"), _p(jax, "b"), {"b"}))(X).eqns[0].params[
                "jaxpr"]),
    **{f"eager_layout_{'_'.join(kinds).lower()}_{'context' if context else 'own'}_{'_'.join(sorted(names))}"
       f"_{'_'.join(map(str, spec))}_{'_'.join(map(str, out_spec)) or 'whole'}": (
           lambda jax, kinds=kinds, context=context, spec=spec, names=names, out_spec=out_spec: _eager_layout(
               jax, kinds, context, spec, names, out_spec))
       for kinds in (("Explicit", "Auto"), ("Auto", "Auto")) for context in (False, True)
       for spec in (("x", None), (None, None))
       for names, out_spec in (({"y"}, ()), ({"x", "y"}, ()), ({"y"}, (None, "y")))},
    # specs naming several axes that are not manual: each is listed
    "in_specs_two_axes_not_manual": lambda jax: _outcome(jax, lambda: jax.jit(_sm(
        jax, lambda v: v, _three_axes(jax), _p(jax, "b", "c"), _p(jax), {"a"}))(X)),
    "out_specs_two_axes_not_manual": lambda jax: _outcome(jax, lambda: jax.jit(_sm(
        jax, lambda v: v, _three_axes(jax), _p(jax), _p(jax, ("c", "b")), {"a"}))(X)),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "partial_manual_golden.json")
