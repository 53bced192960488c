"""The benchmarked jitted programs give XLA what JAX 0.10.2 gives it: jaxle's StableHLO and JAX's
(golden/benchmark_hlo_golden.json), both compiled here by jaxle's CPU client, optimise to the same HLO
computations, up to names and metadata."""

import collections
import hashlib
import json
import pathlib
import re
import sys

import pytest

import jaxle
import jaxle.nn  # noqa: F401 - the cases reach them as attributes of jaxle
import jaxle.numpy  # noqa: F401
import jaxle.random  # noqa: F401
import jaxle.scipy.special  # noqa: F401
from jaxle_xla import _jaxlib, clients

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_benchmark_hlo_golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "benchmark_hlo_golden.json").read_text())

_REFERENCES = re.compile(
    r"\b(calls|to_apply|condition|body|branch_computations|called_computations)=(\{[^}]*\}|%[\w.\-]+)")
_INSTRUCTION = re.compile(r"^\s*(ROOT )?(%[\w.\-]+) = (.*)$")


def _computations(hlo: str) -> tuple[str, list[str]]:
    """The module's attributes (entry layout, aliasing, ...; not its name) and its computations in a canonical
    form: metadata and frontend attributes left out (backend configs kept: they hold a custom call's attributes,
    such as LAPACK's ``uplo``), called computations all named ``%computation``, the parameters' names dropped, and
    each instruction written with its operands replaced by digests of what computes them, in sorted order (so that
    neither names nor the schedule's order of independent instructions count)."""
    # quoted attribute values may hold braces (a custom call's sharding rule: "... {i=256, j=256} ...")
    hlo = re.sub(r',? ?(metadata|frontend_attributes)=\{(?:[^{}"]|"[^"]*")*\}', "", hlo)
    hlo = _REFERENCES.sub(r"\1=%computation", hlo)
    attributes = re.sub(r"^HloModule \S+", "", hlo.split("\n", 1)[0])
    blocks = re.findall(r"^((?:ENTRY )?%[^\n]*\{\n(?:[^\n]*\n)*?\})", hlo, re.MULTILINE)
    return attributes, [_canonical(block) for block in blocks]


def _canonical(block: str) -> str:
    header, *lines = block.splitlines()[:-1]
    header = ("ENTRY " if header.startswith("ENTRY") else "") + re.sub(r"^.*?(?=\()", "", header)
    header = re.sub(r"(?<=[(,] )[\w.\-]+: |(?<=\()[\w.\-]+: ", "", header)
    digests: dict[str, str] = {}
    written, root = [], None
    for line in lines:  # operands come before their users
        is_root, name, rest = _INSTRUCTION.match(line).groups()
        rest = re.sub(r"%(?!computation\b)[\w.\-]+", lambda m: digests[m.group(0)], rest)
        digests[name] = "%" + hashlib.sha256(rest.encode()).hexdigest()[:12]
        written.append(f"{digests[name]} = {rest}")
        root = digests[name] if is_root else root
    return "\n".join([header, *sorted(written), f"ROOT {root}"])


def _optimised(text: str) -> str:
    device = clients.default_device()
    return _jaxlib.hlo_text(_jaxlib.compile(device.client, text, device))


@pytest.mark.parametrize("case", sorted(make_benchmark_hlo_golden.CASES))
def test_optimised_hlo_is_jaxs(case):
    ours_attributes, ours = _computations(_optimised(make_benchmark_hlo_golden.lowered_text(jaxle, case)))
    theirs_attributes, theirs = _computations(_optimised(GOLDEN[case]))
    assert ours_attributes == theirs_attributes
    assert collections.Counter(ours) == collections.Counter(theirs)
