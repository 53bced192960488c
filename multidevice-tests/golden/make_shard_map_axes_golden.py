"""Write shard_map_axes_golden.json: ``shard_map`` with only some mesh axes manual (``axis_names``), and collectives
over several mesh axes at once, on eight CPU devices, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_shard_map_axes_golden.py jax

Each case is a function of the module returning text (a jaxpr, an error's type and message, values, the headers of
the lowered manual computations); the test runs the same functions with jaxle and compares the texts.
"""

import contextlib
import io
import pathlib
import re

import golden_main
import numpy as np
from golden_cases import error_of, typed_mesh
from make_vma_golden import _jaxpr, _values

HERE = pathlib.Path(__file__).parent
X = np.arange(16.0, dtype=np.float32).reshape(4, 4)
WIDE = np.arange(32.0, dtype=np.float32).reshape(4, 8)
W = np.linspace(-1, 1, 4, dtype=np.float32)
ROW = np.arange(8.0, dtype=np.float32)


def _p(jax, *spec):
    return jax.sharding.PartitionSpec(*spec)


def _mesh(jax, kind="Auto"):
    return typed_mesh(jax, kind, names=("i", "j"))


def _sm(jax, f, in_specs, out_specs, axis_names=frozenset({"i"}), **options):
    """A shard_map over the ('i': 2, 'j': 4) mesh of Auto axes, manual over ``axis_names``."""
    return jax.shard_map(f, mesh=_mesh(jax), in_specs=in_specs, out_specs=out_specs, axis_names=axis_names,
                         **options)


def _sorted_sets(text: str) -> str:
    """Frozensets of axis names printed in sorted order (Python's order follows string hashes)."""
    return re.sub(r"frozenset\(\{([^}]*)\}\)",
                  lambda m: "frozenset({" + ", ".join(sorted(m.group(1).split(", "))) + "})", text)


def _error(thunk) -> str:
    return error_of(thunk, _sorted_sets)


def _placed(jax, result) -> str:
    """The values and layout of a result."""
    return f"{_values(result)} {result.sharding.spec}"


def _manual_computations(jax, f, *args) -> str:
    """The headers of the lowered program's manual computations: their shardings and manual axes (operands
    unnamed)."""
    text = jax.jit(f).lower(*args).as_text()
    headers = re.findall(r"sdy\.manual_computation\(.*?manual_axes=\{[^}]*\}", text)
    return "\n".join(re.sub(r"%[\w#]+", "%", header) for header in headers)


def _constraints(jax, f, *args) -> str:
    """The shardings the lowered program constrains values to, in order."""
    text = jax.jit(f).lower(*args).as_text()
    return "\n".join(re.findall(r"sdy\.sharding_constraint %\S+ (<@.*?>) :", text))


def _body_text(jax, f, *args) -> str:
    """The lowered program's main function after its signature (whose attributes jaxle writes differently)."""
    lines = jax.jit(f).lower(*args).as_text().splitlines()
    start = next(i for i, line in enumerate(lines) if "func.func public @main" in line)
    return "\n".join(lines[start + 1:])


def _psum_and_index(jax, v):
    return jax.lax.psum(v, "i") + jax.lax.axis_index("i")


def _collectives(jax, v):
    return (jax.lax.all_gather(v, "i", to="invarying"), jax.lax.ppermute(v, "i", [(0, 1), (1, 0)]),
            jax.lax.psum_scatter(v, "i", tiled=True), jax.lax.all_to_all(v, "i", 0, 0, tiled=True))


def _collectives_sm(jax):
    return _sm(jax, lambda v: _collectives(jax, v), _p(jax, "i"), (_p(jax), _p(jax, "i"), _p(jax, "i"),
                                                                   _p(jax, "i")))


def _nested(jax, inner_axes=frozenset({"j"}), inner_specs=None):
    """A shard_map manual over 'i' whose body is a shard_map over the context mesh manual over ``inner_axes``."""
    inner_specs = inner_specs or _p(jax, None, "j")

    def outer(v):
        return jax.shard_map(lambda w: jax.lax.psum(w, "j") + jax.lax.axis_index("i"), in_specs=inner_specs,
                             out_specs=inner_specs, axis_names=inner_axes)(v)

    return _sm(jax, outer, _p(jax, "i"), _p(jax, "i"))


def _nested_concrete_mesh(jax):
    inner = lambda v: jax.shard_map(lambda w: w, mesh=_mesh(jax), in_specs=_p(jax, None, "j"),
                                    out_specs=_p(jax, None, "j"), axis_names=frozenset({"j"}))(v)
    return _sm(jax, inner, _p(jax, "i"), _p(jax, "i"))


