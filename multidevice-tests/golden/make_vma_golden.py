"""Write vma_golden.json: what ``shard_map`` bodies checking varying manual axes (``check_vma=True``) print,
compute and raise on eight CPU devices, recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_vma_golden.py jax

Each case is a function of the module returning text (a jaxpr, an error's type and message, values); the test runs
the same functions with jaxle and compares the texts.
"""

import pathlib
import re

import golden_main
import numpy as np
from golden_cases import error_of, typed_mesh

HERE = pathlib.Path(__file__).parent
X = np.arange(8.0, dtype=np.float32)
M = np.arange(8.0, dtype=np.float32).reshape(4, 2)


def _mesh(jax, shape=(2, 4), names=("i", "j")):
    return typed_mesh(jax, "Auto", shape=shape, names=names)


def _sm(jax, f, in_specs, out_specs, mesh=None, **options):
    return jax.shard_map(f, mesh=mesh or _mesh(jax), in_specs=in_specs, out_specs=out_specs, **options)


def _jaxpr(jax, f, *args) -> str:
    return str(jax.make_jaxpr(f)(*args))


def _traced_error(jax, f, in_specs, out_specs, mesh=None) -> str:
    """The error of tracing a shard_map of ``f`` on ``X`` (traced, as called eagerly JAX names a function of its
    own)."""
    return error_of(lambda: jax.make_jaxpr(_sm(jax, f, in_specs, out_specs, mesh))(X))


def _body_error(jax, f, in_specs, out_specs, *args) -> str:
    """The error of tracing a shard_map of ``f``, without the places of the functions it names (they depend on
    where this file lies)."""
    text = error_of(lambda: jax.make_jaxpr(_sm(jax, f, in_specs, out_specs))(*args))
    return re.sub(r" at \S+:\d+", "", text)


def _values(result) -> str:
    return str([np.asarray(r).round(4).tolist() for r in (result if isinstance(result, tuple) else (result,))])


def _p(jax, *spec):
    return jax.sharding.PartitionSpec(*spec)


def _body(jax, f, in_entries, out_entries, *args, mesh=None):
    """The body jaxpr of a shard_map of ``f`` over ``mesh`` (default: 'i': 2, 'j': 4); each input's spec given by
    the one axis it splits dimension 0 over or by its entries, the output's by its entries."""
    in_specs = tuple(_p(jax, *((e,) if isinstance(e, str) else e)) for e in in_entries)
    closed = jax.make_jaxpr(_sm(jax, f, in_specs, _p(jax, *out_entries), mesh))(*args)
    return str(closed.eqns[0].params["jaxpr"])


def _psum_mixed(jax):
    text = error_of(lambda: _jaxpr(jax, _sm(jax, lambda a: jax.lax.psum(a, ("i", "j")), _p(jax, "i"), _p(jax)), X))
    return text.replace("{'varying', 'invarying'}", "{'invarying', 'varying'}")  # JAX prints a set


def _grad_of_product(jax):
    f = _sm(jax, lambda a, b: a * b, (_p(jax, "i"), _p(jax)), _p(jax, "i"))
    return jax.grad(lambda a, b: (f(a, b) ** 2).sum(), argnums=(0, 1))(X, X[:4])


def _backward_body(jax, loss, *args) -> str:
    """The body of the last shard_map of ``grad(loss)``'s jaxpr: the transposed one."""
    eqns = jax.make_jaxpr(jax.grad(loss))(*args).eqns
    return str([e for e in eqns if e.primitive.name == "shard_map"][-1].params["jaxpr"])


def _typeof_in_body(jax) -> str:
    seen = []

    def f(a):
        seen.append(f"{jax.typeof(a)} {jax.typeof(a).manual_axis_type} {jax.typeof(a.sum())}")
        return a

    _sm(jax, f, _p(jax, "i"), _p(jax, "i"))(X)
    return seen[0]


W = np.linspace(-1, 1, 4, dtype=np.float32)


