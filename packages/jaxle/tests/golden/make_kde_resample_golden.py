"""Write kde_resample_golden.json: JAX 0.10.2's ``gaussian_kde.resample`` draws (float32 bits as integers) and
jaxprs for a few keys, shapes and weights.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_kde_resample_golden.py jax
"""

import importlib
import json
import pathlib
import sys

import numpy as np

DATA = [[0.0, 1.0, 2.0, 5.0], [1.0, 0.0, 3.0, 2.0]]
WEIGHTS = [1.0, 2.0, 3.0, 4.0]
# (seed, shape, weighted, one-dimensional)
CASES = [(0, [3], True, False), (7, [2, 2], True, False), (1, [], False, True), (3, [5], False, False)]


def draws(module) -> dict[str, list]:
    """Each case's draws as the integers of their float32 bits, and its jaxpr (of the estimate and the key)."""
    results = {"draws": [], "jaxprs": []}
    for seed, shape, weighted, one_d in CASES:
        data = np.array(DATA[0] if one_d else DATA, np.float32)
        weights = np.array(WEIGHTS, np.float32) if weighted else None
        kde = module.scipy.stats.gaussian_kde(data, weights=weights)
        sample = np.asarray(kde.resample(module.random.PRNGKey(seed), tuple(shape)), np.float32)
        results["draws"].append(sample.reshape(-1).view(np.uint32).tolist())
        staged = module.make_jaxpr(lambda k, key, shape=tuple(shape): k.resample(key, shape))
        results["jaxprs"].append(str(staged(kde, module.random.key(seed))))
    return results


if __name__ == "__main__":
    jax = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.scipy.stats")
    path = pathlib.Path(__file__).parent / "kde_resample_golden.json"
    path.write_text(json.dumps(draws(jax)) + "\n")
    print(f"{len(CASES)} cases -> {path}")