def _non_manual(jax, body):
    """The error of tracing a body using the non-manual axis 'j'."""
    return _error(lambda: jax.make_jaxpr(_sm(jax, body, _p(jax, "i"), _p(jax, "i")))(X))


def _under_explicit(jax, thunk):
    with jax.set_mesh(_mesh(jax, "Explicit")):
        return thunk()


def _explicit_put(jax, *spec):
    return jax.device_put(WIDE, _p(jax, *spec))


def _explicit_types(jax):
    seen = []

    def body(v):
        seen.append(f"{jax.typeof(v)} {jax.typeof(v).sharding} {jax.typeof(v.sum(0))}")
        return jax.lax.psum(v * 2, "i")

    f = jax.shard_map(body, in_specs=_p(jax, "i"), out_specs=_p(jax), axis_names={"i"})
    text = _jaxpr(jax, f, _explicit_put(jax, None, "j"))
    result = f(_explicit_put(jax, None, "j"))
    return f"{text}\n{seen[0]}\n{_placed(jax, result)} {jax.typeof(result)}"


def _explicit_case(jax, body, in_specs, out_specs, axis_names, *spec):
    return _jaxpr(jax, jax.shard_map(body, in_specs=in_specs, out_specs=out_specs, axis_names=axis_names),
                  _explicit_put(jax, *spec))


def _on_every_device(jax, body, names):
    """A shard_map over both axes of ``body`` on ROW split over ``names``, one block per device."""
    return jax.shard_map(body, mesh=_mesh(jax), in_specs=_p(jax, names), out_specs=_p(jax, names))(ROW)


def _full_with_index(jax):
    body = lambda w: jax.lax.psum(w, "j") * (jax.lax.axis_index("i") + 1)
    return jax.shard_map(body, mesh=_mesh(jax), in_specs=_p(jax, "i", "j"), out_specs=_p(jax, "i", "j"))


def _loss(jax, check_vma=True):
    f = _sm(jax, lambda v, w: jax.lax.psum(jax.numpy.sin(v) * w, "i"), (_p(jax, "i"), _p(jax)), _p(jax),
            check_vma=check_vma)
    return lambda a, b: (f(a, b) ** 2).sum()


def _printing(jax):
    def body(v):
        jax.debug.print("block sum {}", v.sum())
        return v * 2

    return _sm(jax, body, _p(jax, "i"), _p(jax, "i"))


