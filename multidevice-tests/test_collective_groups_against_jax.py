"""Collectives within ``axis_index_groups`` on eight CPU devices against JAX 0.10.2
(golden/make_collective_groups_golden.py): over several mesh axes, over a pmap's axis, and JAX's refusals."""

import pathlib
import sys

import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
import make_collective_groups_golden as golden  # noqa: E402 - found through the path set just above
import seed_golden  # noqa: E402 - the generator puts the seed golden folder on the path

GOLDEN = golden.load()


def test_every_example_has_a_golden_record():
    assert GOLDEN.keys() == golden.EXAMPLES.keys()


@pytest.mark.parametrize("name", golden.EXAMPLES)
def test_example_gives_jax_result(name):
    seed_golden.assert_matches(seed_golden.run_example(jax, golden.EXAMPLES[name]), GOLDEN[name])
