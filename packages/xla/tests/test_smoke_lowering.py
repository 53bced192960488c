import numpy as np
from conftest import check_against_reference

from jaxle_core import lax


def test_sin_times_two_matches_reference():
    x = np.linspace(-3, 3, 7).astype(np.float32)
    check_against_reference(lambda a: lax.sin(a) * 2.0, x)
