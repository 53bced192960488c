"""Where arrays are put as JAX 0.10.2 puts them (golden/make_placement_golden.py), outside any mesh and under
``jax.set_mesh``: arrays of rank 0 made by every creation route lie replicated over the mesh set; the ``*_like``
functions follow an array committed to devices (its device, or its NamedSharding where the shape allows); a value
converted to a NamedSharding over another mesh than the one set is refused as JAX refuses it."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_placement_golden")
