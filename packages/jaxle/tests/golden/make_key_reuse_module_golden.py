"""Write key_reuse_module_golden.json: what ``jax.experimental.key_reuse`` gives — its public names (none) and its
``_core`` module: the static check (``check_key_reuse`` of a function on its arguments, ``check_key_reuse_jaxpr`` of
a jaxpr, with ``jax_debug_key_reuse`` off), the signatures (``function_type_signature``, ``jaxpr_type_signature``,
the registry and the ``Sink``/``Source``/``Forward`` markers) and ``consume``/``assert_consumed`` — replayed by
test_key_reuse_module.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_key_reuse_module_golden.py jax
"""

import importlib
import json
import pathlib
import sys

import numpy as np
from golden_writer import outcome

# The names of JAX's ``_core`` a user or a library would touch, which jaxle provides.
CORE_NAMES = ("DynamicKeyReuseSignature", "Forward", "KeyReuseError", "KeyReuseSignature", "Sink", "Source",
              "assert_consumed", "assert_consumed_value_p", "assert_effect", "assert_unconsumed",
              "call_impl_with_key_reuse_checks", "check_key_reuse", "check_key_reuse_jaxpr", "consume",
              "consume_effect", "consume_p", "dynamic_key_reuse_signature", "function_type_signature",
              "jaxpr_type_signature",
              "key_reuse_error_with_source_traceback", "key_reuse_signature_from_eqn",
              "key_reuse_signature_from_primitive", "key_reuse_signatures", "unknown_signature")


def _before_object(thunk, opening: str = "{") -> str:
    """``outcome``, cut where the message starts printing an object of the implementation's (by its class and
    address) in a set (or, with ``opening="["``, a list)."""
    return outcome(thunk).split(opening + "<")[0]


def _eager(m, thunk):
    """``thunk()`` with ``jax_debug_key_reuse`` on."""
    def run():
        with m.debug_key_reuse(True):
            return thunk()
    return run


def cases(m) -> dict:
    package = importlib.import_module(m.__name__ + ".experimental.key_reuse")
    checks = importlib.import_module(m.__name__ + ".experimental.key_reuse._core")
    random, lax = m.random, m.lax
    key = random.key(0)

    def twice(k):
        return random.normal(k), random.uniform(k)

    def once(k):
        k1, k2 = random.split(k)
        return random.normal(k1), random.normal(k2)

    def drawn_in_loop(k):
        return lax.scan(lambda c, x: (c, random.normal(c)), k, None, length=3)

    def draw_after_cond(k, p):
        return lax.cond(p, lambda k: random.normal(k), lambda k: 0.0, k) + random.normal(k)

    check = checks.check_key_reuse
    return {
        "public_names": [name for name in dir(package) if not name.startswith("_")],
        "has_all": hasattr(package, "__all__"),
        "error_is_public_one": checks.KeyReuseError is m.errors.KeyReuseError,
        "debug_flag": m.config.jax_debug_key_reuse,
        "reused": outcome(lambda: check(twice, key)),
        "split": outcome(lambda: check(once, key)),
        "split_twice": outcome(lambda: check(lambda k: (random.split(k), random.split(k)), key)),
        "raw_key": outcome(lambda: check(twice, random.PRNGKey(0))),
        "jitted": outcome(lambda: check(m.jit(twice), key)),
        "pytree_argument": outcome(lambda: check(lambda d: twice(d["k"]), {"k": key})),
        "two_arguments": outcome(lambda: check(lambda a, b: (random.normal(a), random.normal(b)), key, key)),
        "shape_dtype_struct": outcome(lambda: check(twice, m.ShapeDtypeStruct((), key.dtype))),
        "cond": outcome(lambda: check(draw_after_cond, key, True)),
        "scan": outcome(lambda: check(drawn_in_loop, key)),
        "key_array": outcome(lambda: check(lambda ks: (random.normal(ks[0]), random.normal(ks[1])),
                                            random.split(key))),
        "key_array_reused": outcome(lambda: check(lambda ks: (random.normal(ks[0]), random.normal(ks[0])),
                                                   random.split(key))),
        "clone": outcome(lambda: check(lambda k: (random.normal(random.clone(k)), random.normal(k)), key)),
        "no_arguments": outcome(lambda: check(lambda: random.normal(random.key(1)))),
        "not_callable": outcome(lambda: check(3, key)),
        "jaxpr_reused": outcome(lambda: checks.check_key_reuse_jaxpr(m.make_jaxpr(twice)(key).jaxpr)),
        "jaxpr_split": outcome(lambda: checks.check_key_reuse_jaxpr(m.make_jaxpr(once)(key).jaxpr)),
        "core_names": [name for name in CORE_NAMES if hasattr(checks, name)],
        **signature_cases(m, checks),
        **marker_cases(m, checks),
    }


