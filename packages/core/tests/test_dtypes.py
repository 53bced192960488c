"""Dtypes and promotion, checked against golden tables written by JAX 0.10.2 (golden/make_dtype_golden.py)."""

import json
import pathlib
import warnings

import ml_dtypes
import numpy as np
import pytest

from jaxle_core import config as cfg
from jaxle_core import dtypes

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "dtype_golden.json").read_text())
MODES = [(mode, x64) for mode in ("standard", "strict") for x64 in (False, True)]


def np_dtype(name):
    return np.dtype(getattr(ml_dtypes, name, None) or name)


class WeakValue:
    """A weakly typed value, presented the way tracers and arrays present one (an aval with weak_type)."""

    class _Aval:
        weak_type = True

    def __init__(self, dt):
        self.dtype = dt
        self.aval = self._Aval()


def participant(label):
    kind, _, name = label.rpartition(":")
    if label == "none":
        return None
    if kind == "py":
        return {"int": int, "float": float, "complex": complex, "bool": bool}[name]
    if kind == "val":
        return {"1": 1, "1.0": 1.0, "1j": 1j, "True": True}[name]
    if kind == "weak":
        return WeakValue(np_dtype(name))
    if kind == "arr":
        return np.zeros((), np_dtype(name))
    return np_dtype(name)


