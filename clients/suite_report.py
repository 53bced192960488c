"""Compare a library's test-suite run on jaxle with its run on JAX 0.10.2 (both read from pytest's JUnit XML).

    python clients/suite_report.py baseline LIBRARY RESULTS.xml [RESULTS.xml ...]
        # runs on JAX (the whole suite, possibly file by file): write clients/LIBRARY.json
    python clients/suite_report.py update LIBRARY RESULTS.xml [RESULTS.xml ...]
        # runs on JAX of some of the suite's files: their tests' outcomes replace or join those in LIBRARY.json
    python clients/suite_report.py compare LIBRARY RESULTS.xml [LIBRARY RESULTS.xml ...]
        # runs on jaxle: print each library's counts beside JAX's; exit 1 when a test that passes on JAX does not pass

The baseline (committed) holds every test's outcome on JAX; ``compare`` restricts it to the tests the run
collected (the fast subset, or the whole suite), so the counts printed are of the same tests.
"""

from __future__ import annotations

import json
import pathlib
import sys
import xml.etree.ElementTree as ElementTree

HERE = pathlib.Path(__file__).parent


def outcomes(*junit_xml: str) -> dict[str, str]:
    """Test id -> "passed", "failed" or "skipped" (a test with any failing subtest counts as failed)."""
    result: dict[str, str] = {}
    cases = [case for path in junit_xml for case in ElementTree.parse(path).getroot().iter("testcase")]
    for case in cases:
        test_id = f"{case.get('classname')}::{case.get('name')}"
        if case.find("failure") is not None or case.find("error") is not None:
            outcome = "failed"
        elif case.find("skipped") is not None:
            outcome = "skipped"
        else:
            outcome = "passed"
        if result.get(test_id) != "failed":
            result[test_id] = outcome if result.get(test_id) in (None, "skipped", outcome) else "failed"
    return result


def counts(results: dict[str, str]) -> dict[str, int]:
    return {kind: sum(1 for r in results.values() if r == kind) for kind in ("passed", "failed", "skipped")}


def write_baseline(library: str, *junit_xml: str, update: bool = False) -> None:
    path = HERE / f"{library}.json"
    results = json.loads(path.read_text())["outcomes"] if update else {}
    results.update(outcomes(*junit_xml))
    path.write_text(json.dumps({"counts": counts(results), "outcomes": dict(sorted(results.items()))}, indent=0)
                    + "\n")
    print(f"{library} on JAX 0.10.2: {counts(results)} -> {path}")


def compare(library: str, junit_xml: str) -> int:
    baseline = json.loads((HERE / f"{library}.json").read_text())["outcomes"]
    ours = outcomes(junit_xml)
    on_jax = {test: baseline[test] for test in ours if test in baseline}
    # A test JAX passes must pass here too: a skip on jaxle would hide the gap as much as a failure.
    regressions = sorted(t for t, r in ours.items() if r != "passed" and on_jax.get(t) == "passed")
    unknown = sorted(t for t in ours if t not in baseline)
    jax_counts, our_counts = counts(on_jax), counts(ours)
    print(f"\n{library}: {len(ours)} tests run")
    print(f"  {'':8}{'passed':>8}{'failed':>8}{'skipped':>9}")
    print(f"  {'JAX':8}{jax_counts['passed']:>8}{jax_counts['failed']:>8}{jax_counts['skipped']:>9}")
    print(f"  {'jaxle':8}{our_counts['passed']:>8}{our_counts['failed']:>8}{our_counts['skipped']:>9}")
    for test in unknown:
        print(f"  not in the JAX baseline ({ours[test]} on jaxle): {test}")
    for test in regressions:
        print(f"  passes on JAX, {ours[test]} on jaxle: {test}")
    # A module that fails to import on jaxle is one failed test unknown to the baseline.
    return 1 if regressions or any(ours[test] == "failed" for test in unknown) else 0


if __name__ == "__main__":
    mode, runs = sys.argv[1], sys.argv[2:]
    if mode in ("baseline", "update"):
        write_baseline(*runs, update=mode == "update")
    else:
        sys.exit(max(compare(library, xml) for library, xml in zip(runs[::2], runs[1::2])))
