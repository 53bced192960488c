"""Programs whose loops, conditionals and nested jits have ordered effects lower as JAX 0.10.2's
(golden/ordered_effects_lowering_golden.json): ``main`` takes one token per ordered effect first and returns it
first (marked ``jax.token``, a donated argument aliased past them), the token of each effect is the first value of
a loop's state and of a conditional's results, a private function takes and returns its effects' tokens first,
and a host callback is placed on the program's device; running them prints and returns what JAX's do, the calls
of each effect in order across calls too."""

import json
import pathlib
import sys

import pytest

import jaxle as jax
import jaxle.experimental  # noqa: F401 - io_callback
from jaxle_core.callbacks import ordered_io_effect
from jaxle_core.debugging import ordered_debug_effect
from jaxle_xla.effect_tokens import runtime_tokens

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_ordered_effects_lowering_golden as gen  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "ordered_effects_lowering_golden.json").read_text())


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == gen._cases(jax).keys()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_lowered_text_is_jax(name):
    assert gen.lowered(jax, name) == GOLDEN[name]["text"]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_prints_and_results_are_jax(name):
    assert gen.run(jax, name) == GOLDEN[name]["run"]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_calls_in_a_row_print_in_order_as_jax(name):
    assert gen.run_three_times(jax, name) == GOLDEN[name]["three_runs"]


def test_each_call_continues_the_tokens_the_last_one_returned():
    jitted, args = gen._jitted(jax, "io_then_print")
    jax.effects_barrier()
    assert runtime_tokens.current == {}
    jitted(*args)
    first = dict(runtime_tokens.current)
    assert list(first) == [ordered_io_effect, ordered_debug_effect]
    jitted(*args)
    assert all(runtime_tokens.current[e] is not first[e] for e in first)  # the next call's own tokens
    jax.effects_barrier()
    assert runtime_tokens.current == {}