def _grads(jax, body, x=X, w=W) -> str:
    """The gradients of a shard_map of ``body`` (a psum over 'i' of a value of the rows of ``x`` split over 'i' and
    of ``w`` replicated) with respect to both."""
    loss = lambda a, b: _sm(jax, lambda a, b: jax.lax.psum(body(jax, a, b), "i"), (_p(jax, "i"), _p(jax)),
                            _p(jax))(a, b)
    return _values(jax.grad(loss, argnums=(0, 1))(x, w))


def _scan_body(jax, a, w):
    start = jax.lax.pcast(jax.numpy.zeros(4), "i", to="varying")
    c, ys = jax.lax.scan(lambda c, y: (c * w + y, c.sum()), start, a.reshape(1, 4).repeat(3, 0))
    return (c ** 2).sum() + ys.sum()


def _fori_body(jax, a, w):
    start = jax.lax.pcast(jax.numpy.zeros(4), "i", to="varying")
    return jax.lax.fori_loop(0, 3, lambda k, c: jax.numpy.sin(c) * w + a, start).sum()


def _custom_jvp_sin(jax):
    f = jax.custom_jvp(lambda a: jax.numpy.sin(a))
    f.defjvp(lambda p, t: (f(p[0]), jax.numpy.cos(p[0]) * t[0]))
    return f


def _custom_vjp_product(jax):
    g = jax.custom_vjp(lambda a, w: a * w)
    g.defvjp(lambda a, w: (a * w, (a, w)), lambda r, ct: (ct * r[1], ct * r[0]))
    return g


