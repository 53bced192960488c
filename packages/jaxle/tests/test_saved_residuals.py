"""``jax.ad_checkpoint.print_saved_residuals`` against JAX 0.10.2's report (golden/saved_residuals_golden.json:
arguments, outputs of primitives and jitted functions, named values, under checkpoint policies, with the source
line and column of each), and ``jax.extend.source_info_util``."""

import json
import pathlib
import sys

import pytest

import jaxle as jax
from jaxle.extend import source_info_util
from jaxle_core import staging

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN_DIR))

import make_saved_residuals_golden  # noqa: E402 - found through the path set just above
import saved_residuals_examples  # noqa: E402

GOLDEN = json.loads((GOLDEN_DIR / "saved_residuals_golden.json").read_text())


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_report_matches_jax(case):
    assert make_saved_residuals_golden.printed(jax, case) == GOLDEN[case]


def test_locations_are_recorded_only_while_asked():
    fun, args = saved_residuals_examples.cases(jax)["elementwise"]
    jax.ad_checkpoint.print_saved_residuals(fun, *args)
    assert staging.new_equation_list is list  # ordinary tracing is back to plain equation lists


def test_source_info_names_the_callers_line():
    here = source_info_util.current()
    assert here.file == __file__ and here.function == "test_source_info_names_the_callers_line"
    assert source_info_util.summarize(here) == f"{__file__}:{here.line}:{here.column} ({here.function})"
    assert source_info_util.summarize(source_info_util.new_source_info()) == ""


def test_registered_exclusions_are_skipped(tmp_path):
    helper = tmp_path / "library_helper.py"
    helper.write_text("def where(source_info_util):\n    return source_info_util.current()\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import library_helper

        assert library_helper.where(source_info_util).file == str(helper)
        source_info_util.register_exclusion(str(tmp_path))
        assert library_helper.where(source_info_util).file == __file__
    finally:
        sys.path.remove(str(tmp_path))
