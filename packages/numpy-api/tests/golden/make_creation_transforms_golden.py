"""Golden records of jnp's creation functions under vmap and grad (what the transformations stage) from
JAX 0.10.2.

Run with JAX's environment:
/work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_creation_transforms_golden.py jax
"""

import numpy as np
from jnp_golden import rand, write

B3 = rand((3,), "float32", 1)
B23 = rand((2, 3), "float32", 2)
M233 = rand((2, 3, 3), "float32", 3)


def _vmapped(fn, *args, in_axes=0):
    """A case tracing ``vmap(fn(jnp, ...))``."""
    return lambda m: (m.vmap(lambda *a: fn(m.numpy, *a), in_axes=in_axes), list(args))


def _grad(fn, *args):
    """A case tracing ``grad`` of the sum of ``fn(jnp, ...)``'s elements with respect to the first argument."""
    def build(m):
        return m.grad(lambda *a: m.lax.reduce_sum(fn(m.numpy, *a), tuple(range(np.ndim(fn(np, *args)))))), list(args)
    return build


CASES = {
    "vmap_array_of_tracer_and_constant": _vmapped(lambda jnp, v: jnp.array([v, 1.0]), B3),
    "vmap_array_of_vectors": _vmapped(lambda jnp, v: jnp.array([v, v * 2]), B23),
    "vmap_asarray_dtype": _vmapped(lambda jnp, v: jnp.asarray(v, jnp.int32), B3),
    "vmap_array_copy": _vmapped(lambda jnp, v: jnp.array(v), B23),
    "vmap_full": _vmapped(lambda jnp, v: jnp.full((2,), v), B3),
    "vmap_full_vector_fill": _vmapped(lambda jnp, v: jnp.full((2, 3), v), B23),
    "vmap_zeros_like": _vmapped(lambda jnp, v: jnp.zeros_like(v), B23),
    "vmap_full_like": _vmapped(lambda jnp, v: jnp.full_like(v, 2.0), B23),
    "vmap_linspace": _vmapped(lambda jnp, v: jnp.linspace(0.0, v, 3), B3),
    "vmap_linspace_both": _vmapped(lambda jnp, a, b: jnp.linspace(a, b, 4, axis=-1), B3, B3 + 1),
    "vmap_geomspace": _vmapped(lambda jnp, v: jnp.geomspace(1.0, v, 3), np.abs(B3) + 1),
    "vmap_eye_k": _vmapped(lambda jnp, k: jnp.eye(3, k=k), np.array([-1, 0, 1], np.int32)),
    "vmap_tril": _vmapped(lambda jnp, m: jnp.tril(m), M233),
    "vmap_triu_axis1": _vmapped(lambda jnp, m: jnp.triu(m, 1), M233, in_axes=1),
    "vmap_diag": _vmapped(lambda jnp, v: jnp.diag(v), B23),
    "vmap_diagflat": _vmapped(lambda jnp, v: jnp.diagflat(v, 1), B23),
    "vmap_vander": _vmapped(lambda jnp, v: jnp.vander(v, 2), B23),
    "vmap_meshgrid": _vmapped(lambda jnp, v: jnp.meshgrid(v, v)[0], B23),
    "vmap_r_": _vmapped(lambda jnp, v: jnp.r_[v, 0.0], B23),
    "vmap_c_": _vmapped(lambda jnp, v: jnp.c_[v, v], B23),
    "vmap_kaiser": _vmapped(lambda jnp, b: jnp.kaiser(4, b), np.abs(B3)),
    "vmap_scalar_type_call": _vmapped(lambda jnp, v: jnp.int16(v), B3),
    "grad_array_of_tracers": _grad(lambda jnp, x: jnp.array([[x, 2.0], [3.0, x * x]]), np.float32(1.5)),
    "grad_linspace": _grad(lambda jnp, x: jnp.linspace(x, 2.0, 4), np.float32(0.5)),
    "grad_logspace": _grad(lambda jnp, x: jnp.logspace(0.0, x, 3), np.float32(0.5)),
    "grad_geomspace": _grad(lambda jnp, x: jnp.geomspace(x, 8.0, 3), np.float32(2.0)),
    "grad_tril": _grad(lambda jnp, m: jnp.tril(m * m, -1), B23),
    "grad_diag": _grad(lambda jnp, v: jnp.diag(v * v, 1), B3),
    "grad_diagflat": _grad(lambda jnp, v: jnp.diagflat(v * v), B3),
    "grad_vander": _grad(lambda jnp, v: jnp.vander(v, 3), B3),
    "grad_full": _grad(lambda jnp, x: jnp.full((2, 2), x), np.float32(1.5)),
    "grad_r_": _grad(lambda jnp, v: jnp.r_[v, v * 3], B3),
    "grad_kaiser_beta": _grad(lambda jnp, b: jnp.kaiser(5, b), np.float32(2.5)),
}

if __name__ == "__main__":
    write(CASES, "creation_transforms_golden.json")
