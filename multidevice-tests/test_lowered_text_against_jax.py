"""Lowered text on eight CPU devices is JAX 0.10.2's, word for word (golden/make_lowered_text_golden.py): mesh
declarations, result names, argument and result shardings."""

import make_lowered_text_golden  # the conftest puts the golden generators on the path
import pytest

import jaxle as jax

GOLDEN = make_lowered_text_golden.load()


def test_every_case_has_a_golden_record():
    assert GOLDEN.keys() == make_lowered_text_golden.CASES.keys()


@pytest.mark.parametrize("name", make_lowered_text_golden.CASES)
def test_lowered_text_is_jax(name):
    assert make_lowered_text_golden.CASES[name](jax).as_text() == GOLDEN[name]
