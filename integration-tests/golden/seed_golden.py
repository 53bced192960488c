"""Machinery shared by the seed-document generators beside this file and the tests that replay them.

A generator (``make_seed_<NNN>_golden.py``) defines ``EXAMPLES``: example name -> ``example(jax)``, the seed's code
written against the module ``jax`` it is given (its ``numpy``, ``random``, ``lax``, ... as attributes), returning
what the seed prints or shows: arrays, Python scalars, strings (jaxpr text), or tuples, lists and dicts of them.
It is run with JAX 0.10.2 in its own environment:

    /work/jaxpeer/bin/python integration-tests/golden/make_seed_<NNN>_golden.py jax

and writes ``seed_<NNN>_golden.json``: per example the record of its result (values, dtypes, shapes, weak types,
texts), or the type and first line of the error it raised. The tests run the same examples with ``jaxle`` and
compare records (``assert_matches``).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import re
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

HERE = pathlib.Path(__file__).parent
_CORE_GOLDEN = HERE.parents[1] / "packages" / "core" / "tests" / "golden"
if str(_CORE_GOLDEN) not in sys.path:
    sys.path.insert(0, str(_CORE_GOLDEN))

import make_reductions_golden as _core_golden  # noqa: E402 - found through the path set just above


def record(value: Any) -> Any:
    """A JSON-able description of an example's result."""
    if isinstance(value, str):
        return {"text": value}
    if isinstance(value, dict):
        return {"dict": {str(key): record(item) for key, item in value.items()}}
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [record(item) for item in value]}
    if isinstance(value, (bool, int, float)) and not isinstance(value, np.generic):
        return {"python": type(value).__name__, "value": value}
    return {**_core_golden._value(value), "weak": bool(getattr(value, "weak_type", False))}


def run_example(jax: Any, example: Callable[[Any], Any]) -> dict:
    """{'result': record} or {'error': type name, 'message': first line}."""
    try:
        result = example(jax)
    except Exception as error:  # noqa: BLE001 - the error is what we record
        # The module under test plays JAX's part: where a message names it, it names it as "jax".
        message = re.sub(rf"\b{re.escape(jax.__name__)}\b", "jax", str(error).split("\n")[0])
        return {"error": type(error).__name__, "message": message}
    return {"result": record(result)}


def _assert_records_match(actual: Any, expected: Any, where: str, rtol: float) -> None:
    assert actual.keys() == expected.keys(), (where, actual, expected)
    if "dict" in expected:
        assert actual["dict"].keys() == expected["dict"].keys(), where
        for key in expected["dict"]:
            _assert_records_match(actual["dict"][key], expected["dict"][key], f"{where}[{key!r}]", rtol)
    elif "tuple" in expected or "list" in expected:
        kind = "tuple" if "tuple" in expected else "list"
        assert len(actual[kind]) == len(expected[kind]), where
        for index, (got, want) in enumerate(zip(actual[kind], expected[kind])):
            _assert_records_match(got, want, f"{where}[{index}]", rtol)
    elif "text" in expected:
        assert actual["text"] == expected["text"], f"{where}:\n{actual['text']}\n!=\n{expected['text']}"
    elif "python" in expected:
        assert actual["python"] == expected["python"], where
        np.testing.assert_allclose(actual["value"], expected["value"], rtol=rtol, err_msg=where)
    else:
        assert (actual["dtype"], actual["shape"], actual["weak"]) == \
            (expected["dtype"], expected["shape"], expected["weak"]), (where, actual, expected)
        for part in ("values", "real", "imag"):
            if part in expected:
                np.testing.assert_allclose(actual[part], expected[part], rtol=rtol, atol=rtol, err_msg=where)


def assert_matches(actual: dict, expected: dict, check_message: bool = True, rtol: float = 2e-5) -> None:
    """One example's outcome against its golden record (float values to ``rtol``, everything else exactly)."""
    if "error" in expected or "error" in actual:
        assert actual.get("error") == expected.get("error"), (actual, expected)
        if check_message:
            assert actual.get("message") == expected.get("message"), (actual, expected)
        return
    _assert_records_match(actual["result"], expected["result"], "result", rtol)


def golden_path(seed: str) -> pathlib.Path:
    return HERE / f"seed_{seed}_golden.json"


def write_records(examples: dict[str, Callable[[Any], Any]], path: pathlib.Path) -> None:
    """Run ``examples`` with the module named on the command line and write their records to ``path``."""
    jax = importlib.import_module(sys.argv[1])
    records = {name: run_example(jax, example) for name, example in examples.items()}
    path.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} examples -> {path}")


def load_records(path: pathlib.Path) -> dict:
    return json.loads(path.read_text())


def write(examples: dict[str, Callable[[Any], Any]], seed: str) -> None:
    """Run ``examples`` with the module named on the command line and write the seed's records."""
    write_records(examples, golden_path(seed))


def load(seed: str) -> dict:
    return load_records(golden_path(seed))


def load_generator(seed: str):
    """The generator module of ``seed`` (its ``EXAMPLES``), imported from its file."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    return importlib.import_module(f"make_seed_{seed}_golden")
