"""``pmap(f).lower(...)`` on eight CPU devices against JAX 0.10.2 (golden/make_pmap_lower_golden.py): the
lowered stage's signature, structures and donation, the compiled stage's results, and the errors of both."""

import pathlib
import sys

import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
import make_pmap_lower_golden  # noqa: E402 - found through the path set just above
import seed_golden  # noqa: E402 - make_pmap_lower_golden puts the seed golden folder on the path

GOLDEN = make_pmap_lower_golden.load()


def test_every_example_has_a_golden_record():
    assert GOLDEN.keys() == make_pmap_lower_golden.EXAMPLES.keys()


@pytest.mark.parametrize("name", make_pmap_lower_golden.EXAMPLES)
def test_example_gives_jax_result(name):
    seed_golden.assert_matches(seed_golden.run_example(jax, make_pmap_lower_golden.EXAMPLES[name]), GOLDEN[name])
