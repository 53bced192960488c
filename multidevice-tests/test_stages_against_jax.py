"""What the stages of ``jit`` and ``pmap`` report and do is JAX 0.10.2's: memory layouts
(``jax.experimental.layout``: ``Format``/``Layout``, ``Array.format``, ``device_put`` onto a ``Format``, ``jit``
given ``Format``s, ``input_formats``/``output_formats``, ``with_layout_constraint``;
golden/make_layout_golden.py) and ``pmap``'s donations (golden/make_pmap_donation_golden.py)."""

import functools
import importlib
import json

import pytest

import jaxle

GENERATORS = {name: importlib.import_module(f"make_{name}_golden") for name in ("layout", "pmap_donation")}
GOLDEN = {name: json.loads((gen.HERE / f"{name}_golden.json").read_text()) for name, gen in GENERATORS.items()}


@functools.cache
def _mine(generator: str) -> dict:
    """Every case of ``generator`` run by jaxle, once, as JSON reads it back."""
    return json.loads(json.dumps(GENERATORS[generator].record(jaxle)))


@pytest.mark.parametrize(("generator", "case"), [(g, c) for g, cases in GOLDEN.items() for c in sorted(cases)])
def test_matches_jax(generator, case):
    assert _mine(generator)[case] == GOLDEN[generator][case]
