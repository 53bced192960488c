"""Golden records of JAX 0.10.2's errors for creation functions given a traced size, count or offset where a
concrete one is needed (each case's function takes the traced integer 3).

Run with JAX's environment:
/work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_creation_errors_golden.py jax
"""

from jnp_golden import traced_case, write

_CALLS = {
    "zeros": lambda jnp, n: jnp.zeros(n),
    "ones_tuple": lambda jnp, n: jnp.ones((n, 2)),
    "empty": lambda jnp, n: jnp.empty(n),
    "full": lambda jnp, n: jnp.full(n, 1),
    "full_like_shape": lambda jnp, n: jnp.full_like(jnp.ones(2), 1, shape=(n,)),
    "array_ndmin": lambda jnp, n: jnp.array(1.0, ndmin=n),
    "eye": lambda jnp, n: jnp.eye(n),
    "eye_m": lambda jnp, n: jnp.eye(2, n),
    "identity": lambda jnp, n: jnp.identity(n),
    "tri": lambda jnp, n: jnp.tri(n),
    "tri_m": lambda jnp, n: jnp.tri(2, n),
    "tri_traced_k": lambda jnp, k: jnp.tri(3, k=k),
    "tril_k": lambda jnp, k: jnp.tril(jnp.ones((2, 2)), k),
    "diag_k": lambda jnp, k: jnp.diag(jnp.ones(2), k),
    "diagflat_k": lambda jnp, k: jnp.diagflat(jnp.ones(2), k),
    "vander_n": lambda jnp, n: jnp.vander(jnp.ones(2), n),
    "arange": lambda jnp, n: jnp.arange(n),
    "linspace_num": lambda jnp, n: jnp.linspace(0, 1, n),
    "logspace_num": lambda jnp, n: jnp.logspace(0, 1, n),
    "geomspace_num": lambda jnp, n: jnp.geomspace(1, 2, n),
    "indices": lambda jnp, n: jnp.indices((n,)),
    "diag_indices": lambda jnp, n: jnp.diag_indices(n),
    "diag_indices_ndim": lambda jnp, n: jnp.diag_indices(2, n),
    "tril_indices": lambda jnp, n: jnp.tril_indices(n),
    "triu_indices_k": lambda jnp, k: jnp.triu_indices(3, k),
    "tril_indices_m": lambda jnp, m: jnp.tril_indices(3, 0, m),
    "tril_indices_from_k": lambda jnp, k: jnp.tril_indices_from(jnp.ones((2, 2)), k),
    "mask_indices": lambda jnp, n: jnp.mask_indices(n, jnp.triu),
    "hanning": lambda jnp, n: jnp.hanning(n),
    "kaiser": lambda jnp, n: jnp.kaiser(n, 1.0),
    "mgrid": lambda jnp, n: jnp.mgrid[0:n],
    "fromfunction": lambda jnp, n: jnp.fromfunction(lambda i: i, (n,)),
    "frombuffer_count": lambda jnp, n: jnp.frombuffer(b"\x00" * 8, jnp.int8, count=n),
    "fftfreq": lambda jnp, n: jnp.fft.fftfreq(n),
    "rfftfreq": lambda jnp, n: jnp.fft.rfftfreq(n),
}

CASES = {name: traced_case(call, 3) for name, call in _CALLS.items()}

if __name__ == "__main__":
    write(CASES, "creation_errors_golden.json")
