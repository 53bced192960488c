"""Golden records of jnp's window functions (bartlett, blackman, hamming, hanning, kaiser) from JAX 0.10.2.

Run with JAX's environment: /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_windows_golden.py jax
"""

import numpy as np
from jnp_golden import no_args_case, traced_case, write

CASES = {}
for _name in ("bartlett", "blackman", "hamming", "hanning"):
    CASES.update({
        f"{_name}": no_args_case(lambda jnp, name=_name: getattr(jnp, name)(5)),
        f"{_name}_even": no_args_case(lambda jnp, name=_name: getattr(jnp, name)(4)),
        f"{_name}_one": no_args_case(lambda jnp, name=_name: getattr(jnp, name)(1)),
        f"{_name}_zero": no_args_case(lambda jnp, name=_name: getattr(jnp, name)(0)),
        f"{_name}_negative": no_args_case(lambda jnp, name=_name: getattr(jnp, name)(-1)),
        f"{_name}_float": no_args_case(lambda jnp, name=_name: getattr(jnp, name)(2.5)),
        f"{_name}_numpy_int": no_args_case(lambda jnp, name=_name: getattr(jnp, name)(np.int32(3))),
        f"{_name}_numpy_float": no_args_case(lambda jnp, name=_name: getattr(jnp, name)(np.float32(3.7))),
        f"{_name}_bool": no_args_case(lambda jnp, name=_name: getattr(jnp, name)(True)),
        f"{_name}_traced": traced_case(lambda jnp, m, name=_name: getattr(jnp, name)(m), 3),
    })
CASES.update({
    "kaiser": no_args_case(lambda jnp: jnp.kaiser(4, 2.0)),
    "kaiser_odd_int_beta": no_args_case(lambda jnp: jnp.kaiser(5, 3)),
    "kaiser_traced_weak_beta": traced_case(lambda jnp, b: jnp.kaiser(4, b), 2.0),
    "kaiser_traced_beta": traced_case(lambda jnp, b: jnp.kaiser(4, b), np.float32(2.0)),
    "kaiser_zero_beta": no_args_case(lambda jnp: jnp.kaiser(3, 0.0)),
    "kaiser_one": no_args_case(lambda jnp: jnp.kaiser(1, 2.0)),
    "kaiser_zero": no_args_case(lambda jnp: jnp.kaiser(0, 2.0)),
})

if __name__ == "__main__":
    write(CASES, "windows_golden.json")
