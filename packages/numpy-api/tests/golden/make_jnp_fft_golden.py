"""Golden records of ``jnp.fft``: jaxprs, values, weak types and errors of every transform over dtypes, shapes,
``n``/``s`` (cropping and padding), axes (moved to the minor end, more than three split), norms, and of the
frequency and shift helpers.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_fft_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

F32 = rand((2, 3, 4), "float32", 1)
C64 = rand((2, 3, 4), "complex64", 2)
VEC = rand((5,), "float32", 3)
CVEC = rand((6,), "complex64", 4)
INT = rand((3, 4), "int32", 5)
BOOL = rand((4,), "bool", 6)
F16 = rand((2, 4), "float16", 7)
BF16 = rand((2, 4), "bfloat16", 8)
UINT = rand((6,), "uint8", 9)
F5D = rand((1, 2, 1, 3, 2), "float32", 10)
C4D = rand((2, 1, 3, 2), "complex64", 11)


def fft_case(name, x, **kwargs):
    """``jnp.fft.<name>(x, **kwargs)`` with ``x`` traced."""
    return lambda m: (lambda a: getattr(m.numpy.fft, name)(a, **kwargs), [x])


def const_case(fn):
    """``fn(jnp.fft)`` with nothing traced."""
    return lambda m: (lambda: fn(m.numpy.fft), [])


CASES = {}
ONE_D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_D = ("fftn", "ifftn", "rfftn", "irfftn")
TWO_D = ("fft2", "ifft2", "rfft2", "irfft2")
REAL_IN = ("rfft", "ihfft", "rfftn", "rfft2")

for name in ONE_D:
    CASES[f"{name}_f32"] = fft_case(name, F32)
    CASES[f"{name}_vec"] = fft_case(name, VEC)
    CASES[f"{name}_axis0"] = fft_case(name, F32, axis=0)
    CASES[f"{name}_axis1_pad_ortho"] = fft_case(name, F32, n=7, axis=1, norm="ortho")
    CASES[f"{name}_crop_forward"] = fft_case(name, F32, n=2, norm="forward")
    CASES[f"{name}_same_n_backward"] = fft_case(name, VEC, n=5, norm="backward")
    CASES[f"{name}_int"] = fft_case(name, INT)
    CASES[f"{name}_bool"] = fft_case(name, BOOL)
    CASES[f"{name}_uint8"] = fft_case(name, UINT, n=4)
    CASES[f"{name}_float16"] = fft_case(name, F16)
    CASES[f"{name}_bfloat16"] = fft_case(name, BF16, axis=0)
    CASES[f"{name}_complex"] = fft_case(name, C64, axis=-2, norm="ortho")
    CASES[f"{name}_cvec_forward"] = fft_case(name, CVEC, norm="forward")
    CASES[f"{name}_weak_scalar_error"] = fft_case(name, 1.5)
    CASES[f"{name}_list_error"] = const_case(lambda f, name=name: getattr(f, name)([1.0, 2.0]))
    CASES[f"{name}_bad_norm"] = fft_case(name, VEC, norm="Ortho")
    CASES[f"{name}_n_zero"] = fft_case(name, VEC, n=0)
    CASES[f"{name}_axis_out_of_bounds"] = fft_case(name, F32, axis=3)
    CASES[f"{name}_multiple_axes"] = fft_case(name, F32, axis=(0, 1))
    CASES[f"{name}_axis_none"] = fft_case(name, F32, axis=None)
    CASES[f"{name}_empty"] = fft_case(name, np.zeros((2, 0), np.float32))
    CASES[f"{name}_one_point"] = fft_case(name, np.ones((3, 1), np.float32))

for name in N_D:
    CASES[f"{name}_all"] = fft_case(name, F32)
    CASES[f"{name}_axes_02"] = fft_case(name, F32, axes=(0, 2))
    CASES[f"{name}_axes_20_ortho"] = fft_case(name, F32, axes=(2, 0), norm="ortho")
    CASES[f"{name}_s_only"] = fft_case(name, F32, s=(2, 5))
    CASES[f"{name}_s_axes_forward"] = fft_case(name, F32, s=(3, 3), axes=(0, 1), norm="forward")
    CASES[f"{name}_negative_axes"] = fft_case(name, C64, axes=(-1, -3))
    CASES[f"{name}_empty_axes"] = fft_case(name, F32, axes=())
    CASES[f"{name}_scalar"] = fft_case(name, np.float32(2.5))
    CASES[f"{name}_five_axes"] = fft_case(name, F5D)
    CASES[f"{name}_four_axes_ortho"] = fft_case(name, F5D, axes=(3, 0, 4, 1), norm="ortho")
    CASES[f"{name}_four_axes_s"] = fft_case(name, C4D, s=(1, 2, 2, 3))
    CASES[f"{name}_repeated_axes"] = fft_case(name, F32, axes=(0, 0))
    CASES[f"{name}_repeated_canonical_axes"] = fft_case(name, F32, axes=(0, -3))
    CASES[f"{name}_shape_axes_mismatch"] = fft_case(name, F32, s=(3,), axes=(0, 1))
    CASES[f"{name}_shape_not_positive"] = fft_case(name, F32, s=(0, 2))
    CASES[f"{name}_axes_int"] = fft_case(name, F32, axes=1)
    CASES[f"{name}_s_int"] = fft_case(name, F32, s=3)
    CASES[f"{name}_axis_out_of_bounds"] = fft_case(name, F32, axes=(0, 5))
    CASES[f"{name}_bad_norm"] = fft_case(name, F32, norm="x")
    CASES[f"{name}_int"] = fft_case(name, INT, axes=(1,))

for name in TWO_D:
    CASES[f"{name}_default"] = fft_case(name, F32)
    CASES[f"{name}_axes_s_ortho"] = fft_case(name, C64, s=(4, 2), axes=(2, 0), norm="ortho")
    CASES[f"{name}_one_d_error"] = fft_case(name, VEC)
    CASES[f"{name}_three_axes_error"] = fft_case(name, F32, axes=(0, 1, 2))
    CASES[f"{name}_shape_mismatch"] = fft_case(name, F32, s=(2, 2, 2))

for name in REAL_IN:
    CASES[f"{name}_complex_error"] = fft_case(name, CVEC)

CASES.update({
    "fft_string_error": const_case(lambda f: f.fft("abc")),
    "fft_numpy_int_n": fft_case("fft", VEC, n=np.int64(3)),
    "fft_float_n_error": fft_case("fft", VEC, n=4.0),
    "fft_float_axis_error": fft_case("fft", VEC, axis=0.0),
    "fft_norm_error_after_axis": fft_case("fft", VEC, axis=4, norm="x"),
    "fft_shape_error_before_axis": fft_case("fft", VEC, n=0, axis=4),
    "fftn_s_longer_than_ndim": fft_case("fftn", VEC, s=(2, 3)),
    "fftn_python_scalar": const_case(lambda f: f.fftn(2.0)),
    "fftn_six_axes": fft_case("fftn", rand((1, 2, 1, 2, 1, 2), "float32", 12)),
    "irfftn_seven_axes": fft_case("irfftn", rand((1, 1, 2, 1, 2, 1, 2), "complex64", 13)),
    "rfftn_seven_axes_forward": fft_case("rfftn", rand((1, 1, 2, 1, 2, 1, 3), "float32", 14), norm="forward"),
    "irfftn_empty_last": fft_case("irfftn", np.zeros((2, 0), np.complex64)),
    "hfft_forward": fft_case("hfft", CVEC, n=5, norm="forward"),
    "ihfft_ortho_n": fft_case("ihfft", F32, n=6, axis=0, norm="ortho"),
    "fft_of_weak_array": lambda m: (lambda a: m.numpy.fft.fft(a * 1.0), [VEC]),
    "fft_under_jit": lambda m: (m.jit(lambda a: m.numpy.fft.rfft(a, n=6, axis=0, norm="ortho")), [F32]),
    "fft_under_vmap": lambda m: (m.vmap(lambda a: m.numpy.fft.fft(a, n=3), in_axes=1), [F32]),
    "fftn_under_vmap": lambda m: (m.vmap(lambda a: m.numpy.fft.fftn(a, axes=(0, 1)), in_axes=2), [C64]),
    "irfft_under_vmap": lambda m: (m.vmap(lambda a: m.numpy.fft.irfft(a, axis=0), in_axes=1), [C64]),
    "grad_of_rfft": lambda m: (m.grad(lambda a: abs(m.numpy.fft.rfft(a, norm="ortho")).sum()), [VEC]),
    "grad_of_irfft": lambda m: (m.grad(lambda a: (m.numpy.fft.irfft(a, n=7) ** 2).sum()), [VEC]),
    "grad_of_fftn": lambda m: (m.grad(lambda a: m.numpy.fft.fftn(a, s=(3, 2), axes=(1, 0)).real.sum()), [F32]),
    # fftfreq / rfftfreq
    "fftfreq_even": const_case(lambda f: f.fftfreq(4)),
    "fftfreq_odd_d": const_case(lambda f: f.fftfreq(5, 0.1)),
    "fftfreq_one": const_case(lambda f: f.fftfreq(1)),
    "fftfreq_zero": const_case(lambda f: f.fftfreq(0)),
    "fftfreq_negative": const_case(lambda f: f.fftfreq(-2)),
    "fftfreq_int_d": const_case(lambda f: f.fftfreq(5, 3)),
    "fftfreq_float_n": const_case(lambda f: f.fftfreq(4.0)),
    "fftfreq_numpy_n": const_case(lambda f: f.fftfreq(np.int32(6), 2.0)),
    "fftfreq_float16": const_case(lambda f: f.fftfreq(5, dtype=np.float16)),
    "fftfreq_bfloat16": const_case(lambda f: f.fftfreq(6, 0.5, dtype="bfloat16")),
    "fftfreq_int32": const_case(lambda f: f.fftfreq(5, 0.1, dtype=np.int32)),
    "fftfreq_complex64": const_case(lambda f: f.fftfreq(5, dtype=np.complex64)),
    "fftfreq_bool": const_case(lambda f: f.fftfreq(4, dtype=np.bool_)),
    "fftfreq_traced_d": lambda m: (lambda d: m.numpy.fft.fftfreq(5, d), [np.float32(0.5)]),
    "fftfreq_traced_weak_d": lambda m: (lambda d: m.numpy.fft.fftfreq(6, d), [0.25]),
    "fftfreq_array_d": const_case(lambda f: f.fftfreq(4, d=np.array([1.0, 2.0, 4.0, 8.0], np.float32))),
    "fftfreq_mismatched_d": const_case(lambda f: f.fftfreq(4, d=np.array([1.0, 2.0], np.float32))),
    "fftfreq_list_d": const_case(lambda f: f.fftfreq(4, d=[2])),
    "fftfreq_complex_d": const_case(lambda f: f.fftfreq(4, d=1j)),
    "fftfreq_traced_n": lambda m: (m.jit(m.numpy.fft.fftfreq), [4]),
    "rfftfreq_even": const_case(lambda f: f.rfftfreq(8)),
    "rfftfreq_odd_d": const_case(lambda f: f.rfftfreq(7, 0.25)),
    "rfftfreq_zero": const_case(lambda f: f.rfftfreq(0)),
    "rfftfreq_int32": const_case(lambda f: f.rfftfreq(5, dtype=np.int32)),
    "rfftfreq_float16": const_case(lambda f: f.rfftfreq(5, 2, dtype=np.float16)),
    "rfftfreq_traced_weak_d": lambda m: (lambda d: m.numpy.fft.rfftfreq(6, d), [0.5]),
    "rfftfreq_list_d": const_case(lambda f: f.rfftfreq(4, d=(1.0,))),
    # fftshift / ifftshift
    "fftshift_all": fft_case("fftshift", F32),
    "ifftshift_all": fft_case("ifftshift", F32),
    "fftshift_odd": fft_case("fftshift", VEC),
    "ifftshift_odd": fft_case("ifftshift", VEC),
    "fftshift_axis_int": fft_case("fftshift", F32, axes=0),
    "ifftshift_axes_tuple": fft_case("ifftshift", F32, axes=(2, 0)),
    "fftshift_negative_axis": fft_case("fftshift", INT, axes=-1),
    "fftshift_repeated_axes": fft_case("fftshift", F32, axes=(0, 0)),
    "fftshift_scalar": fft_case("fftshift", np.float32(1.0)),
    "fftshift_weak_scalar": fft_case("fftshift", 1.0),
    "ifftshift_bool": fft_case("ifftshift", BOOL),
    "fftshift_complex": fft_case("fftshift", CVEC),
    "fftshift_list_error": const_case(lambda f: f.fftshift([1, 2, 3])),
    "ifftshift_none_error": const_case(lambda f: f.ifftshift(None)),
    "fftshift_axis_out_of_range": fft_case("fftshift", F32, axes=5),
    "fftshift_empty": fft_case("fftshift", np.zeros((0, 3), np.float32)),
})

if __name__ == "__main__":
    jnp_golden.write(CASES, "jnp_fft_golden.json")
