"""Under ``jax.set_mesh``, every sharding of a computation must lie on the mesh's devices in the mesh's order, as in
JAX 0.10.2: arguments over a mesh of other devices (of the same devices in another order, of some of them),
arguments committed to one device, in_shardings, out_shardings and sharding constraints elsewhere are refused with
JAX's ValueError, eagerly, by a first or a cached jitted call (C++ dispatch included), by ``lower``, and over
Explicit axes when traced; uncommitted arguments still run. Refusals of the shardings an operation is asked for end
with the user's source line as JAX's, and jit's refusal of a sharding of more entries than its value's rank names
the value's path (golden/make_context_mesh_devices_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_context_mesh_devices_golden")
