"""``pmap`` and ``shard_map`` on eight CPU devices: JAX 0.10.2's jaxpr texts, values and errors
(golden/make_pmap_golden.py), the seed's pmap examples with their printed values, and collectives against NumPy."""

import pathlib
import sys

import numpy as np
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


def test_gradients_through_pmap_match_finite_differences():
    from jaxle.test_util import check_grads

    x = np.linspace(-1.0, 1.0, 16, dtype=np.float32).reshape(8, 2)
    f = jax.pmap(lambda v: jax.numpy.sin(v) * jax.lax.psum(v * v, "i"), axis_name="i")
    check_grads(f, (x,), order=2, modes=["fwd", "rev"], atol=2e-2, rtol=2e-2)
    g = jax.pmap(lambda v, w: jax.numpy.cos(v * w), in_axes=(0, None))
    check_grads(g, (x, np.float32(0.7)), order=1, modes=["rev"], atol=2e-2, rtol=2e-2)


def test_vmap_of_pmap_and_pmap_of_vmap_against_numpy():
    x = np.arange(48.0, dtype=np.float32).reshape(3, 8, 2)
    per_device_sum = jax.pmap(lambda v: v * jax.lax.psum(v, "i"), axis_name="i")
    np.testing.assert_allclose(np.asarray(jax.vmap(per_device_sum)(x)), x * x.sum(1, keepdims=True))
    swapped = np.swapaxes(x, 0, 1)  # 8 devices, each with a batch of 3
    inner = jax.pmap(jax.vmap(lambda v: v - jax.lax.pmean(v, "i")), axis_name="i")
    np.testing.assert_allclose(np.asarray(inner(swapped)), swapped - swapped.mean(0, keepdims=True), rtol=1e-6)


def test_jit_of_pmap_and_pmap_of_jit_agree_with_pmap():
    x = np.arange(16.0, dtype=np.float32).reshape(8, 2)
    f = jax.pmap(lambda v: jax.lax.pmax(v, "i") - v, axis_name="i")
    expected = x.max(0) - x
    np.testing.assert_array_equal(np.asarray(jax.jit(f)(x)), expected)
    g = jax.pmap(jax.jit(lambda v: jax.lax.pmax(v, "i") - v), axis_name="i")
    np.testing.assert_array_equal(np.asarray(g(x)), expected)


def test_values_the_seed_readme_prints():
    # Seed 002 (JAX's README): ``normalize`` with ``lax.psum`` over the pmapped axis prints these.
    normalized = make_pmap_golden.normalize(jax)
    np.testing.assert_allclose(np.asarray(normalized), [0.0, 0.16666667, 0.33333334, 0.5], rtol=1e-7)
    assert normalized.shape == (4,) and normalized.dtype == np.float32


def test_collectives_over_eight_devices_against_numpy():
    lax = jax.lax
    x = np.arange(64.0, dtype=np.float32).reshape(8, 8)  # device d holds row d
    shift = [(d, (d + 3) % 8) for d in range(8)]
    groups = [[0, 2, 4, 6], [1, 3, 5, 7]]

    def body(v):
        return (lax.psum(v, "i"), lax.pmean(v, "i"), lax.pmax(-v, "i"), lax.pmin(v, "i"),
                lax.all_gather(v, "i"), lax.all_gather(v, "i", tiled=True), lax.psum_scatter(v, "i", tiled=True),
                lax.all_to_all(v, "i", 0, 0, tiled=True), lax.ppermute(v, "i", shift), lax.axis_index("i"),
                lax.psum(v, "i", axis_index_groups=groups))

    outs = [np.asarray(o) for o in jax.pmap(body, axis_name="i")(x)]
    rows = np.arange(8)
    expected = [np.tile(x.sum(0), (8, 1)), np.tile(x.mean(0), (8, 1)), np.tile(-x.min(0), (8, 1)),
                np.tile(x.min(0), (8, 1)), np.tile(x, (8, 1, 1)), np.tile(x.reshape(-1), (8, 1)),
                x.sum(0)[:, None], x.T, x[(rows - 3) % 8], rows, x.reshape(4, 2, 8).sum(0)[rows % 2]]
    for got, want in zip(outs, expected):
        np.testing.assert_allclose(got, want.reshape(got.shape), rtol=1e-6)


def test_values_the_seed_api_reference_prints():
    # Seed 000 (JAX's API reference), jax.pmap's examples: what each prints.
    np.testing.assert_array_equal(np.asarray(make_pmap_golden.seed_000_squares(jax)), [0, 1, 4, 9, 16, 25, 36, 49])
    np.testing.assert_array_equal(np.asarray(make_pmap_golden.seed_000_dot(jax)),
                                  [[[4, 9], [12, 29]], [[244, 345], [348, 493]], [[1412, 1737], [1740, 2141]]])
    shifted, doubled = make_pmap_golden.seed_000_broadcast_argument(jax)
    np.testing.assert_array_equal(np.asarray(shifted), [4.0, 5.0])
    np.testing.assert_array_equal(np.asarray(doubled), [8.0, 8.0])
    out, total = make_pmap_golden.seed_000_normalize(jax)
    np.testing.assert_allclose(np.asarray(out), [0.0, 0.16666667, 0.33333334, 0.5], rtol=1e-7)
    assert float(total) == 1.0
    first_six, last_two = make_pmap_golden.seed_000_chosen_devices(jax)
    np.testing.assert_allclose(np.asarray(first_six), [0.0, 0.06666667, 0.13333333, 0.2, 0.26666667, 0.33333333],
                               rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(last_two), [13.0, 13.0])


def test_pmap_result_serves_a_pmap_of_another_axis_without_moving():
    """As in JAX, an array laid out alike under another mesh axis name keeps its buffers: deleting the pmap's
    result deletes the relabelled array too, and a pmap naming its axis differently reads it in place."""
    from jaxle.sharding import Mesh, NamedSharding, PartitionSpec

    doubled = jax.pmap(lambda a: a * 2)(np.arange(8.0, dtype=np.float32))
    total = jax.pmap(lambda a: jax.lax.psum(a, "i"), "i")(doubled)
    np.testing.assert_array_equal(np.asarray(total), np.full(8, 56.0, np.float32))
    relabelled = jax.device_put(doubled, NamedSharding(Mesh(np.array(jax.devices()), ("j",)), PartitionSpec("j")))
    np.testing.assert_array_equal(np.asarray(relabelled), np.arange(8.0) * 2)
    doubled.delete()
    assert relabelled.is_deleted()
