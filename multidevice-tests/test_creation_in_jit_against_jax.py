"""Creation functions given ``device=`` inside a transformation stage what JAX 0.10.2's stage: ``jnp.linspace`` a
conversion and a sharding constraint to the device inside its jitted function, ``arange`` and ``eye`` a
``device_put`` (to the device's sharding, and to the device as given), the filling functions nothing; a
``device_put`` to a sharding inside ``jit`` places the program as a constraint does (its result committed there, an
argument committed elsewhere or another placement refused with JAX's message, called or lowered; under ``set_mesh``
refused when lowered) (golden/make_creation_in_jit_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_creation_in_jit_golden")
