"""Programs whose loops, conditionals and nested jits have ordered effects lower as JAX 0.10.2's
(golden/ordered_effects_lowering_golden.json): the token is the first value of a loop's state and of a conditional's
results, a private function takes and returns it first (marked ``jax.token``), and a host callback is placed on the
program's device; running them prints and returns what JAX's do. The one difference left is ``main``'s own token:
JAX's takes one as its first argument and returns it, jaxle's makes one (``stablehlo.create_token``), so ``main``'s
signature, that op and its ``return`` are left out of the comparison, and the values' names with them."""

import json
import pathlib
import re
import sys

import pytest

import jaxle as jax
import jaxle.experimental  # noqa: F401 - io_callback

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_ordered_effects_lowering_golden as gen  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "ordered_effects_lowering_golden.json").read_text())


def _without_main_token(text: str) -> list[str]:
    """The lines of ``text`` but ``main``'s signature, its ``create_token`` and its ``return``, each value named
    ``%`` (one op fewer renumbers the rest)."""
    lines, in_main = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("func.func"):
            in_main = "@main(" in line
            if in_main:
                continue
        if in_main and (line.startswith("    return ") or "stablehlo.create_token" in line):
            continue
        lines.append(re.sub(r"%[\w#]+", "%", line))
    return lines


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == gen._cases(jax).keys()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_lowered_text_is_jax_but_for_the_main_token(name):
    assert _without_main_token(gen.lowered(jax, name)) == _without_main_token(GOLDEN[name]["text"])


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_prints_and_results_are_jax(name):
    assert gen.run(jax, name) == GOLDEN[name]["run"]