CASES = {
    "add_invariant_to_varying": lambda jax: _jaxpr(jax, _sm(jax, lambda a, b: a + b, (_p(jax, "i"), _p(jax)),
                                                            _p(jax, "i")), X, X[:4]),
    "psum_varying": lambda jax: _jaxpr(jax, _sm(jax, lambda a: jax.lax.psum(a, "i"), _p(jax, "i"), _p(jax)), X),
    "psum_other_axis": lambda jax: _body(jax, lambda a: jax.lax.psum(a, "j"), ("i",), ("i",), X),
    "psum_of_invariant": lambda jax: _body(jax, lambda a: jax.lax.psum(a, "i"), ((),), (), X),
    "psum_partial": lambda jax: _body(jax, lambda a: jax.lax.psum(a, "i"), ((("i", "j"),),), ("j",), X),
    "psum_mixed_axes": _psum_mixed,
    "psum_of_python_int": lambda jax: _body(jax, lambda a: jax.lax.psum(2, "i") * a, ((),), (), X),
    "pmean": lambda jax: _body(jax, lambda a: jax.lax.pmean(a, "i"), ("i",), (), X),
    "pmax_of_invariant": lambda jax: _body(jax, lambda a: jax.lax.pmax(a, "i"), ((),), (), X),
    "literal_and_sin": lambda jax: _body(jax, lambda a: jax.numpy.sin(a) * 2, ("i",), ("i",), X),
    "array_constant": lambda jax: _body(jax, lambda a: a + jax.numpy.ones(4), ("i",), ("i",), X),
    "iota": lambda jax: _body(jax, lambda a: a + jax.numpy.arange(4.0), ("i",), ("i",), X),
    "where": lambda jax: _body(jax, lambda a: jax.numpy.where(a > 2, a, 0.0), ("i",), ("i",), X),
    "reductions_keep_axes": lambda jax: _body(jax, lambda a: a.sum(keepdims=True), ("i",), ("i",), X),
    "broadcast_reshape": lambda jax: _body(
        jax, lambda a: jax.numpy.broadcast_to(a, (2, 4)).reshape(8), ("i",), ("i",), X),
    "dot": lambda jax: _body(jax, lambda a, w: a @ w, ("i", ()), ("i",), M, M.T),
    "axis_indices": lambda jax: _body(jax, lambda a: a + jax.lax.axis_index("i") + jax.lax.axis_index("j"),
                                      ((),), (("i", "j"),), X[:1]),
    "ppermute_of_invariant": lambda jax: _body(
        jax, lambda a: jax.lax.ppermute(a, "i", [(0, 1), (1, 0)]), ((),), ("i",), X),
    "all_to_all_of_invariant": lambda jax: _body(
        jax, lambda a: jax.lax.all_to_all(a, "i", 0, 0, tiled=True), ((),), ("i",), X),
    "all_gather_of_invariant": lambda jax: _body(jax, lambda a: jax.lax.all_gather(a, "i"), ((),), ("i",), X),
    "all_gather_tiled": lambda jax: _body(
        jax, lambda a: jax.lax.all_gather(a, "i", tiled=True), ("i",), ("i",), X),
    "psum_scatter_of_invariant": lambda jax: _body(
        jax, lambda a: jax.lax.psum_scatter(a, "i", tiled=True), ((),), ("i",), X),
    "psum_scatter_other_axis": lambda jax: _body(
        jax, lambda a: jax.lax.psum_scatter(a, "j", tiled=True), ("i",), (("i", "j"),), X),
    "pcast_varying": lambda jax: _body(
        jax, lambda a: jax.lax.pcast(a, "i", to="varying"), ((),), ("i",), X),
    "output_cast_to_its_spec": lambda jax: _body(jax, lambda a: a, ((),), (("k", "j"),), X,
                                                 mesh=_mesh(jax, (2, 2, 2), ("i", "j", "k"))),
    "output_cast_one_more_axis": lambda jax: _body(jax, lambda a: a, ("i",), (("i", "j"),), X),
    "jit_inside": lambda jax: _jaxpr(jax, _sm(jax, jax.jit(lambda a, b: a * b), (_p(jax, "i"), _p(jax)),
                                              _p(jax, "i")), X, X[:4]),
    "check_vma_false": lambda jax: _jaxpr(jax, _sm(jax, lambda a, b: jax.lax.psum(a + b, "i"),
                                                   (_p(jax, "i"), _p(jax)), _p(jax), check_vma=False), X, X[:4]),
    "typeof_in_body": lambda jax: _typeof_in_body(jax),
    "out_specs_replicated_but_varying": lambda jax: _traced_error(jax, lambda a: a, _p(jax, "i"), _p(jax)),
    "out_specs_one_axis_left": lambda jax: _traced_error(
        jax, lambda a: a + jax.lax.axis_index("j"), _p(jax, "i"), _p(jax, "i")),
    "out_specs_three_axes": lambda jax: _traced_error(
        jax, lambda a: a, _p(jax, ("i", "j", "k")), _p(jax, "i"), _mesh(jax, (2, 2, 2), ("i", "j", "k"))),
    "out_specs_several": lambda jax: _traced_error(jax, lambda a: (a, a), _p(jax, "i"), (_p(jax), _p(jax))),
    "out_specs_path": lambda jax: _traced_error(
        jax, lambda a: {"u": a, "v": (a,)}, _p(jax, "i"), {"u": _p(jax, "i"), "v": (_p(jax),)}),
    "out_specs_too_long_scalar": lambda jax: _traced_error(jax, lambda a: a.sum(), _p(jax, "i"), _p(jax, "i")),
    "all_gather_varying_refused_replicated": lambda jax: _traced_error(
        jax, lambda a: jax.lax.all_gather(a, "i"), _p(jax, "i"), _p(jax)),
    "scan_carry_becomes_varying": lambda jax: _body_error(jax, lambda a: jax.lax.scan(
        lambda c, y: ((c[0] + y, c[1]), c[0]), (jax.numpy.zeros(()), jax.numpy.zeros(())), a)[0][0].reshape(1),
        _p(jax, "i"), _p(jax, "i"), X),
    "scan_carry_stops_varying": lambda jax: _body_error(jax, lambda a: jax.lax.scan(
        lambda c, y: (jax.numpy.zeros(4), c), a, None, length=2)[0], _p(jax, "i"), _p(jax, "i"), X),
    "scan_carry_dtype_and_vma": lambda jax: _body_error(jax, lambda a: jax.lax.scan(
        lambda c, y: ((c[0] + y, c[1] + 1.0), c[0]), (jax.numpy.zeros(()), jax.numpy.zeros((), np.int32)), a)[0][0],
        _p(jax, "i"), _p(jax), X),
    "fori_loop_carry": lambda jax: _body_error(jax, lambda a: jax.lax.fori_loop(
        0, 2, lambda k, c: c + a, jax.numpy.zeros(4)), _p(jax, "i"), _p(jax, "i"), X),
    "while_loop_carry": lambda jax: _body_error(jax, lambda a: jax.lax.while_loop(
        lambda c: c[0] < 2, lambda c: (c[0] + 1, c[1] + a), (0, jax.numpy.zeros(4)))[1], _p(jax, "i"), _p(jax, "i"), X),
    "cond_branches_differ": lambda jax: _body_error(jax, lambda a, b: jax.lax.cond(
        True, lambda: b, lambda: a), (_p(jax, "i"), _p(jax)), _p(jax, "i"), X, X[:4]),
    "cond_branches_differ_at_paths": lambda jax: _body_error(jax, lambda a, b: jax.lax.cond(
        True, lambda: (a, b), lambda: (b, a)), (_p(jax, "i"), _p(jax)), (_p(jax, "i"), _p(jax, "i")), X, X[:4]),
    "switch_branches_differ": lambda jax: _body_error(jax, lambda a, b: jax.lax.switch(
        1, [lambda: a, lambda: b, lambda: a]), (_p(jax, "i"), _p(jax)), _p(jax, "i"), X, X[:4]),
    "scan_with_cast_carry": lambda jax: _body(jax, lambda a: jax.lax.scan(
        lambda c, y: (c + y, c), jax.lax.pcast(jax.numpy.zeros(()), "i", to="varying"), a)[0].reshape(1),
        ("i",), ("i",), X),
    "scan_invariant_consts": lambda jax: _body(jax, lambda a: jax.lax.scan(
        lambda c, y: (c, c + y), jax.numpy.zeros(()), a)[1], ("i",), ("i",), X),
    "while_varying_predicate": lambda jax: _body(jax, lambda a: jax.lax.while_loop(
        lambda c: c.sum() < 2, lambda c: c + 1, a), ("i",), ("i",), X),
    "cond_varying_predicate": lambda jax: _body(jax, lambda a: jax.lax.cond(
        a[0] > 1, lambda: a, lambda: a * 2), ("i",), ("i",), X),
    "all_gather_invariant": lambda jax: _body(
        jax, lambda a: jax.lax.all_gather(a, "i", to="invarying", tiled=True), ("i",), (), X),
    "all_gather_invariant_of_invariant": lambda jax: _body(
        jax, lambda a: jax.lax.all_gather(a, "i", to="invarying"), ((),), (), X),
    # spec errors name the entry and the argument or result by their paths (and the parameter an argument binds)
    "out_spec_too_long_named_by_path": lambda jax: _traced_error(
        jax, lambda a: (a, {"s": a.sum()}), _p(jax, "i"), (_p(jax, "i"), {"s": _p(jax, "i")})),
    "out_spec_too_long_eager": lambda jax: error_of(lambda: _sm(jax, lambda a: (a, a.sum()), _p(jax, "i"),
                                                              (_p(jax, "i"), _p(jax, "i")))(X)),
    "in_spec_too_long_named_by_path": lambda jax: error_of(lambda: _sm(
        jax, lambda a, b: a, (_p(jax, "i"), {"w": _p(jax, "i", None)}), _p(jax, "i"))(X, {"w": X})),
    "in_spec_indivisible_over_two_axes": lambda jax: error_of(lambda: _sm(
        jax, lambda *xs: xs[0], (_p(jax, "i"), _p(jax, ("i", "j"))), _p(jax, "i"))(X, X[:6])),
    # called eagerly, JAX checks the results' replication one at a time (in a function of its own)
    "replication_refused_eager": lambda jax: error_of(lambda: _sm(jax, lambda a: (a, a), _p(jax, ("i", "j")),
                                                                (_p(jax, "i"), _p(jax)))(X)),
    # a host callback's operands are passed as they vary and its results vary over no axis
    "callbacks_typed_as_declared": lambda jax: re.sub(r"callback=.*\n", "", _jaxpr(jax, _sm(jax, lambda a: (
        jax.pure_callback(np.sin, jax.ShapeDtypeStruct(a.shape, a.dtype), a)
        + jax.lax.axis_index("i").astype(a.dtype)), _p(jax, "i"), _p(jax, "i")), X)),
    "debug_print_operands_as_they_vary": lambda jax: re.sub(r"\n *(fmt|np_printoptions|in_tree|logging_record|"
                                                           r"has_placeholders|partitioned|static_args|ordered)=.*",
                                                           "", _jaxpr(jax, _sm(jax, lambda a: (
        jax.debug.print("{} {}", a, jax.lax.axis_index("j")), a)[1], _p(jax, "i"), _p(jax, "i")), X)),
    # to="reduced" (JAX's all_gather_reduced) needs a value varying over the gathered axes
    "all_gather_reduced_of_invariant_refused": lambda jax: _traced_error(
        jax, lambda a: jax.lax.all_gather(a, "i", to="reduced"), _p(jax), _p(jax)),
    "all_gather_reduced_over_another_axis_refused": lambda jax: _traced_error(
        jax, lambda a: jax.lax.all_gather(a, "i", to="reduced", tiled=True), _p(jax, "j"), _p(jax)),
    "all_gather_reduced_unchecked_refused": lambda jax: error_of(lambda: jax.make_jaxpr(_sm(
        jax, lambda a: jax.lax.all_gather(a, "i", to="reduced"), _p(jax, "i"), _p(jax), check_vma=False))(X)),
    "all_gather_invariant_unchecked": lambda jax: _jaxpr(jax, _sm(
        jax, lambda a: jax.lax.all_gather(a, "i", to="invarying"), _p(jax, "i"), _p(jax), check_vma=False), X),
    "all_gather_unknown_target": lambda jax: re.sub(r"\{.*\}", "{...}", _traced_error(
        jax, lambda a: jax.lax.all_gather(a, "i", to="bad"), _p(jax, "i"), _p(jax))),
    "backward_body_of_all_gather_invariant": lambda jax: _backward_body(jax, lambda a: (_sm(
        jax, lambda v: jax.lax.all_gather(v, "i", to="invarying", tiled=True), _p(jax, "i"), _p(jax))(a)
        * jax.numpy.arange(8.0)).sum(), X),
    "values_all_gather_invariant": lambda jax: _values(jax.grad(lambda a: (_sm(
        jax, lambda v: jax.lax.all_gather(v, "i", to="invarying") ** 2, _p(jax, "i"), _p(jax))(a)
        * jax.numpy.arange(8.0).reshape(2, 4)).sum())(X)),
    "grads_through_scan": lambda jax: _grads(jax, _scan_body),
    "grads_through_fori_loop": lambda jax: _grads(jax, _fori_body),
    "grads_through_cond": lambda jax: _grads(jax, lambda jax, a, w: jax.lax.cond(
        a.sum() > 1, lambda: (a * w).sum(), lambda: (a / w).sum())),
    "grads_through_checkpoint": lambda jax: _grads(jax, lambda jax, a, w: jax.checkpoint(
        lambda a, w: jax.numpy.sin(a * w).sum())(a, w)),
    "grads_through_custom_jvp": lambda jax: _grads(jax, lambda jax, a, w: (_custom_jvp_sin(jax)(a) * w).sum()),
    "custom_vjp_cotangent_varies_more": lambda jax: error_of(lambda: _grads(
        jax, lambda jax, a, w: _custom_vjp_product(jax)(a, w).sum())),
    "grads_inside_body": lambda jax: _values(_sm(jax, lambda a, w: jax.grad(lambda w: jax.lax.psum((a * w).sum(), "i"))(
        w), (_p(jax, "i"), _p(jax)), _p(jax))(X, W)),
    "jvp": lambda jax: _values(jax.jvp(lambda a: _sm(jax, lambda a, w: jax.lax.psum(jax.numpy.sin(a) * w, "i"), (
        _p(jax, "i"), _p(jax)), _p(jax))(a, W), (X,), (X,))),
    "random_in_body": lambda jax: _values(_sm(jax, lambda a: a + jax.random.normal(jax.random.key(0), (4,)),
                                              _p(jax, "i"), _p(jax, "i"))(X)),
    "grads_of_collectives": lambda jax: _values(jax.grad(lambda a: _sm(jax, lambda a: jax.lax.psum(
        (jax.lax.ppermute(a, "i", [(0, 1), (1, 0)]) * a).sum() + (jax.lax.all_gather(a, "i", tiled=True) ** 2).sum()
        + (jax.lax.psum_scatter(a, "j", tiled=True) ** 3).sum(), ("i", "j")), _p(jax, "i"), _p(jax))(a))(X)),
    "vmap_of_shard_map": lambda jax: _jaxpr(jax, jax.vmap(_sm(
        jax, lambda a, w: jax.lax.psum(a * w, "i"), (_p(jax, "i"), _p(jax)), _p(jax))), np.stack([X, X]),
        np.stack([X[:4], X[4:]])),
    "vmap_inside_body": lambda jax: _body(jax, lambda a, w: jax.vmap(lambda r: r * w)(a.reshape(2, 2)).reshape(4),
                                          ("i", ()), ("i",), X, X[:2]),
    "jit_of_shard_map": lambda jax: _jaxpr(jax, jax.jit(_sm(jax, lambda a: jax.lax.psum(a, "j"), _p(jax, "i"),
                                                            _p(jax, "i"))), X),
    "pvary_removed": lambda jax: error_of(lambda: jax.lax.pvary),
    "values_psum_of_product": lambda jax: _values(jax.jit(_sm(
        jax, lambda a, b: jax.lax.psum(a * b, "i"), (_p(jax, "i"), _p(jax)), _p(jax)))(X, X[:4])),
    "values_eager": lambda jax: _values(_sm(jax, lambda a: (jax.lax.pmean(a, "i"), a + jax.lax.axis_index("j")),
                                            _p(jax, "i"), (_p(jax), _p(jax, "i", "j")))(
        M)),
    "values_grad_of_product": lambda jax: _values(_grad_of_product(jax)),
    "values_grad_of_psum": lambda jax: _values(jax.grad(lambda a: (_sm(
        jax, lambda v: jax.lax.psum(v * v, "i"), _p(jax, "i"), _p(jax))(a) ** 3).sum())(X)),
    "values_grad_of_invariant_input": lambda jax: _values(jax.grad(lambda w: _sm(
        jax, lambda v, w: jax.lax.psum((v * w).sum(), ("i", "j")), (_p(jax, ("i", "j")), _p(jax)), _p(jax))(
        X, w))(np.float32(1.5))),
    "values_vmap": lambda jax: _values(jax.vmap(_sm(jax, lambda a: jax.lax.psum(a, "i") * a, _p(jax, "i"),
                                                    _p(jax, "i")))(np.arange(16.0, dtype=np.float32).reshape(2, 8))),
    "backward_body_of_product": lambda jax: _backward_body(
        jax, lambda a, b: _sm(jax, lambda a, b: a * b, (_p(jax, "i"), _p(jax)), _p(jax, "i"))(a, b).sum(), X, X[:4]),
    "backward_body_of_psum": lambda jax: _backward_body(
        jax, lambda a: _sm(jax, lambda a: jax.lax.psum(a * a, "i"), _p(jax, "i"), _p(jax))(a).sum(), X),
    "forward_of_grad": lambda jax: str(jax.make_jaxpr(jax.grad(
        lambda a, b: _sm(jax, lambda a, b: a * b, (_p(jax, "i"), _p(jax)), _p(jax, "i"))(a, b).sum()))(
        X, X[:4]).eqns[0]),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "vma_golden.json")