def _printed(jax) -> str:
    """What a jitted body printing its block prints: once per block along the manual axis."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        jax.jit(_printing(jax))(X)
        jax.effects_barrier()
    return "\n".join(sorted(printed.getvalue().splitlines()))


CASES = {
    "jaxpr": lambda jax: _jaxpr(jax, _sm(jax, lambda v: _psum_and_index(jax, v), _p(jax, "i"), _p(jax, "i")), X),
    "values": lambda jax: _placed(jax, _sm(jax, lambda v: _psum_and_index(jax, v), _p(jax, "i"), _p(jax, "i"))(X)),
    "values_jit": lambda jax: _placed(jax, jax.jit(_sm(jax, lambda v: _psum_and_index(jax, v), _p(jax, "i"),
                                                       _p(jax, "i")))(X)),
    "replicated_result": lambda jax: _placed(jax, jax.jit(_sm(jax, lambda v: jax.lax.psum(v * 2, "i"), _p(jax, "i"),
                                                              _p(jax)))(X)),
    "collectives": lambda jax: _values(jax.jit(_collectives_sm(jax))(X)),
    "collectives_eager": lambda jax: _values(_collectives_sm(jax)(X)),
    "lowered": lambda jax: _manual_computations(jax, _collectives_sm(jax), X),
    "lowered_axis_index": lambda jax: _manual_computations(
        jax, _sm(jax, lambda v: _psum_and_index(jax, v), _p(jax, "i"), _p(jax, "i")), X),
    "lowered_constraints": lambda jax: _constraints(jax, _sm(jax, lambda v: jax.lax.psum(
        jax.numpy.sin(v) * 2, "i") + jax.lax.axis_index("i"), _p(jax, "i"), _p(jax, "i")), X),
    "explicit_lowered_constraints": lambda jax: _under_explicit(jax, lambda: _constraints(jax, jax.shard_map(
        lambda v: jax.lax.psum(v * 2, "i"), in_specs=_p(jax, "i"), out_specs=_p(jax), axis_names={"i"}),
        _explicit_put(jax, None, "j"))),
    "lowered_text": lambda jax: _body_text(jax, _collectives_sm(jax), X),
    "lowered_text_axis_index": lambda jax: _body_text(jax, _sm(jax, lambda v: jax.lax.psum(
        jax.numpy.sin(v) * 2, "i") + jax.lax.axis_index("i"), _p(jax, "i"), _p(jax, "i")), X),
    "lowered_text_nested": lambda jax: _body_text(jax, _nested(jax), X),
    "every_axis_named": lambda jax: _jaxpr(jax, _sm(jax, lambda v: v, _p(jax, "i"), _p(jax, "i"),
                                                    frozenset({"i", "j"})), X),
    # the axes that are not manual are not named axes of the body
    "in_specs_non_manual": lambda jax: _error(lambda: jax.make_jaxpr(_sm(jax, lambda v: v, _p(jax, "j"),
                                                                         _p(jax)))(X)),
    "out_specs_non_manual": lambda jax: _error(lambda: jax.make_jaxpr(_sm(jax, lambda v: v, _p(jax, "i"),
                                                                          _p(jax, "j")))(X)),
    "psum_non_manual": lambda jax: _non_manual(jax, lambda v: jax.lax.psum(v, "j")),
    "pmean_non_manual": lambda jax: _non_manual(jax, lambda v: jax.lax.pmean(v, "j")),
    "pmax_non_manual": lambda jax: _non_manual(jax, lambda v: jax.lax.pmax(v, "j")),
    "ppermute_non_manual": lambda jax: _non_manual(jax, lambda v: jax.lax.ppermute(v, "j", [(0, 1)])),
    "axis_index_non_manual": lambda jax: _non_manual(jax, lambda v: v + jax.lax.axis_index("j")),
    "all_gather_non_manual": lambda jax: _non_manual(jax, lambda v: jax.lax.all_gather(v, "j")),
    "psum_scatter_non_manual": lambda jax: _non_manual(jax, lambda v: jax.lax.psum_scatter(v, "j")),
    "all_to_all_non_manual": lambda jax: _non_manual(jax, lambda v: jax.lax.all_to_all(v, "j", 0, 0)),
    "axis_names_tuple": lambda jax: _error(lambda: _sm(jax, lambda v: v, _p(jax, "i"), _p(jax, "i"), ("i",))(X)),
    "axis_names_not_in_mesh": lambda jax: _error(lambda: _sm(jax, lambda v: v, _p(jax, "i"), _p(jax, "i"),
                                                             frozenset({"k"}))(X)),
    "out_specs_replication": lambda jax: _error(lambda: jax.make_jaxpr(_sm(jax, lambda v: v, _p(jax, "i"),
                                                                           _p(jax)))(X)),
    # a debug print runs on the first device along the other axes; callbacks with results are refused there
    "debug_print": _printed,
    "debug_print_lowered": lambda jax: _manual_computations(jax, _printing(jax), X),
    "pure_callback_refused": lambda jax: _error(lambda: jax.jit(_sm(jax, lambda v: jax.pure_callback(
        np.sin, jax.ShapeDtypeStruct(v.shape, v.dtype), v), _p(jax, "i"), _p(jax, "i")))(X)),
    "io_callback_refused": lambda jax: _error(lambda: jax.jit(_sm(jax, lambda v: jax.experimental.io_callback(
        np.sin, jax.ShapeDtypeStruct(v.shape, v.dtype), v), _p(jax, "i"), _p(jax, "i")))(X)),
    # a shard_map inside the body, over the context mesh, makes the other axes manual
    "nested_jaxpr": lambda jax: _jaxpr(jax, _nested(jax), X),
    "nested_values": lambda jax: _values(_nested(jax)(X)),
    "nested_values_jit": lambda jax: _values(jax.jit(_nested(jax))(X)),
    "nested_lowered": lambda jax: _manual_computations(jax, _nested(jax), X),
    "nested_every_axis_by_default": lambda jax: _jaxpr(jax, _sm(jax, lambda v: jax.shard_map(
        lambda w: w * 2, in_specs=_p(jax, None, "j"), out_specs=_p(jax, None, "j"))(v), _p(jax, "i"),
        _p(jax, "i")), X),
    "nested_concrete_mesh_refused": lambda jax: _error(lambda: jax.make_jaxpr(_nested_concrete_mesh(jax))(X)),
    # derivatives and batching
    "grad": lambda jax: _values(jax.jit(jax.grad(_loss(jax), argnums=(0, 1)))(X, W)),
    "grad_eager": lambda jax: _values(jax.grad(_loss(jax), argnums=(0, 1))(X, W)),
    "grad_jaxpr": lambda jax: _jaxpr(jax, jax.grad(_loss(jax), argnums=(0, 1)), X, W),
    "grad_unchecked_jaxpr": lambda jax: _jaxpr(jax, jax.grad(_loss(jax, False), argnums=(0, 1)), X, W),
    # every axis manual: a scalar residual travels one row per device along the axes it varies over
    "grad_with_axis_index_jaxpr": lambda jax: _jaxpr(jax, jax.grad(lambda a: jax.numpy.sin(_full_with_index(jax)(
        a)).sum()), WIDE),
    "grad_with_axis_index": lambda jax: _values(jax.grad(lambda a: jax.numpy.sin(_full_with_index(jax)(a)).sum())(
        WIDE / 10)),
    "grad_unchecked_jit": lambda jax: _values(jax.jit(jax.grad(_loss(jax, False), argnums=(0, 1)))(X, W)),
    "jvp": lambda jax: _values(jax.jvp(_sm(jax, lambda v, w: jax.lax.psum(jax.numpy.sin(v) * w, "i"),
                                           (_p(jax, "i"), _p(jax)), _p(jax)), (X, W), (X, W))),
    "vmap_jaxpr": lambda jax: _jaxpr(jax, jax.vmap(_sm(jax, lambda v, w: jax.lax.psum(v * w, "i"),
                                                       (_p(jax, "i"), _p(jax)), _p(jax))), np.stack([X, X + 1]),
                                     np.stack([W, W])),
    "vmap_values": lambda jax: _values(jax.vmap(_sm(jax, lambda v, w: jax.lax.psum(v * w, "i"),
                                                    (_p(jax, "i"), _p(jax)), _p(jax)))(np.stack([X, X + 1]),
                                                                                        np.stack([W, W]))),
    "smap": lambda jax: _under_explicit(jax, lambda: _jaxpr(jax, jax.smap(
        lambda v: v * 2, in_axes=0, out_axes=0, axis_name="i"), X)),
    "smap_values": lambda jax: _under_explicit(jax, lambda: _values(jax.smap(
        lambda v: jax.lax.psum(v, "i"), in_axes=0, out_axes=None, axis_name="i")(X))),
    # over Explicit axes, the body's types are laid out over those left Explicit
    "explicit_types": lambda jax: _under_explicit(jax, lambda: _explicit_types(jax)),
    "explicit_lowered": lambda jax: _under_explicit(jax, lambda: _manual_computations(jax, jax.shard_map(
        lambda v: v * 2, in_specs=_p(jax, "i"), out_specs=_p(jax, "i"), axis_names={"i"}), _explicit_put(
        jax, None, "j"))),
    "explicit_split_both": lambda jax: _under_explicit(jax, lambda: _explicit_case(
        jax, lambda v: v * 2, _p(jax, "i"), _p(jax, "i"), {"i"}, "i", "j")),
    "explicit_result_transposed": lambda jax: _under_explicit(jax, lambda: _explicit_case(
        jax, lambda v: v.T, _p(jax, "i"), _p(jax, None, "i"), {"i"}, None, "j")),
    "explicit_swapped": lambda jax: _under_explicit(jax, lambda: _explicit_case(
        jax, lambda v: v * 2, _p(jax, None, "i"), _p(jax, None, "i"), {"i"}, "j", "i")),
    "explicit_values": lambda jax: _under_explicit(jax, lambda: _placed(jax, jax.shard_map(
        lambda v: v.sum(0, keepdims=True), in_specs=_p(jax, "i"), out_specs=_p(jax, "i"), axis_names={"i"})(
        _explicit_put(jax, None, "j")))),
    # collectives over both mesh axes at once: devices numbered row-major over the names, in their order
    **{f"{name}_over_{''.join(names)}": (lambda jax, body=body, names=names: _values(_on_every_device(
        jax, lambda v: body(jax, v, names), names)))
       for names in (("i", "j"), ("j", "i"))
       for name, body in {
           "all_gather": lambda jax, v, names: jax.lax.all_gather(v, names, tiled=True),
           "axis_index": lambda jax, v, names: jax.lax.axis_index(names).reshape(1),
           "ppermute": lambda jax, v, names: jax.lax.ppermute(v, names, [(k, (k + 3) % 8) for k in range(7)]),
           "psum_scatter": lambda jax, v, names: jax.lax.psum_scatter(jax.numpy.arange(8.0) * v.sum(), names,
                                                                      tiled=True),
           "all_to_all": lambda jax, v, names: jax.lax.all_to_all(jax.numpy.arange(8.0) + 10 * v, names, 0, 0,
                                                                  tiled=True),
       }.items()},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "shard_map_axes_golden.json")
