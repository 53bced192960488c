"""A pullback of a function of arrays laid out over a mesh treats the cotangents it is given as JAX 0.10.2's does
(golden/make_pullback_cotangents_golden.py): one over no mesh is taken as the output's type (eagerly it is not
resharded, so a shard_map over Explicit axes refuses one split otherwise than its specs), one typed over a mesh
must have the output's type."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_pullback_cotangents_golden")
