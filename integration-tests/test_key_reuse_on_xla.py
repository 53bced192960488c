"""``jax_debug_key_reuse`` on the XLA backend: every case of the key-reuse golden
(packages/random/tests/golden/make_key_reuse_golden.py) has JAX 0.10.2's outcome, and a jitted function whose calls
jaxlib's C++ dispatch already runs is checked once the flag is on."""

import json

import make_key_reuse_golden as golden  # on the path set by conftest.py
import pytest

import jaxle_core as jc
import jaxle_random as random
import jaxle_xla  # noqa: F401 - XLA becomes the default backend
from jaxle_core.errors import KeyReuseError
from jaxle_xla.dispatch_testing import counting_misses, cpp_dispatch

GOLDEN = json.loads(golden.GOLDEN.read_text())
NS = golden.namespace("jaxle")


@pytest.mark.parametrize("name", sorted(golden.CASES))
def test_key_reuse_golden_on_xla(name):
    assert golden.run_case(NS, name) == GOLDEN[name]


def test_calls_cached_in_cpp_are_checked_once_the_flag_is_on():
    with cpp_dispatch():
        draw = jc.jit(lambda k: random.normal(k))
        key = random.key(0)
        misses = counting_misses(draw)
        draw(key), draw(key), draw(key)  # flag off: reuse is allowed, and the cached calls run in C++
        assert misses == [1]
        with jc.config.debug_key_reuse(True):
            fresh = random.key(1)
            draw(fresh)
            with pytest.raises(KeyReuseError, match="Previously-consumed key passed to jit-compiled function"):
                draw(fresh)
