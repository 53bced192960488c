"""JAX's bits on other kinds of CPU: golden outcomes recorded per machine kind, and how a test compares with them.

XLA compiles a program for the CPU it runs on (its vector width, fused multiply-add, ...), so the float results of
a program XLA generates itself (a ``while`` loop of QDWH iterations, a rank-one Cholesky update) can differ in their
last bits from one kind of CPU to another, for JAX as for jaxle. A golden JSON holds the outcomes of the machine
that made it; ``<golden>.variants.json`` holds, for each other machine kind it was run on, the cases whose outcomes
JAX 0.10.2 gave differently there:

    /work/jaxpeer/bin/python packages/xla/tests/golden/host_variants.py make_lapack_golden jax
    /work/jaxpeer/bin/python packages/xla/tests/golden/host_variants.py make_random_gamma_golden jax \
        packages/random/tests/golden

A test asks for exact bits on every recorded machine kind; on one never recorded, for one of the recorded outcomes
or float results within a few units in the last place of the golden's. Imported by generators run under JAX as well,
so it uses NumPy alone.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

HERE = pathlib.Path(__file__).parent

# What decides how XLA compiles for a CPU: its maker, family and model, and its vector instruction sets.
_SIMD_PREFIXES = ("sse", "ssse", "avx", "fma", "f16c", "amx", "sve", "asimd", "neon")
# Float results of an unrecorded machine kind may differ from the golden's by this many units in the last place.
UNRECORDED_MAX_ULPS = 16


def machine_kind() -> str:
    """This machine's kind, e.g. ``GenuineIntel-6-143-avx2,avx512f,...,fma`` (from /proc/cpuinfo)."""
    fields: dict[str, str] = {}
    try:
        text = pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        return "unknown"
    for line in text.split("\n\n", 1)[0].splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    flags = sorted(f for f in (fields.get("flags") or fields.get("Features", "")).split()
                   if f.startswith(_SIMD_PREFIXES))
    ident = "-".join(fields.get(key, "?") for key in ("vendor_id", "cpu family", "model"))
    return f"{ident}-{','.join(flags)}"


def _variants_path(golden_path: pathlib.Path) -> pathlib.Path:
    return golden_path.with_name(golden_path.name.removesuffix(".json") + ".variants.json")


def load_variants(golden_path: pathlib.Path) -> dict[str, dict]:
    """``{machine kind: {case: outcome}}`` recorded beside ``golden_path`` (empty if none)."""
    path = _variants_path(golden_path)
    return json.loads(path.read_text()) if path.exists() else {}


def _arrays(outcome) -> list[np.ndarray] | None:
    """The arrays of an outcome (``{dtype, shape, hex}``, a list of them or ``{'outs': [...]}``); None for an
    error."""
    if isinstance(outcome, dict):
        records = [outcome] if "hex" in outcome else outcome.get("outs")
    else:
        records = outcome if isinstance(outcome, list) else None
    if records is None:
        return None
    return [np.frombuffer(bytes.fromhex(r["hex"]), r["dtype"]).reshape(r["shape"]) for r in records]


def _within_ulps(actual, expected) -> bool:
    """Same structure, dtypes and shapes; exact integers; floats (complex parts apart) within a few ulps."""
    got, want = _arrays(actual), _arrays(expected)
    if got is None or want is None or len(got) != len(want):
        return False
    for a, e in zip(got, want):
        if a.dtype != e.dtype or a.shape != e.shape:
            return False
        if a.dtype.kind == "c":
            a, e = a.view(a.real.dtype), e.view(e.real.dtype)
        if a.dtype.kind != "f":
            if not np.array_equal(a, e):
                return False
            continue
        try:
            np.testing.assert_array_max_ulp(a, e, maxulp=UNRECORDED_MAX_ULPS)
        except AssertionError:
            return False
    return True


def check(actual, name: str, golden: dict, variants: dict[str, dict],
          approximate: Callable[[Any, Any], bool] = _within_ulps) -> None:
    """Assert that ``actual`` is JAX's outcome of case ``name`` on this kind of machine (see the module's doc);
    ``approximate(actual, golden outcome)`` decides on a kind never recorded, where no recorded outcome is met."""
    kind = machine_kind()
    if kind in variants:
        assert actual == variants[kind].get(name, golden[name])
        return
    recorded = [golden[name]] + [cases[name] for cases in variants.values() if name in cases]
    assert actual in recorded or approximate(actual, golden[name]), (actual, golden[name])


def _outcomes(generator, module_name: str) -> dict:
    """Every case of a generator run with ``module_name``: through its ``record(module)``, or its
    ``run_case(namespace, name)`` over its ``CASES``."""
    if hasattr(generator, "record"):
        return generator.record(importlib.import_module(module_name))
    namespace = generator.namespace(module_name)
    return {name: generator.run_case(namespace, name) for name in generator.CASES}


def record(generator_name: str, module_name: str) -> None:
    """Run the generator's cases with ``module_name`` (JAX) here and record those differing from its golden."""
    generator = importlib.import_module(generator_name)
    golden_path = generator.GOLDEN
    golden = json.loads(golden_path.read_text())
    outcomes = _outcomes(generator, module_name)
    variants = load_variants(golden_path)
    # Errors are left out: their messages may name addresses of the process that made them.
    variants[machine_kind()] = {name: outcome for name, outcome in outcomes.items()
                                if outcome != golden[name] and _arrays(outcome) is not None}
    _variants_path(golden_path).write_text(json.dumps(variants, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    sys.path[:0] = [str(HERE), *sys.argv[3:]]  # folders of generators kept elsewhere
    record(sys.argv[1], sys.argv[2])
