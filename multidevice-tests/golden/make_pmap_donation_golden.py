"""Write pmap_donation_golden.json: what JAX 0.10.2's ``pmap(..., donate_argnums=)`` donates on 8 CPU devices: the
arguments its lowered program aliases to results (whole arguments, counted without the static ones, keyword ones
after the positional ones), what its lowered stage reports (``args_info``'s donated flags and ``donate_argnums``:
the same numbers read as flat argument positions), its refusal of static donated arguments, the arguments its
function does not read (left out of the program: neither donated nor warned about), and the warnings about
donations no result can reuse (given when a program is lowered, once per program; for ``jit`` too):

    /work/jaxpeer/bin/python multidevice-tests/golden/make_pmap_donation_golden.py jax

With another module (jaxle) it prints its outcomes as JSON instead of writing them. The device count is read when
the client starts, so it runs in a fresh interpreter.
"""

import pathlib
import re
import warnings

import golden_main
from golden_cases import failure

HERE = pathlib.Path(__file__).parent


def _aliased(lowered) -> list[bool]:
    """Which arguments of the lowered program's ``main`` are donated (aliased to a result, or buffer donors)."""
    signature = next(line for line in lowered.as_text().splitlines() if "func.func public @main" in line)
    parameters = re.split(r"%arg\d+:", signature.split(") -> (")[0])[1:]
    return [("aliasing_output" in p or "buffer_donor" in p) for p in parameters]


def _lowered(m, fun, *args, static=(), donate=(), **kwargs):
    lowered = m.pmap(fun, static_broadcasted_argnums=static, donate_argnums=donate).lower(*args, **kwargs)
    return {"aliased": _aliased(lowered), "reported": [i.donated for i in m.tree.leaves(lowered.args_info)],
            "donate_argnums": list(lowered.donate_argnums)}


def _warned_at_each_step(steps) -> list:
    """``[step, the messages it warned]`` for each ``(step, thunk)`` of ``steps``, run in order."""
    outcomes = []
    for step, thunk in steps:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            thunk()
        outcomes.append([step, [str(w.message) for w in caught if issubclass(w.category, UserWarning)]])
    return outcomes


def _stages(function, make_args) -> list:
    """When ``function`` (donating arguments no result can reuse) warns: lowered twice, compiled, the compiled
    stage called, then the function called twice."""
    lowered = []
    return _warned_at_each_step([
        ("lower", lambda: lowered.append(function.lower(*make_args()))),
        ("lower again", lambda: function.lower(*make_args())),
        ("compile", lambda: lowered.append(lowered[0].compile())),
        ("call the compiled stage", lambda: lowered[1](*make_args())),
        ("call", lambda: function(*make_args())),
        ("call again", lambda: function(*make_args()))])


def _calls_first(function, make_args) -> list:
    """When ``function`` (donating arguments no result can reuse) warns: called twice, then lowered and compiled."""
    return _warned_at_each_step([
        ("call", lambda: function(*make_args())),
        ("call again", lambda: function(*make_args())),
        ("lower and compile", lambda: function.lower(*make_args()).compile())])


def _unused_donated(m) -> dict:
    """A pmap donating three arguments, two of which its function does not read, called on arrays laid out as it
    takes them: which it deletes, and what it warned."""
    ident = m.pmap(lambda v: v * 1)
    args = [ident(m.numpy.ones((8, 3))), ident(m.numpy.ones((8, 2))), ident(m.numpy.ones((8, 3)))]
    m.pmap(lambda a, b, c: a * 2, donate_argnums=(0, 1, 2))(*args)
    return {"deleted": [x.is_deleted() for x in args]}


