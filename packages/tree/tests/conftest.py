"""Every tree test runs on both paths: pure Python, and jaxlib's C++ registry where jaxlib is installed."""

import pytest

from jaxle_tree import accelerator


@pytest.fixture(autouse=True, scope="module", params=["pure", "jaxlib"] if accelerator.mirror is not None else ["pure"])
def tree_path(request):
    """The path under test; module-scoped so that hypothesis tests can use it."""
    accelerator.use_jaxlib(request.param == "jaxlib")
    yield request.param
    accelerator.use_jaxlib(accelerator.mirror is not None)
