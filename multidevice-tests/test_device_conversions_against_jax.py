"""``jnp.asarray``/``jnp.array``/``astype`` given ``device=`` inside a transformation stage JAX 0.10.2's
``convert_element_type`` and sharding constraint to the device (a scalar constant folded), so a jitted call's result
is committed there and an argument committed elsewhere is refused with JAX's message; under ``set_mesh`` the
function traces and its program is refused when lowered or called, naming the conversion's line
(golden/make_device_conversions_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_device_conversions_golden")
