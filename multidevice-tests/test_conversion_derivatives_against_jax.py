"""The derivatives of conversions for ``device=`` (``jnp.asarray``, ``astype``, ``jnp.array``, ``jnp.linspace``)
constrain their values and tangents or cotangents to the device as JAX 0.10.2's do: once for each level the
conversion is bound at (twice by reverse mode, which JAX linearizes by staging), inside linspace's jitted function
too (golden/make_conversion_derivatives_golden.py)."""

from conftest import golden_cases_test

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_conversion_derivatives_golden")
