"""Every ```python example in docs/ (subfolders included) runs: the blocks of one page in order, sharing one
namespace (pages about several devices in a process of their own with eight CPU devices); and every page is in the
user guide's navigation (mkdocs.yml)."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parents[1]
DOCS = ROOT / "docs"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
_NAV_PAGE = re.compile(r"^\s*- (?:[^:\n]+: )?(\S+\.md)\s*$", re.M)
ALL_PAGES = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
PAGES = [page for page in ALL_PAGES if _BLOCK.search((DOCS / page).read_text())]


def test_the_docs_have_examples():
    guide = {"quickstart.md", "sharp-bits.md", "jit.md", "installation.md", "index.md"}
    design = {"autodiff.md", "control-flow.md", "core.md", "random.md", "tree.md", "vmap.md", "xla.md"}
    assert guide | design <= set(PAGES)


def test_every_page_is_in_the_navigation():
    nav = _NAV_PAGE.findall((ROOT / "mkdocs.yml").read_text())
    assert sorted(nav) == sorted(set(nav)), "a page is listed twice in mkdocs.yml"
    assert set(nav) == set(ALL_PAGES)


# Pages whose examples need eight CPU devices: run in a fresh process started with them (this one has one).
EIGHT_DEVICE_PAGES = {"parallel.md"}


def _run_examples(page: str) -> None:
    namespace: dict = {"__name__": f"docs_{page}"}
    for number, block in enumerate(_BLOCK.findall((DOCS / page).read_text())):
        exec(compile(block, f"docs/{page} example {number + 1}", "exec"), namespace)


@pytest.mark.parametrize("page", PAGES)
def test_examples_run(page):
    if page not in EIGHT_DEVICE_PAGES:
        _run_examples(page)
        return
    environment = dict(os.environ, JAX_NUM_CPU_DEVICES="8", PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", f"import test_docs_examples as t; t._run_examples({page!r})"],
                          cwd=pathlib.Path(__file__).parent, env=environment, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
