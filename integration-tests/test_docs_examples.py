"""Every ```python example in docs/ runs: the blocks of one page in order, sharing one namespace."""

import pathlib
import re

import pytest

DOCS = pathlib.Path(__file__).parents[1] / "docs"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
PAGES = sorted(p.name for p in DOCS.glob("*.md") if _BLOCK.search(p.read_text()))


def test_the_docs_have_examples():
    assert {"autodiff.md", "control-flow.md", "core.md", "random.md", "tree.md", "vmap.md", "xla.md"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_examples_run(page):
    namespace: dict = {"__name__": f"docs_{page}"}
    for number, block in enumerate(_BLOCK.findall((DOCS / page).read_text())):
        exec(compile(block, f"docs/{page} example {number + 1}", "exec"), namespace)
