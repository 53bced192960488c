"""device_put of constants while traced stages them as JAX 0.10.2 does (golden/make_staged_constants_golden.py): a
placement, a copy, or an array of a device makes a ``device_put`` equation of the constant; NumPy values put
nowhere in particular are folded."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_staged_constants_golden")
