"""Checkpoint policies answering ``Saveable``, ``Recompute`` or ``Offloadable``, and the offloading policies:
gradients, jaxprs (an offloaded value copied to host memory and back) and errors against JAX 0.10.2 goldens."""

import importlib
import re
import types

import numpy as np
import pytest

import jaxle_core
from jaxle_core.checkpoint import Offloadable, Recompute, Saveable, checkpoint_name, policy_case

GEN = importlib.import_module("make_policy_answers_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("policy_answers")[1]
M = GEN.namespace(jaxle_core, types.SimpleNamespace(checkpoint_name=checkpoint_name, Saveable=Saveable,
                                                   Recompute=Recompute, Offloadable=Offloadable))


def _without_objects(message: str) -> str:
    return re.sub(r"<[\w.]+ object at 0x[0-9a-f]+>", "<object>", message)


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    actual, expected = GEN.run_case(M, name), GOLDEN["cases"][name]
    if "error" in expected or "error" in actual:
        assert actual.get("error") == expected.get("error"), (actual, expected)
        assert _without_objects(actual["message"]) == _without_objects(expected["message"])
        return
    np.testing.assert_allclose(actual["value"], expected["value"], rtol=1e-5)
    assert actual["jaxpr"] == expected["jaxpr"]


def test_intersecting_names_are_refused_as_jax_refuses_them():
    assert GEN.intersecting_names_error(M) == GOLDEN["intersecting"]


def test_offloadable_is_a_named_pair():
    answer = Offloadable("device", "pinned_host")
    assert (answer.src, answer.dst) == ("device", "pinned_host")
    assert repr(answer) == "Offloadable(src='device', dst='pinned_host')"
    assert policy_case(answer) is answer and policy_case(Saveable) is Saveable
    assert policy_case(True) is Saveable and policy_case(False) is Recompute
