"""``jax.extend.random``: PRNG implementations as objects, user-defined ones and the threefry2x32 hash."""

from jaxle_random.impls import threefry_prng_impl
from jaxle_random.rbg import rbg_prng_impl, unsafe_rbg_prng_impl
from jaxle_random.threefry import threefry2x32_p
from jaxle_random.threefry import threefry_2x32_counts as threefry_2x32
from jaxle_random.user_impls import define_prng_impl, random_seed, seed_with_impl

__all__ = ["define_prng_impl", "random_seed", "rbg_prng_impl", "seed_with_impl", "threefry2x32_p", "threefry_2x32",
           "threefry_prng_impl", "unsafe_rbg_prng_impl"]
