"""Eager derivatives of functions placing their result on a device put their results, tangents and cotangents
where JAX 0.10.2's do: a jitted function's derivative runs on the device a conversion (``device=``) or a
``device_put`` to a ``SingleDeviceSharding`` inside it names, its results committed there, and an argument,
tangent or cotangent committed to another device gets JAX's error, naming where the placement was written; a
``device_put`` outside ``jit`` puts values and tangents on its device and cotangents back where the operand lies
(golden/make_eager_placing_derivatives_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_eager_placing_derivatives_golden")