def signature_cases(m, c) -> dict:
    """Signatures of functions and jaxprs, and the markers they are made of."""
    random, lax = m.random, m.lax
    key, keys = random.key(0), random.split(random.key(0), 4)
    sig = c.function_type_signature

    def loop_body(carry, _):
        fresh, drawn = random.split(carry)
        return fresh, random.normal(drawn)

    def while_body(state):
        fresh, drawn = random.split(state[0])
        return fresh, state[1] + random.uniform(drawn)

    functions = {
        "bits": (lambda k: random.bits(k), key), "split": (lambda k: random.split(k), key),
        "fold_in": (lambda k: random.fold_in(k, 3), key), "clone": (lambda k: random.clone(k), key),
        "key_data": (lambda k: random.key_data(k), key), "no_keys": (lambda x: x * 2, 1.0),
        "forwards": (lambda k, x: (x, k, k), key, 1.0),
        "split_and_forward": (lambda ks: (random.split(ks[0]), ks, random.normal(ks[1]))[:2], random.split(key, 3)),
        "jit": (m.jit(lambda k: (random.split(k), k)), key),
        "slice": (lambda ks: ks[1:], keys), "slice_and_draw": (lambda ks: (random.normal(ks[1]), ks[::2]), keys),
        "vmap": (m.vmap(lambda k: random.normal(k)), keys),
        "concatenate": (lambda a, b: m.numpy.concatenate([a, b]), keys, random.split(key, 2)),
        "constant_key": (lambda x: random.normal(random.key(0)) * x, 1.0),
        "cond": (lambda p, k: lax.cond(p, lambda k: random.split(k), lambda k: random.split(random.fold_in(k, 1)),
                                        k), True, key),
        "cond_one_branch_draws": (lambda p, k: lax.cond(p, lambda k: (k, random.normal(k)),
                                                        lambda k: (random.key(2), 1.0), k), True, key),
        "scan": (lambda k: lax.scan(loop_body, k, None, length=3), key),
        "while": (lambda k: lax.while_loop(lambda s: s[1] < 3, while_body, (k, 0.0)), key),
        "while_reuses": (lambda k: lax.while_loop(lambda s: s[1] < 3, lambda s: (s[0], s[1] + random.uniform(s[0])),
                                                  (k, 0.0)), key),
        "raw_key": (lambda k: random.normal(k), random.PRNGKey(0)),
        "reused": (lambda k: (random.split(k), random.split(k)), key),
    }
    out = {f"signature_{name}": outcome(lambda f=f, a=args: sig(f, *a)) for name, (f, *args) in functions.items()}
    split_sig = sig(lambda ks: (random.split(ks[0]), ks, random.normal(ks[1]))[:2], random.split(key, 3))
    jaxpr = m.make_jaxpr(lambda k: random.normal(random.split(k)[0]))(key)
    out.update({
        "signature_parts": outcome(lambda: [sorted(split_sig.sinks), sorted(split_sig.sources),
                                             sorted(split_sig.forwards), [s.mask.tolist() for s in split_sig.sinks]]),
        "signature_parts_are_iterators": outcome(lambda: type(split_sig.sinks).__name__),
        "jaxpr_type_signature": outcome(lambda: c.jaxpr_type_signature(jaxpr.jaxpr)),
        "jaxpr_type_signature_closed": outcome(lambda: c.jaxpr_type_signature(jaxpr)),
        "signatures_from_eqns": outcome(lambda: [c.key_reuse_signature_from_eqn(e) for e in jaxpr.eqns]),
        "registry": outcome(lambda: [c.key_reuse_signatures[e.primitive] for e in jaxpr.eqns[:1]]),
        "registry_dynamic": outcome(lambda: type(c.key_reuse_signatures[lax.slice_p]).__name__),
        "unknown_signature": outcome(lambda: c.unknown_signature(m.make_jaxpr(
            lambda k: lax.sin(random.key_data(k).astype("float32")))(key).eqns[-1])),
        "from_primitive_slice": outcome(lambda: c.key_reuse_signature_from_primitive(
            lax.slice_p, keys, start_indices=(1,), limit_indices=(3,), strides=None)),
        "from_primitive_consume": outcome(lambda: c.key_reuse_signature_from_primitive(c.consume_p, key)),
        "from_primitive_without_rule": outcome(lambda: c.key_reuse_signature_from_primitive(lax.sin_p, 1.0)),
        "registered_sink_out_of_range": outcome(lambda: _with_signature(
            c, lax.sin_p, c.KeyReuseSignature(c.Sink(3)), lambda: sig(lax.sin, 1.0))),
        "registered_dynamic": outcome(lambda: _with_signature(
            c, lax.sin_p, c.dynamic_key_reuse_signature(lambda eqn: c.KeyReuseSignature()),
            lambda: sig(lambda k: lax.sin(random.key_data(k).astype("float32")), key))),
        "not_a_signature": outcome(lambda: _with_signature(
            c, lax.sin_p, "nope", lambda: sig(lambda k: lax.sin(random.key_data(k).astype("float32")), key))),
        "keyword_argument": outcome(lambda: sig(lambda k: k, k=key)),
        "shape_dtype_struct_signature": outcome(lambda: sig(lambda k: random.bits(k), m.ShapeDtypeStruct(
            (), key.dtype))),
        # the markers
        "repr": outcome(lambda: [c.KeyReuseSignature(), c.KeyReuseSignature(c.Sink(0)), c.KeyReuseSignature(
            c.Forward(1, 0), c.Source(2), c.Sink(3), c.Sink(1), c.Forward(0, 1))]),
        "mask_repr": outcome(lambda: [c.Sink(0, np.array([True, False])), c.Source(1, np.array([True, True])),
                                       c.Sink(2, np.array([False])), c.Sink(3, np.zeros(0, bool)),
                                       c.Sink(0, np.True_), c.Source(0, False)]),
        "equality": outcome(lambda: [c.KeyReuseSignature(c.Sink(0), c.Source(1)) == c.KeyReuseSignature(
            c.Source(1), c.Sink(0)), hash(c.KeyReuseSignature(c.Sink(0))) == hash(c.KeyReuseSignature(c.Sink(0))),
            bool(c.Sink(0) == c.Sink(0, True)), bool(c.Sink(0) == c.Source(0)),
            bool(c.Sink(0, np.array([True, True])) == c.Sink(0)), c.KeyReuseSignature() == (),
            len({c.Sink(0, np.array([True, False])), c.Sink(0, np.array([True, False]))})]),
        "order": outcome(lambda: [c.Sink(0) < c.Source(0), c.Source(0) < c.Sink(1), c.Sink(3) < c.Forward(0, 0),
                                   sorted([c.Forward(0, 0), c.Sink(1), c.Source(0)])]),
        "immutable": outcome(lambda: setattr(c.Sink(0), "idx", 1)),
        "mask_not_bool": outcome(lambda: c.Sink(0, 1)),
        "index_not_int": outcome(lambda: c.Source(0.0)),
        "forward": outcome(lambda: [c.Forward(1, 2), c.Forward(1, 2).in_idx, c.Forward(1, 2).out_idx,
                                     tuple(c.Forward(1, 2))]),
        "dynamic": outcome(lambda: type(c.dynamic_key_reuse_signature(lambda eqn: None)).__name__),
    })
    return out