def _cases(m):
    jnp = m.numpy
    block = lambda: jnp.ones((8, 3))  # noqa: E731 - small cases read best inline
    pair = (block(), block())
    with_pair_first = lambda a, b: (a[0] + a[1] + b, a[0] * 2, b * 3)  # noqa: E731
    with_pair_second = lambda a, b: (a + b[0] + b[1], a * 2, b[0] * 3)  # noqa: E731
    scaled = lambda n, a, b: (a * n + b, a * 2, b * 3)  # noqa: E731
    scaled_middle = lambda a, n, b: (a * n + b, a * 2, b * 3)  # noqa: E731
    return {
        "first_of_pair": lambda: _lowered(m, with_pair_first, pair, block(), donate=0),
        "second_argument_after_pair": lambda: _lowered(m, with_pair_first, pair, block(), donate=1),
        "past_the_arguments": lambda: _lowered(m, with_pair_first, pair, block(), donate=2),
        "both": lambda: _lowered(m, with_pair_first, pair, block(), donate=(0, 2)),
        "pair_second": lambda: _lowered(m, with_pair_second, block(), pair, donate=1),
        "pair_second_past": lambda: _lowered(m, with_pair_second, block(), pair, donate=2),
        "negative": lambda: _lowered(m, with_pair_first, pair, block(), donate=-1),
        "out_of_range": lambda: _lowered(m, with_pair_first, pair, block(), donate=5),
        "after_static": lambda: _lowered(m, scaled, 2, block(), block(), static=0, donate=1),
        "last_after_static": lambda: _lowered(m, scaled, 2, block(), block(), static=0, donate=2),
        "around_static": lambda: _lowered(m, scaled_middle, block(), 2, block(), static=1, donate=2),
        "keyword": lambda: _lowered(m, lambda a, b: (a + b, a * 2), block(), b=block(), donate=1),
        "dict_argument": lambda: _lowered(m, lambda a, b: a["x"] + a["y"] + b, {"y": block(), "x": block()},
                                          block(), donate=1),
        "static_donated": lambda: m.pmap(scaled_middle, static_broadcasted_argnums=1, donate_argnums=1),
        "statics_donated": lambda: m.pmap(scaled_middle, static_broadcasted_argnums=(1, 0), donate_argnums=(0, 1, 2)),
        "unusable_warning": lambda: m.pmap(lambda a, b: a + b, donate_argnums=(0, 1))(block(), block()).shape,
        # arguments the function does not read are not in the program: neither donated nor warned about
        "unused_arguments": lambda: _lowered(m, lambda a, b, c: a * 2, block(), jnp.ones((8, 2)), block(),
                                             donate=(0, 1, 2)),
        "unused_arguments_text": lambda: m.pmap(lambda a, b: b + 1, donate_argnums=(0, 1)).lower(
            jnp.ones((8, 2)), block()).as_text(),
        "unused_arguments_called": lambda: _unused_donated(m),
        # the warning about donations no result can reuse comes when the program is lowered, once per program
        "pmap_warning_stages": lambda: _stages(m.pmap(lambda a, b: a + b, donate_argnums=(0, 1)),
                                               lambda: (block(), block())),
        "jit_warning_stages": lambda: _stages(m.jit(lambda a, b: a + b, donate_argnums=(0, 1)),
                                              lambda: (jnp.ones(3), jnp.ones(3))),
        "jit_warning_calls_first": lambda: _calls_first(m.jit(lambda a, b: a + b, donate_argnums=(0, 1)),
                                                        lambda: (jnp.ones(3), jnp.ones(3))),
        "jit_kept_unused_warning": lambda: _warned_at_each_step([("lower", lambda: m.jit(
            lambda a, b: a * 2, donate_argnums=(0, 1), keep_unused=True).lower(jnp.ones(3), jnp.ones(2)))]),
    }


def _outcome(case) -> list:
    """What ``case`` returns (its repr for objects JSON cannot hold), or its error's type and message, and the
    warnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = case()
            result = value if isinstance(value, dict) else repr(value) if not callable(value) else "function"
        except Exception as error:  # noqa: BLE001 - every error is an outcome to compare
            result = failure(error)
    return [result, [str(w.message) for w in caught if issubclass(w.category, UserWarning)]]


def record(m):
    return {name: _outcome(case) for name, case in _cases(m).items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "pmap_donation_golden.json")
