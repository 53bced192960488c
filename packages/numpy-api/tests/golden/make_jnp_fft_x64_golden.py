"""Golden records of ``jnp.fft`` with x64 enabled, from JAX 0.10.2: float64/complex128/int64 inputs and a selection
of the cases of make_jnp_fft_golden.py, recorded with ``jax_enable_x64`` on (the test replays them under
``config.enable_x64(True)``).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_fft_x64_golden.py jax
"""

import make_jnp_fft_golden
import numpy as np
from jnp_golden import rand, write_x64
from make_jnp_fft_golden import const_case, fft_case

F64 = rand((3, 4), "float64", 21)
C128 = rand((2, 3), "complex128", 22)
I64 = rand((4,), "int64", 23)

_SELECTED = ["fft_f32", "rfft_int", "irfft_int", "hfft_bool", "ihfft_uint8", "fft_float16", "fftn_int",
             "rfftn_four_axes_ortho", "irfft2_axes_s_ortho", "fftfreq_even", "fftfreq_odd_d", "fftfreq_int_d",
             "fftfreq_float16", "fftfreq_int32", "fftfreq_traced_d", "fftfreq_traced_weak_d", "rfftfreq_odd_d",
             "rfftfreq_int32", "rfftfreq_traced_weak_d", "fftshift_all", "ifftshift_axes_tuple", "fft_of_weak_array",
             "fftfreq_complex64"]

CASES = {name: make_jnp_fft_golden.CASES[name] for name in _SELECTED}
CASES.update({
    "fft_float64_ortho": fft_case("fft", F64, norm="ortho"),
    "ifft_complex128_forward": fft_case("ifft", C128, n=4, axis=0, norm="forward"),
    "rfft_float64_pad": fft_case("rfft", F64, n=6, axis=0),
    "irfft_complex128_ortho": fft_case("irfft", C128, norm="ortho"),
    "hfft_complex128": fft_case("hfft", C128, n=3),
    "ihfft_float64_forward": fft_case("ihfft", F64, norm="forward"),
    "fftn_int64": fft_case("fftn", I64),
    "rfftn_float64_s": fft_case("rfftn", F64, s=(2, 5)),
    "irfftn_int64": fft_case("irfftn", I64, norm="ortho"),
    "fft2_float64": fft_case("fft2", F64, norm="forward"),
    "fftfreq_float32": const_case(lambda f: f.fftfreq(5, 0.5, dtype="float32")),
    "fftfreq_int64": const_case(lambda f: f.fftfreq(7, 0.2, dtype=np.int64)),
    "fftfreq_complex128": const_case(lambda f: f.fftfreq(4, dtype=np.complex128)),
    "rfftfreq_float64": const_case(lambda f: f.rfftfreq(6, 0.1, dtype="float64")),
    "fftfreq_float32_d": const_case(lambda f: f.fftfreq(4, np.float32(0.5))),
})

if __name__ == "__main__":
    write_x64(CASES, "jnp_fft_x64_golden.json")