def _with_signature(c, primitive, signature, thunk):
    """``thunk()`` with ``signature`` registered for ``primitive``."""
    c.key_reuse_signatures[primitive] = signature
    try:
        return thunk()
    finally:
        del c.key_reuse_signatures[primitive]


def marker_cases(m, c) -> dict:
    """``consume`` and ``assert_consumed``: staged, checked, transformed, and eagerly with the flag on."""
    random = m.random
    key = random.key(0)
    sig = c.function_type_signature

    def eager_after_consume():
        k = random.key(1)
        consumed = c.consume(k)
        return [outcome(lambda: random.normal(k)), outcome(lambda: random.normal(consumed)),
                consumed is k, bool(k._consumed)]

    def eager_assert_unconsumed():
        k = random.key(1)
        c.assert_unconsumed(k)  # JAX's eager equation returns its operand itself, which it marks consumed
        return outcome(lambda: random.normal(k))

    def eager_keys_consumed_in_part():
        keys = random.split(random.key(6), 3)
        c.consume(keys[0])
        return np.asarray(keys._consumed).tolist()

    return {
        "consume_jaxpr": outcome(lambda: str(m.make_jaxpr(c.consume)(key))),
        "assert_jaxpr": outcome(lambda: str(m.make_jaxpr(lambda ks: (
            c.assert_consumed(ks), c.assert_unconsumed(ks), c.assert_consumed(ks, value=np.array([True, False])))[0])(
            random.split(key)))),
        "consume_raw_jaxpr": outcome(lambda: str(m.make_jaxpr(c.consume)(random.PRNGKey(0)))),
        "vmap_assert_jaxpr": outcome(lambda: str(m.make_jaxpr(m.vmap(c.assert_consumed))(random.split(key)))),
        "vmap_consume": outcome(lambda: random.key_data(m.vmap(c.consume)(random.split(key))).tolist()),
        "grad_through_consume": outcome(lambda: str(m.make_jaxpr(m.grad(
            lambda x, k: x * random.normal(c.consume(k))))(1.0, key))),
        "consume_signature": outcome(lambda: sig(c.consume, key)),
        "consume_then_split": outcome(lambda: sig(lambda k: (c.consume(k), random.split(k)), key)),
        "consume_raw_signature": outcome(lambda: sig(c.consume, random.PRNGKey(0))),
        "assert_after_draw": outcome(lambda: sig(lambda k: (random.normal(k), c.assert_consumed(k))[0], key)),
        "assert_unconsumed_after_draw": outcome(lambda: sig(
            lambda k: (random.normal(k), c.assert_unconsumed(k))[0], key)),
        "assert_consumed_fresh": outcome(lambda: sig(lambda k: c.assert_consumed(k), key)),
        "assert_partial": outcome(lambda: sig(lambda ks: (random.normal(ks[0]), c.assert_consumed(
            ks, np.array([True, False, True])))[0], random.split(key, 3))),
        "assert_partial_holds": outcome(lambda: sig(lambda ks: (random.normal(ks[0]), c.assert_consumed(
            ks, np.array([True, False, False])))[0], random.split(key, 3))),
        "assert_raw": outcome(lambda: sig(lambda k: c.assert_consumed(k), random.PRNGKey(0))),
        "eager_consume": outcome(lambda: random.key_data(c.consume(key)).tolist()),
        "eager_assert": outcome(lambda: c.assert_consumed(key)),
        "eager_consume_raw": outcome(lambda: np.asarray(c.consume(random.PRNGKey(0))).tolist()),
        "eager_flag_consume": outcome(_eager(m, eager_after_consume)),
        "eager_flag_assert_unconsumed": outcome(_eager(m, eager_assert_unconsumed)),
        "eager_flag_keys_consumed_in_part": outcome(_eager(m, eager_keys_consumed_in_part)),
        "eager_flag_jit_reuse": outcome(_eager(m, lambda: m.jit(lambda k: (c.consume(k), random.normal(k)))(
            random.key(4)))),
        "eager_flag_jit_assert": outcome(_eager(m, lambda: m.jit(lambda k: (
            random.normal(k), c.assert_unconsumed(k)))(random.key(4)))),
        "jit_consume": _before_object(lambda: m.jit(c.consume)(key)),
        "jit_assert": _before_object(lambda: m.jit(c.assert_consumed)(key)),
        "lower_consume": _before_object(lambda: m.jit(c.consume).lower(key).as_text()),
        **control_flow_cases(m, c),
        "check_signature": outcome(lambda: c.KeyReuseSignature(c.Sink(0)).check_signature(random.key(0))),
        "update_then_check": outcome(lambda: _update_then_check(c, random)),
        "call_impl_checks": outcome(lambda: _call_impl_twice(c, random, c.consume_p)),
        "call_impl_forwarding": outcome(lambda: _call_impl_twice(c, random, c.assert_consumed_value_p)),
        "call_impl_jit": outcome(lambda: _call_impl_jit(m, c, random)),
        "call_impl_unsigned": outcome(lambda: _call_impl_twice(c, random, m.lax.sin_p)),
        "error_without_traceback": outcome(lambda: _error_parts(c.key_reuse_error_with_source_traceback(
            "reused", None))),
    }


