"""Write key_reuse_module_golden.json: what ``jax.experimental.key_reuse`` gives — its public names (none) and the
static check of its ``_core`` module (``check_key_reuse`` of a function on its arguments, ``check_key_reuse_jaxpr``
of a jaxpr), with ``jax_debug_key_reuse`` off — replayed by test_key_reuse_module.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_key_reuse_module_golden.py jax
"""

import importlib
import json
import pathlib
import sys


def _outcome(thunk) -> str:
    try:
        return repr(thunk())
    except Exception as error:  # the type and message are what is compared
        return f"{type(error).__name__}: {error}"


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
        "reused": _outcome(lambda: check(twice, key)),
        "split": _outcome(lambda: check(once, key)),
        "split_twice": _outcome(lambda: check(lambda k: (random.split(k), random.split(k)), key)),
        "raw_key": _outcome(lambda: check(twice, random.PRNGKey(0))),
        "jitted": _outcome(lambda: check(m.jit(twice), key)),
        "pytree_argument": _outcome(lambda: check(lambda d: twice(d["k"]), {"k": key})),
        "two_arguments": _outcome(lambda: check(lambda a, b: (random.normal(a), random.normal(b)), key, key)),
        "shape_dtype_struct": _outcome(lambda: check(twice, m.ShapeDtypeStruct((), key.dtype))),
        "cond": _outcome(lambda: check(draw_after_cond, key, True)),
        "scan": _outcome(lambda: check(drawn_in_loop, key)),
        "key_array": _outcome(lambda: check(lambda ks: (random.normal(ks[0]), random.normal(ks[1])),
                                            random.split(key))),
        "key_array_reused": _outcome(lambda: check(lambda ks: (random.normal(ks[0]), random.normal(ks[0])),
                                                   random.split(key))),
        "clone": _outcome(lambda: check(lambda k: (random.normal(random.clone(k)), random.normal(k)), key)),
        "no_arguments": _outcome(lambda: check(lambda: random.normal(random.key(1)))),
        "not_callable": _outcome(lambda: check(3, key)),
        "jaxpr_reused": _outcome(lambda: checks.check_key_reuse_jaxpr(m.make_jaxpr(twice)(key).jaxpr)),
        "jaxpr_split": _outcome(lambda: checks.check_key_reuse_jaxpr(m.make_jaxpr(once)(key).jaxpr)),
    }


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    path = pathlib.Path(__file__).parent / "key_reuse_module_golden.json"
    path.write_text(json.dumps(cases(module), indent=1) + "\n")
