"""Printed jaxprs, character for character against JAX 0.10.2 (goldens), and the layout engine."""

from __future__ import annotations

import importlib.util
import json
import pathlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax, pretty
from jaxle_core.avals import ShapedArray
from jaxle_core.core import DropVar, Jaxpr, JaxprEqn, Literal, Primitive, Var
from jaxle_core.lax.elementwise import sin_p

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
GOLDEN = json.loads((GOLDEN_DIR / "jaxpr_text_golden.json").read_text())["cases"]


def _load_cases():
    spec = importlib.util.spec_from_file_location("jaxpr_text_cases", GOLDEN_DIR / "jaxpr_text_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CASES


CASES = _load_cases()


def test_every_case_has_a_golden():
    assert {name for name, _, _ in CASES} <= set(GOLDEN)


@pytest.mark.parametrize("name, build, args", CASES, ids=[name for name, _, _ in CASES])
def test_jaxpr_text_matches_jax(name, build, args):
    closed = jaxle_core.make_jaxpr(build(lax, jaxle_core.jit))(*args())
    assert str(closed) == GOLDEN[name]["text"]
    assert str(closed.jaxpr) == GOLDEN[name]["text"]
    assert [repr(e) for e in closed.jaxpr.eqns] == GOLDEN[name]["eqns"]


# ---------------------------------------------------------------- names


@pytest.mark.parametrize("n, name", [(0, "a"), (25, "z"), (26, "ba"), (27, "bb"), (51, "bz"), (52, "ca"),
                                     (675, "zz"), (676, "baa"), (677, "bab")])
def test_var_name_sequence(n, name):
    assert pretty.var_name(n) == name


def test_names_past_z_and_zz_in_goldens():
    text = GOLDEN["names_past_zz"]["text"]
    assert "    ba:f32[] = neg z\n" in text and "    baa:f32[] = neg zz\n" in text


# ---------------------------------------------------------------- hand-built jaxprs

F32 = ShapedArray((), np.float32)
foo_p = Primitive("foo")
foo_p.multiple_results = True


def fn():
    """A function param: printed with its address masked."""


def test_hand_built_dropvar_params_and_shared_subjaxpr():
    # The same hand-built jaxpr printed by JAX 0.10.2 (via jax._src.core).
    inner = jaxle_core.make_jaxpr(lambda t: lax.cos(t))(np.float32(1.0))
    x, y, z = Var(F32), Var(F32), Var(F32)
    e1 = JaxprEqn([x], [DropVar(F32)], sin_p, {})
    e2 = JaxprEqn([x, Literal(np.float32(2), F32)], [], foo_p,
                  {"s": frozenset({3, 1, 2}), "f": fn, "branches": (inner, inner.jaxpr)})
    e3 = JaxprEqn([x], [y, z], foo_p, {"branches": (inner,), "zz": (1, 2),
                                       "lit": Literal(np.ones(3, np.float32), ShapedArray((3,), np.float32))})
    jaxpr = Jaxpr([], [x], [y], [e1, e2, e3])
    address = "X" * len(hex(id(fn))[2:])
    assert str(jaxpr) == (
        "let jaxpr = { lambda ; a:f32[]. let b:f32[] = cos a in (b,) } in\n"
        "{ lambda ; c:f32[]. let\n"
        "    _:f32[] = sin c\n"
        "    foo[\n"
        "      branches=(jaxpr jaxpr)\n"
        f"      f=<function fn at 0x{address}>\n"
        "      s=frozenset({1, 2, 3})\n"
        "    ] c 2.0:f32[]\n"
        "    d:f32[] _:f32[] = foo[branches=(jaxpr) lit=Literal([1. 1. 1.]) zz=(1, 2)] c\n"
        "  in (d,) }")
    assert repr(e2) == (
        "foo[\n"
        "  branches=(\n"
        "    { lambda ; a:f32[]. let b:f32[] = cos a in (b,) }\n"
        "    { lambda ; a:f32[]. let b:f32[] = cos a in (b,) }\n"
        "  )\n"
        f"  f=<function fn at 0x{address}>\n"
        "  s=frozenset({1, 2, 3})\n"
        "] c 2.0:f32[]")
    assert repr(e1) == "_:f32[] = sin a"
    assert repr(e3) == (
        "a:f32[] b:f32[] = foo[\n"
        "  branches=({ lambda ; c:f32[]. let d:f32[] = cos c in (d,) })\n"
        "  lit=Literal([1. 1. 1.])\n"
        "  zz=(1, 2)\n"
        "] e")


def test_hand_built_thirty_invars_fill_lines_and_empty_body():
    vs = [Var(F32) for _ in range(30)]
    assert str(Jaxpr([], vs, vs[::-1], [])) == (
        "{ lambda ; a:f32[] b:f32[] c:f32[] d:f32[] e:f32[] f:f32[] g:f32[] h:f32[] i:f32[]\n"
        "    j:f32[] k:f32[] l:f32[] m:f32[] n:f32[] o:f32[] p:f32[] q:f32[] r:f32[] s:f32[]\n"
        "    t:f32[] u:f32[] v:f32[] w:f32[] x:f32[] y:f32[] z:f32[] ba:f32[] bb:f32[] bc:f32[]\n"
        "    bd:f32[]. let\n"
        "    \n"
        "  in (bd, bc, bb, ba, z, y, x, w, v, u, t, s, r, q, p, o, n, m, l, k, j, i, h, g,\n"
        "    f, e, d, c, b, a) }")


def test_array_literal_prints_elided():
    lit = Literal(np.ones(3, np.float32), ShapedArray((3,), np.float32))
    assert pretty.literal_text(lit) == "[...]:f32[3]"


def test_names_are_assigned_per_printout():
    closed = jaxle_core.make_jaxpr(lambda x: lax.sin(x))(np.float32(1.0))
    assert str(closed) == str(closed) == "{ lambda ; a:f32[]. let b:f32[] = sin a in (b,) }"


# ---------------------------------------------------------------- layout engine (behaviour observed in JAX 0.10.2)

t, b, g, n, c = pretty.text, pretty.brk, pretty.group, pretty.nest, pretty.concat


@pytest.mark.parametrize("doc, width, expected", [
    # a group only has to fit itself, not the text after it
    (g(c([t("aaaa"), b(), t("bb")])) + t("cc"), 7, "aaaa bbcc"),
    (g(c([t("aaaa"), b(), t("bb")])) + t("cc"), 6, "aaaa\nbbcc"),
    (g(n(2, c([t("aaaa"), b(), t("bb")]))) + t("cc"), 6, "aaaa\n  bbcc"),
    # breaks in their own groups fill lines
    (g(c([t("xxxx"), g(b()), t("yyyy"), g(b()), t("zz")])), 9, "xxxx yyyy\nzz"),
    (g(c([t("xxxx"), g(b()), t("yyyy"), g(b()), t("zz")])), 12, "xxxx yyyy zz"),
    (g(c([t("a"), b(), g(c([t("bb"), b(), t("cc")])), t("dd"), g(c([t("e"), b(), t("f")])), t("gg")])), 9,
     "a\nbb ccdde\nfgg"),
    (g(c([t("a"), b(), g(c([t("bb"), b(), t("cc")])), t("dd"), g(c([t("e"), b(), t("f")])), t("gg")])), 13,
     "a\nbb ccdde fgg"),
    # breaks outside any group always break
    (c([t("p"), g(c([t("aa"), b(), t("bb")])), t("qq"), b(), t("rr")]), 6, "paa bbqq\nrr"),
    (c([t("p"), g(c([t("aa"), b(), t("bb")])), t("qq"), b(), t("rr")]), 5, "paa\nbbqq\nrr"),
    (g(c([t("a"), b(""), t("b"), b("; "), t("c")])), 80, "ab; c"),
])
def test_layout(doc, width, expected):
    assert doc.format(width) == expected
