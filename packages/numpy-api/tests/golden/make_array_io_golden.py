"""Golden records of jnp's arrays from bytes, strings and DLPack (frombuffer, fromstring, from_dlpack) and the
refused fromiter/fromfile, from JAX 0.10.2.

Run with JAX's environment: /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_array_io_golden.py jax
"""

import numpy as np
from jnp_golden import no_args_case, write

F32_BYTES = np.arange(4, dtype=np.float32).tobytes()

CASES = {
    "frombuffer_default_float": no_args_case(lambda jnp: jnp.frombuffer(F32_BYTES)),
    "frombuffer_float32": no_args_case(lambda jnp: jnp.frombuffer(F32_BYTES, dtype=jnp.float32)),
    "frombuffer_count_offset": no_args_case(lambda jnp: jnp.frombuffer(F32_BYTES, dtype=jnp.float32, count=2,
                                                                       offset=4)),
    "frombuffer_int8": no_args_case(lambda jnp: jnp.frombuffer(b"\x01\xff", dtype=jnp.int8)),
    "frombuffer_float64": no_args_case(lambda jnp: jnp.frombuffer(np.arange(2.0).tobytes(), dtype=np.float64)),
    "frombuffer_bytearray": no_args_case(lambda jnp: jnp.frombuffer(bytearray(b"\x01\x02"), dtype=jnp.uint8)),
    "frombuffer_numpy": no_args_case(lambda jnp: jnp.frombuffer(np.arange(3, dtype=np.int8), dtype=jnp.int8)),
    "frombuffer_bad_size": no_args_case(lambda jnp: jnp.frombuffer(b"\x01\x02\x03", dtype=jnp.int16)),
    "frombuffer_str": no_args_case(lambda jnp: jnp.frombuffer("abc", dtype=jnp.int8)),
    "fromstring": no_args_case(lambda jnp: jnp.fromstring("1 2 3", sep=" ")),
    "fromstring_int": no_args_case(lambda jnp: jnp.fromstring("1,2,3", dtype=int, sep=",")),
    "fromstring_count": no_args_case(lambda jnp: jnp.fromstring("1 2 3", dtype=int, count=2, sep=" ")),
    "fromstring_no_sep": no_args_case(lambda jnp: jnp.fromstring("1 2 3")),
    "fromstring_binary": no_args_case(lambda jnp: jnp.fromstring("\x01\x02", dtype=jnp.int8, sep="")),
    "fromstring_unmatched": no_args_case(lambda jnp: jnp.fromstring("1 a", sep=" ")),
    "fromiter": no_args_case(lambda jnp: jnp.fromiter(range(3), int)),
    "fromfile": no_args_case(lambda jnp: jnp.fromfile("x")),
    "from_dlpack_numpy": no_args_case(lambda jnp: jnp.from_dlpack(np.arange(3.0))),
    "from_dlpack_int64": no_args_case(lambda jnp: jnp.from_dlpack(np.arange(3))),
    "from_dlpack_bool": no_args_case(lambda jnp: jnp.from_dlpack(np.ones(2, bool))),
    "from_dlpack_array": no_args_case(lambda jnp: jnp.from_dlpack(jnp.arange(3.0))),
    "from_dlpack_copy": no_args_case(lambda jnp: jnp.from_dlpack(np.arange(3.0), copy=True)),
    "from_dlpack_list": no_args_case(lambda jnp: jnp.from_dlpack([1, 2])),
    "from_dlpack_scalar": no_args_case(lambda jnp: jnp.from_dlpack(np.float32(1.5))),
}

if __name__ == "__main__":
    write(CASES, "array_io_golden.json")
