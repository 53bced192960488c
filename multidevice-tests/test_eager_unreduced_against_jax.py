"""Arrays of partial sums made eagerly (a ``shard_map`` returning unreduced values, a contraction given an unreduced
``out_sharding``) are JAX 0.10.2's: typed and laid out as unreduced, each device holding its partial sum, summed by a
later ``reshard``, refusing what JAX refuses; ``vmap`` of the collectives of such values raises JAX's errors
(golden/make_eager_unreduced_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_eager_unreduced_golden")