def control_flow_cases(m, c) -> dict:
    """``consume`` and ``assert_consumed`` in the bodies and branches of control flow, refused while tracing."""
    lax, key = m.lax, m.random.key(0)

    def traced(thunk):
        return _before_object(thunk, "[")

    return {
        "cond_consume": traced(lambda: lax.cond(True, c.consume, lambda k: k, key)),
        "cond_consume_jaxpr": traced(lambda: m.make_jaxpr(lambda p, k: lax.cond(p, lambda k: k, c.consume, k))(
            True, key)),
        "cond_assert": traced(lambda: lax.cond(True, lambda k: (c.assert_consumed(k), k)[1], lambda k: k, key)),
        "switch_consume": traced(lambda: lax.switch(1, [lambda k: k, c.consume, lambda k: k], key)),
        "scan_consume": traced(lambda: lax.scan(lambda k, x: (c.consume(k), x), key, np.arange(2))),
        "scan_jit_assert": traced(lambda: m.jit(lambda k: lax.scan(
            lambda k, x: ((c.assert_unconsumed(k), k)[1], x), k, np.arange(2)))(key)),
        "fori_consume": traced(lambda: lax.fori_loop(0, 2, lambda i, k: c.consume(k), key)),
        "map_assert": traced(lambda: lax.map(c.assert_consumed, m.random.split(key, 2))),
        "while_body_consume": traced(lambda: lax.while_loop(lambda k: False, c.consume, key)),
        "while_cond_assert": traced(lambda: lax.while_loop(lambda k: (c.assert_consumed(k), False)[1],
                                                           lambda k: k, key)),
    }


