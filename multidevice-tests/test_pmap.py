"""``pmap`` and ``shard_map`` on eight CPU devices: JAX 0.10.2's jaxpr texts, values and errors
(golden/make_pmap_golden.py), the seed's pmap examples with their printed values, and collectives against NumPy."""

import pathlib
import sys

import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
import make_pmap_golden  # noqa: E402 - found through the path set just above
import seed_golden  # noqa: E402 - make_pmap_golden puts the seed golden folder on the path

GOLDEN = make_pmap_golden.load()


def test_every_example_has_a_golden_record():
    assert GOLDEN.keys() == make_pmap_golden.EXAMPLES.keys()


@pytest.mark.parametrize("name", make_pmap_golden.EXAMPLES)
def test_example_gives_jax_result(name):
    seed_golden.assert_matches(seed_golden.run_example(jax, make_pmap_golden.EXAMPLES[name]), GOLDEN[name])


def test_experimental_shard_map_is_the_deprecated_alias():
    import jaxle.experimental.shard_map as experimental

    with pytest.warns(DeprecationWarning, match="jax.experimental.shard_map is deprecated"):
        assert experimental.shard_map is jax.shard_map
