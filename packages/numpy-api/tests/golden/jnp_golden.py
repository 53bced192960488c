"""Machinery shared by the jnp golden generators beside this file and by the tests that replay them.

A generator (``make_<family>_golden.py``) defines ``CASES``: case name -> ``build(m) -> (function, args)``, where
``m`` offers ``numpy``, ``lax``, ``make_jaxpr``, ``jit``, ``vmap``, the derivative functions and ``ds`` (the
``jax`` module does; tests use ``jaxle_namespace()``). It is run with JAX 0.10.2 in its own environment:

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_<family>_golden.py jax

and writes ``<family>_golden.json``: per case the ``make_jaxpr`` text, the values of the eager call and whether each
result is weakly typed, or the error's type and first line. The test replays every case with jaxle and compares
(``assert_case_matches``): jaxpr text character for character, values within a dtype tolerance, weak types, errors.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import types

import numpy as np

HERE = pathlib.Path(__file__).parent
_CORE_GOLDEN = HERE.parents[2] / "core" / "tests" / "golden"
if str(_CORE_GOLDEN) not in sys.path:
    sys.path.insert(0, str(_CORE_GOLDEN))

import make_reductions_golden as _core_golden  # noqa: E402 - found through the path set just above

rand = _core_golden.rand
value_record = _core_golden._value


def jaxle_namespace() -> types.SimpleNamespace:
    """What a generator's ``build`` gets from jaxle: core's transforms with jaxle_numpy as ``numpy``."""
    import jaxle_core
    import jaxle_numpy
    from jaxle_core.lax.refs import ds

    return types.SimpleNamespace(numpy=jaxle_numpy, lax=jaxle_core.lax, make_jaxpr=jaxle_core.make_jaxpr,
                                 jit=jaxle_core.jit, vmap=jaxle_core.vmap, grad=jaxle_core.grad,
                                 jvp=jaxle_core.jvp, vjp=jaxle_core.vjp, config=jaxle_core.config, ds=ds,
                                 linearize=jaxle_core.linearize, value_and_grad=jaxle_core.value_and_grad,
                                 custom_jvp=jaxle_core.custom_jvp, custom_vjp=jaxle_core.custom_vjp,
                                 checkpoint=jaxle_core.checkpoint, jacfwd=jaxle_core.jacfwd)


def no_args_case(fn):
    """A case calling ``fn(jnp)`` with no traced arguments (what it stages from constants alone)."""
    return lambda m: (lambda: fn(m.numpy), [])


def traced_case(fn, *args):
    """A case calling ``fn(jnp, *args)`` with ``args`` traced."""
    return lambda m: (lambda *a: fn(m.numpy, *a), list(args))


def _leaves(outs) -> list:
    if isinstance(outs, (tuple, list)):
        return [leaf for out in outs for leaf in _leaves(out)]
    return [outs]


def module_arrays(m, args: tuple) -> tuple:
    """``args`` with NumPy arrays made the module's arrays, for cases that index their arguments or call their
    methods: eagerly, a NumPy array would index as NumPy (and has no ``.at``)."""
    return tuple(m.numpy.asarray(a) if isinstance(a, np.ndarray) else a for a in args)


def run_case(m, build) -> dict:
    """{'jaxpr': text, 'values': [...], 'weak': [...]} or {'error': type name, 'message': first line}."""
    fn, args = build(m)
    try:
        text = str(m.make_jaxpr(fn)(*args))
        outs = _leaves(fn(*args))
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    return {"jaxpr": text, "values": [value_record(o) for o in outs],
            "weak": [bool(getattr(o, "weak_type", False)) for o in outs]}


def assert_case_matches(actual: dict, expected: dict, check_message: bool = True) -> None:
    """One replayed case against its golden record."""
    if "error" in expected or "error" in actual:
        assert actual.get("error") == expected.get("error"), (actual, expected)
        if check_message:
            assert actual.get("message") == expected.get("message"), (actual, expected)
        return
    assert actual["jaxpr"] == expected["jaxpr"], "\n" + actual["jaxpr"] + "\n!=\n" + expected["jaxpr"]
    _core_golden.assert_matches({"eqns": [], "values": actual["values"]}, {"eqns": [], "values": expected["values"]})
    assert actual["weak"] == expected["weak"]


def _record_array(record: dict) -> np.ndarray:
    if "real" in record:
        return np.asarray(record["real"]) + 1j * np.asarray(record["imag"])
    return np.asarray(record["values"])


def assert_bit_for_bit(outs: list, expected: list, name: str) -> None:
    """The arrays ``outs`` against their golden value records, bit for bit: dtype, shape, values (NaN where NaN)
    and the sign of every zero."""
    assert len(outs) == len(expected)
    for out, want in zip(outs, expected):
        got = value_record(out)
        assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), name
        got_array, want_array = _record_array(got), _record_array(want)
        np.testing.assert_array_equal(got_array, want_array, err_msg=name)
        got_parts, want_parts = _real_parts(got_array), _real_parts(want_array)
        zeros = want_parts == 0
        np.testing.assert_array_equal(np.signbit(got_parts[zeros]), np.signbit(want_parts[zeros]), err_msg=name)


def _real_parts(a: np.ndarray) -> np.ndarray:
    """``a``'s real and imaginary parts (``a`` itself if it is not complex), as real numbers."""
    return np.stack([a.real, a.imag]) if np.iscomplexobj(a) else a


def write(cases: dict, filename: str) -> None:
    """Run ``cases`` with the module named on the command line and write the records to ``filename``."""
    m = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.numpy")
    records = {name: run_case(m, build) for name, build in cases.items()}
    (HERE / filename).write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} cases -> {HERE / filename}")


def write_x64(cases: dict, filename: str) -> None:
    """``write`` with 64-bit types enabled in the module named on the command line."""
    importlib.import_module(sys.argv[1]).config.update("jax_enable_x64", True)
    write(cases, filename)


def load(filename: str) -> dict:
    return json.loads((HERE / filename).read_text())


def float32_and_x64(cases: dict, filename: str, x64_cases: dict, x64_filename: str) -> dict:
    """A family's two golden suites keyed by whether 64-bit types are on: ``{x64: (cases, records)}``."""
    return {False: (cases, load(filename)), True: (x64_cases, load(x64_filename))}


def cases_with_values(suites: dict, prefix: str = "") -> list[tuple[bool, str]]:
    """Every ``(x64, name)`` of ``suites`` whose record holds values, the names starting with ``prefix``."""
    return sorted((x64, name) for x64, (cases, records) in suites.items() for name in cases
                  if name.startswith(prefix) and "values" in records[name])


def replay_values(suites: dict, x64: bool, name: str, namespace: types.SimpleNamespace) -> tuple[list, list]:
    """Case ``name`` of ``suites[x64]`` called eagerly on ``namespace``: its result arrays and JAX's records."""
    import jaxle_core

    cases, records = suites[x64]
    with jaxle_core.config.enable_x64(x64):
        fn, args = cases[name](namespace)
        return _leaves(fn(*args)), records[name]["values"]
