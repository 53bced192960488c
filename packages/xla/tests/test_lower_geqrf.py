"""geqrf on XLA: jaxlib's LAPACK geqrf kernel gives the reference's (SciPy's LAPACK) packed factors bit for bit,
batched and for empty matrices, eagerly and under jit."""

import numpy as np
import pytest
from conftest import check_against_reference

from jaxle_core.lax.householder import geqrf


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 3, 3), (0, 3), (2, 0, 2)])
def test_geqrf_matches_the_reference(dtype, shape):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        x = (x + 1j * rng.standard_normal(shape)).astype(dtype)
    check_against_reference(geqrf, x)