def outcome(fn, *args):
    """Same encoding as the generator: 'name', 'name*' if weak, '!Error', '~' if it warned."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            res = fn(*args)
            text = (str(res[0]) + ("*" if res[1] else "")) if isinstance(res, tuple) else str(np.dtype(res))
        except Exception as err:
            text = "!" + type(err).__name__
    return text + ("~" if caught else "")


def matches(got, want):
    # JAX 0.10.2 raises a bare KeyError for a weakly typed intn result (no default dtype for kind 'V');
    # we raise TypePromotionError there instead.
    if want.startswith("!KeyError"):
        return got.startswith("!TypePromotionError")
    return got == want


@pytest.fixture
def flags(request):
    mode, x64 = request.param
    with cfg.numpy_dtype_promotion(mode), cfg.enable_x64(x64):
        yield f"{mode}_{'x64' if x64 else 'x32'}"


def mismatches(got_want_pairs):
    bad = [(where, got, want) for where, got, want in got_want_pairs if not matches(got, want)]
    return bad[:20], len(bad)


@pytest.mark.parametrize("flags", MODES, indirect=True)
def test_result_type_every_pair_matches_jax(flags):
    labels = GOLDEN["labels"]
    table = GOLDEN[f"result_type_{flags}"]
    args = [participant(label) for label in labels]

    def result_type(*xs):
        return dtypes.result_type(*xs, return_weak_type_flag=True)

    pairs = ((f"{a}+{b}", outcome(result_type, args[i], args[j]), table[i][j])
             for i, a in enumerate(labels) for j, b in enumerate(labels))
    assert mismatches(pairs) == ([], 0)


@pytest.mark.parametrize("flags", MODES, indirect=True)
def test_result_type_triples_match_jax(flags):
    def result_type(*xs):
        return dtypes.result_type(*xs, return_weak_type_flag=True)

    triples = ((t, outcome(result_type, *map(participant, t)), want)
               for t, want in zip(GOLDEN["triples"], GOLDEN[f"result_type3_{flags}"]))
    assert mismatches(triples) == ([], 0)


@pytest.mark.parametrize("flags", MODES, indirect=True)
def test_promote_types_every_pair_matches_jax(flags):
    labels = GOLDEN["promote_labels"]
    table = GOLDEN[f"promote_types_{flags}"]
    args = [participant(label) for label in labels]
    pairs = ((f"{a}+{b}", outcome(dtypes.promote_types, args[i], args[j]), table[i][j])
             for i, a in enumerate(labels) for j, b in enumerate(labels))
    assert mismatches(pairs) == ([], 0)


@pytest.mark.parametrize("flags", MODES, indirect=True)
def test_canonicalize_dtype_matches_jax(flags):
    got = {n: outcome(dtypes.canonicalize_dtype, np_dtype(n)) for n in GOLDEN["dtypes"]}
    assert got == GOLDEN[f"canonicalize_{flags}"]
    py = {"py:int": int, "py:float": float, "py:complex": complex, "py:bool": bool}
    assert {n: outcome(dtypes.canonicalize_dtype, t) for n, t in py.items()} == GOLDEN[f"canonicalize_py_{flags}"]


def test_short_names_match_jaxpr_printing():
    got = {n: dtypes.short_dtype_name(np_dtype(n)) + "[2]" for n in GOLDEN["dtypes"]}
    assert got == GOLDEN["short_names"]
    assert dtypes.short_dtype_name(dtypes.float0) == "float0"


def test_issubdtype_matches_jax():
    kinds = [getattr(np, k) for k in GOLDEN["issubdtype_kinds"]]
    got = {n: [dtypes.issubdtype(np_dtype(n), k) for k in kinds] for n in GOLDEN["dtypes"]}
    assert got == GOLDEN["issubdtype"]


def test_issubdtype_of_concrete_types():
    assert dtypes.issubdtype(dtypes.bfloat16, ml_dtypes.bfloat16)
    assert not dtypes.issubdtype(dtypes.bfloat16, np.float32)
    assert dtypes.issubdtype(float, float) and not dtypes.issubdtype(np.float32, float)
    assert dtypes.issubdtype(int, np.signedinteger)


def test_float0_is_a_zero_size_void_dtype():
    assert dtypes.float0 == np.dtype([("float0", "V")])
    assert dtypes.float0.itemsize == 0 and dtypes.float0.kind == "V"
    assert dtypes.canonicalize_dtype(dtypes.float0) == dtypes.float0


def test_default_dtypes_follow_x64():
    with cfg.enable_x64(False):
        assert (dtypes.default_int_dtype(), dtypes.default_float_dtype(), dtypes.default_complex_dtype()) == (
            np.int32, np.float32, np.complex64)
    with cfg.enable_x64(True):
        assert (dtypes.default_int_dtype(), dtypes.default_float_dtype(), dtypes.default_complex_dtype()) == (
            np.int64, np.float64, np.complex128)


@pytest.mark.parametrize("x64", [False, True])
def test_dtype_of_values_and_dtype_likes(x64):
    wide = {True: "64", False: "32"}[x64]
    with cfg.enable_x64(x64):
        assert dtypes.dtype(3) == np.dtype("int" + wide)
        assert dtypes.dtype(float) == np.dtype("float" + wide)
        assert dtypes.dtype(1j) == np.dtype({True: "complex128", False: "complex64"}[x64])
        assert dtypes.dtype(True) == np.bool_
        assert dtypes.dtype(np.zeros(2, np.int64)) == np.dtype("int" + wide)  # arrays narrow silently
        assert dtypes.dtype(np.zeros(2, ml_dtypes.bfloat16)) == dtypes.bfloat16
        assert dtypes.dtype("bfloat16") == dtypes.bfloat16
        assert dtypes.dtype(np.zeros(2, np.int64), canonicalize=False) == np.int64


def test_dtype_warns_when_a_64_bit_dtype_is_requested_without_x64():
    with cfg.enable_x64(False):
        with pytest.warns(UserWarning) as record:
            assert dtypes.dtype("int64") == np.int32
        assert str(record[0].message) == (  # JAX 0.10.2's text
            "Explicitly requested dtype int64 requested in dtype is not available, and will be truncated to dtype "
            "int32. To enable more dtypes, set the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell "
            "environment variable. See https://github.com/jax-ml/jax#current-gotchas for more.")
        with cfg.explicit_x64_dtypes("allow"):
            assert dtypes.dtype(np.float64) == np.float64
        with cfg.explicit_x64_dtypes("error"), pytest.raises(ValueError, match="float64"):
            dtypes.dtype(np.float64)


@pytest.mark.parametrize("bad", [[1, 2], "foo", np.dtype("U3"), object, np.zeros(2, object), ">i4"])
def test_dtype_rejects_non_numeric_things_with_type_error(bad):
    with pytest.raises(TypeError):
        dtypes.dtype(bad)


def test_dtype_of_none_is_a_value_error():
    with pytest.raises(ValueError, match="Invalid argument to dtype"):
        dtypes.dtype(None)


def test_weak_typing():
    assert dtypes.is_weakly_typed(1) and dtypes.is_weakly_typed(1.0) and dtypes.is_weakly_typed(1j)
    assert not dtypes.is_weakly_typed(True)
    assert not dtypes.is_weakly_typed(np.float32(1))
    assert dtypes.is_weakly_typed(WeakValue(np.dtype("float32")))

    class AvalLike:
        dtype = np.dtype("int16")
        weak_type = True

    assert dtypes.is_weakly_typed(AvalLike())
    assert dtypes.result_type(AvalLike(), np.int8, return_weak_type_flag=True) == (np.int8, False)


def test_promotion_errors_explain_narrow_types():
    with pytest.raises(dtypes.TypePromotionError, match="8-bit floats do not support implicit promotion"):
        dtypes.promote_types(dtypes.float8_e4m3fn, dtypes.float16)
    with pytest.raises(dtypes.TypePromotionError, match="4-bit integers"):
        dtypes.promote_types(dtypes.int4, dtypes.int8)
    with cfg.numpy_dtype_promotion("strict"), pytest.raises(dtypes.TypePromotionError, match="strict"):
        dtypes.result_type(np.int8, np.int16)
    assert issubclass(dtypes.TypePromotionError, ValueError)


def test_promote_types_error_names_inputs_in_order():
    with pytest.raises(dtypes.TypePromotionError, match=r"\('float16', 'float8_e4m3fn'\)"):
        dtypes.promote_types(dtypes.float16, dtypes.float8_e4m3fn)
    with pytest.raises(dtypes.TypePromotionError, match=r"\('int8', 'int4'\)"):
        dtypes.promote_types(dtypes.int8, dtypes.int4)


def test_dtype_of_a_scalar_type_class_naming_its_dtype():
    """A facade's scalar type (jnp.float32: a class with a ``dtype`` attribute) is a requested dtype like NumPy's."""
    Float64 = type("float64", (), {"dtype": np.dtype(np.float64)})
    with cfg.enable_x64(False), pytest.warns(UserWarning, match="requested in zeros is not available"):
        assert dtypes.dtype(Float64, requested_in="zeros") == np.float32
    with cfg.enable_x64(True):
        assert dtypes.dtype(Float64) == np.float64


def test_result_type_needs_an_argument():
    with pytest.raises(ValueError, match="at least one"):
        dtypes.result_type()


def test_coerce_to_array_uses_jax_scalar_dtypes():
    with cfg.enable_x64(False):
        assert dtypes.coerce_to_array(3).dtype == np.int32
        assert dtypes.coerce_to_array(3.5).dtype == np.float32
        assert dtypes.coerce_to_array(1j).dtype == np.complex64
        assert dtypes.coerce_to_array(True).dtype == np.bool_
        assert dtypes.coerce_to_array(np.float64(1)).dtype == np.float64
        assert dtypes.coerce_to_array(3, np.int8).dtype == np.int8
        with pytest.raises(OverflowError):
            dtypes.coerce_to_array(2**31)
    with cfg.enable_x64(True):
        assert dtypes.coerce_to_array(2**31).dtype == np.int64


def test_inexact_and_complex_counterparts():
    assert dtypes.to_inexact_dtype(np.int64) == np.float64
    assert dtypes.to_inexact_dtype(np.uint8) == np.float32
    assert dtypes.to_inexact_dtype(dtypes.uint4) == np.float32
    assert dtypes.to_inexact_dtype(dtypes.int2) == dtypes.int2
    assert dtypes.to_inexact_dtype(dtypes.bfloat16) == dtypes.bfloat16
    assert dtypes.to_complex_dtype(dtypes.bfloat16) == np.complex64
    assert dtypes.to_complex_dtype(np.int64) == np.complex128
    assert dtypes.is_inexact(dtypes.float8_e5m2) and not dtypes.is_inexact(np.int32)


def test_scalar_type_of():
    assert dtypes.scalar_type_of(np.zeros(2, ml_dtypes.bfloat16)) is float
    assert dtypes.scalar_type_of(np.zeros(2, ml_dtypes.int4)) is int
    assert dtypes.scalar_type_of(True) is bool
    assert dtypes.scalar_type_of(np.complex64(1)) is complex


def test_finfo_iinfo_know_ml_dtypes():
    assert float(dtypes.finfo(dtypes.float8_e4m3fn).max) == 448.0
    assert dtypes.finfo(dtypes.bfloat16).bits == 16
    assert (dtypes.iinfo(dtypes.int4).min, dtypes.iinfo(dtypes.int4).max) == (-8, 7)


def test_itemsize_bits():
    names = ["bool", "int1", "int2", "int4", "uint4", "float4_e2m1fn", "float6_e2m3fn", "bfloat16", "complex128"]
    assert [dtypes.itemsize_bits(np_dtype(n)) for n in names] == [8, 1, 2, 4, 4, 4, 6, 16, 128]


def test_valid_dtypes():
    assert all(dtypes.is_valid_dtype(np_dtype(n)) for n in GOLDEN["dtypes"])
    assert dtypes.is_valid_dtype(dtypes.float0)
    assert not dtypes.is_valid_dtype(np.dtype("U3")) and not dtypes.is_valid_dtype(object)
    assert not dtypes.is_valid_dtype("not a dtype")
    with pytest.raises(TypeError, match="not a valid JAX array type"):
        dtypes.check_valid_dtype(np.dtype("U3"))