def _call_impl_twice(c, random, primitive):
    """``primitive`` applied twice to one key through ``call_impl_with_key_reuse_checks`` (its implementation the
    identity), the key's consumption recorded after the first."""
    key, params = random.key(0), {"value": True} if primitive is c.assert_consumed_value_p else {}
    first = c.call_impl_with_key_reuse_checks(primitive, lambda k, **_: k, key, **params)
    after_first = [bool(getattr(key, "_consumed", False)), first is key]
    c.call_impl_with_key_reuse_checks(primitive, lambda k, **_: k, key, **params)
    return after_first


def _call_impl_jit(m, c, random):
    """A jitted draw's call checked through ``call_impl_with_key_reuse_checks``: its jaxpr's key consumed, so that a
    second call refuses the key (named as the checker names a jit)."""
    key = random.key(0)
    closed = m.make_jaxpr(lambda k: random.normal(k))(key)
    jit_p = next(eqn.primitive for eqn in m.make_jaxpr(m.jit(lambda k: k))(key).eqns)
    params = {"jaxpr": closed}
    c.call_impl_with_key_reuse_checks(jit_p, lambda *args, **_: [1.0], key, **params)
    consumed = bool(key._consumed)
    c.call_impl_with_key_reuse_checks(jit_p, lambda *args, **_: [1.0], key, **params)
    return consumed


def _error_parts(error):
    return [type(error).__name__, str(error), error.__cause__, error.__context__]


def _update_then_check(c, random):
    k, out, fresh = random.key(0), random.key(1), random.key(2)
    c.KeyReuseSignature(c.Sink(0), c.Source(1)).update_consumption([k], [out, fresh])
    consumption = [k._consumed, out._consumed, fresh._consumed]
    try:
        c.KeyReuseSignature(c.Sink(0)).check_signature(k, funcname="foo", context="bar")
    except c.KeyReuseError as error:
        return consumption, str(error)


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    path = pathlib.Path(__file__).parent / "key_reuse_module_golden.json"
    path.write_text(json.dumps(cases(module), indent=1) + "\n")
