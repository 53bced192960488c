"""The lowered text of jitted programs taking or closing over mutable array references is JAX 0.10.2's, word for
word (golden/lowered_refs_golden.json): each reference's array aliased to the result holding its final value, a
reference argument kept when only written (pruned when untouched), the references' arrays annotated over the empty
mesh (row-major when closed over), and no result named. Running the programs gives JAX's values."""

import json
import pathlib
import sys

import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_lowered_refs_golden as gen  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "lowered_refs_golden.json").read_text())


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == gen._cases(jax).keys()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_lowered_text_is_jax(name):
    assert gen.lowered(jax, name) == GOLDEN[name]["text"]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_values_are_jax(name):
    assert gen.run(jax, name) == GOLDEN[name]["values"]


def test_lowered_program_compiles_and_updates_the_reference():
    # the text's aliases are honoured by the program compiled from the same lowering
    ref = jax.new_ref(jax.numpy.zeros(3))
    lowered = jax.jit(lambda r, y: r.__setitem__(..., r[...] + y)).lower(ref, jax.numpy.ones(3))
    lowered.compile()(ref, jax.numpy.ones(3))
    assert ref[...].tolist() == [1.0, 1.0, 1.0]
