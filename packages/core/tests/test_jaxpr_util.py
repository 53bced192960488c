"""Dead-code elimination (against JAX 0.10.2's pe.dce_jaxpr goldens) and the jaxpr type checker."""

from __future__ import annotations

import importlib.util
import json
import pathlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax
from jaxle_core.avals import ShapedArray
from jaxle_core.core import ClosedJaxpr, DropVar, Jaxpr, JaxprEqn, Literal, Primitive, Var
from jaxle_core.jaxpr_util import JaxprTypeError, check_jaxpr, dce_jaxpr
from jaxle_core.jit import jit_p, jit_params
from jaxle_core.lax.elementwise import add_p, sin_p

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
GOLDEN = json.loads((GOLDEN_DIR / "jaxpr_text_golden.json").read_text())["cases"]
F32 = ShapedArray((), np.float32)
I32 = ShapedArray((), np.int32)


def _load_cases():
    spec = importlib.util.spec_from_file_location("jaxpr_text_cases_util", GOLDEN_DIR / "jaxpr_text_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES_MODULE = _load_cases()

# ---------------------------------------------------------------- dce_jaxpr


@pytest.mark.parametrize("name, build, args, used_outputs, instantiate", CASES_MODULE.DCE_CASES,
                         ids=[c[0] for c in CASES_MODULE.DCE_CASES])
def test_dce_matches_jax(name, build, args, used_outputs, instantiate):
    closed = jaxle_core.make_jaxpr(build(lax, jaxle_core.jit))(*args())
    pruned, used_inputs = dce_jaxpr(closed.jaxpr, used_outputs, instantiate)
    assert str(pruned) == GOLDEN[name]["text"]
    assert used_inputs == GOLDEN[name]["used_inputs"]
    check_jaxpr(pruned)


def test_dce_defaults_to_all_outputs_used():
    closed = jaxle_core.make_jaxpr(lambda x: (lax.cos(x), lax.sin(x))[1])(np.float32(1))
    pruned, used_inputs = dce_jaxpr(closed.jaxpr)
    assert str(pruned) == "{ lambda ; a:f32[]. let b:f32[] = sin a in (b,) }"
    assert used_inputs == [True]


def test_dce_keeps_effectful_equations():
    effect_p = Primitive("debug_effect")
    effect_p.effectful = True
    effect_p.multiple_results = True
    effect_p.def_abstract_eval(lambda *avals: [])
    x, y = Var(F32), Var(F32)
    jaxpr = Jaxpr([], [x], [y], [JaxprEqn([x], [], effect_p, {}), JaxprEqn([x], [y], sin_p, {})])
    pruned, used_inputs = dce_jaxpr(jaxpr, [False])
    assert [e.primitive.name for e in pruned.eqns] == ["debug_effect"]
    assert used_inputs == [True] and pruned.outvars == []


def test_dce_rejects_wrong_number_of_flags():
    closed = jaxle_core.make_jaxpr(lambda x: x)(np.float32(1))
    with pytest.raises(ValueError, match="used_outputs"):
        dce_jaxpr(closed.jaxpr, [True, False])


# ---------------------------------------------------------------- check_jaxpr


@pytest.mark.parametrize("name, build, args", CASES_MODULE.CASES, ids=[c[0] for c in CASES_MODULE.CASES])
def test_traced_jaxprs_type_check(name, build, args):
    check_jaxpr(jaxle_core.make_jaxpr(build(lax, jaxle_core.jit))(*args()))


def test_undefined_variable_names_the_equation():
    # JAX 0.10.2: "Variable 'b' not defined\n\nin equation:\n\na:f32[] = sin b\n\n..."
    x, y = Var(F32), Var(F32)
    jaxpr = Jaxpr([], [x], [x], [JaxprEqn([y], [x], sin_p, {})])
    with pytest.raises(JaxprTypeError) as info:
        check_jaxpr(jaxpr)
    assert str(info.value).startswith("Variable 'b' not defined\n\nin equation:\n\na:f32[] = sin b\n\n")
    assert str(info.value).endswith("{ lambda ; a:f32[]. let a:f32[] = sin b in (a,) }")
    assert isinstance(info.value, TypeError)


def test_rebinding_is_an_error():
    x = Var(F32)
    with pytest.raises(JaxprTypeError, match="Variable 'a' already bound\n\nin equation:\n\na:f32\\[\\] = sin a"):
        check_jaxpr(Jaxpr([], [x], [x], [JaxprEqn([x], [x], sin_p, {})]))


def test_binder_type_must_match_abstract_eval():
    x, w = Var(F32), Var(I32)
    with pytest.raises(JaxprTypeError, match="Value for variable 'b' inconsistently typed as f32\\[\\] for "
                                             "let-binder of type i32\\[\\]\n\nin equation:\n\nb:i32\\[\\] = sin a"):
        check_jaxpr(Jaxpr([], [x], [w], [JaxprEqn([x], [w], sin_p, {})]))


def test_undefined_output():
    x, y = Var(F32), Var(F32)
    with pytest.raises(JaxprTypeError, match="^Variable 'b' not defined\n\nwhile checking jaxpr:"):
        check_jaxpr(Jaxpr([], [x], [y], []))


def test_primitive_rejecting_operands():
    x, w, out = Var(F32), Var(I32), Var(F32)
    jaxpr = Jaxpr([], [x, w], [out], [JaxprEqn([x, w], [out], add_p, {})])
    with pytest.raises(JaxprTypeError, match="add rejects its operands"):
        check_jaxpr(jaxpr)


def test_literals_and_dropvars_are_fine():
    x, y = Var(F32), Var(F32)
    jaxpr = Jaxpr([], [x], [y], [JaxprEqn([x], [DropVar(F32)], sin_p, {}),
                                 JaxprEqn([x, Literal(2.0, ShapedArray((), np.float32, True))], [y], add_p, {})])
    check_jaxpr(jaxpr)


def test_dropvar_cannot_be_read():
    x, d, y = Var(F32), DropVar(F32), Var(F32)
    with pytest.raises(JaxprTypeError, match="not defined"):
        check_jaxpr(Jaxpr([], [x], [y], [JaxprEqn([x], [d], sin_p, {}), JaxprEqn([d], [y], sin_p, {})]))


def _jit_eqn(inner: Jaxpr, invars, outvars) -> JaxprEqn:
    return JaxprEqn(invars, outvars, jit_p, jit_params(ClosedJaxpr(inner, []), "f"))


def test_jit_operand_types_must_match_inner_jaxpr():
    a, b = Var(F32), Var(F32)
    inner = Jaxpr([], [a], [b], [JaxprEqn([a], [b], sin_p, {})])
    x, out = Var(I32), Var(F32)
    with pytest.raises(JaxprTypeError, match="passes operand 0 of type i32\\[\\] to jaxpr expecting type f32"):
        check_jaxpr(Jaxpr([], [x], [out], [_jit_eqn(inner, [x], [out])]))


def test_ill_typed_inner_jaxpr_is_reported():
    a, b, c = Var(F32), Var(F32), Var(F32)
    inner = Jaxpr([], [a], [b], [JaxprEqn([c], [b], sin_p, {})])
    x, out = Var(F32), Var(F32)
    with pytest.raises(JaxprTypeError, match="In a jaxpr in the params of jit: Variable 'c' not defined"):
        check_jaxpr(Jaxpr([], [x], [out], [_jit_eqn(inner, [x], [out])]))
