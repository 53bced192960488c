"""The creation functions given ``device=`` make arrays typed as JAX 0.10.2's on the device asked for, outside any
mesh and under ``jax.set_mesh`` (golden/make_creation_on_device_golden.py): the filling functions strongly typed
over no mesh, whatever the fill value; ``jnp.eye`` typed over the mesh it was computed under."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_creation_on_device_golden")
