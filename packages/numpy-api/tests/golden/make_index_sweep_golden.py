"""Golden records of a random sweep of index forms from JAX 0.10.2 (see jnp_golden.py): each index read
(``x[index]``), updated (``x.at[index].add``), read after a traced integer (``x[(i,) + index]``) and read with
``mode="fill"``.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_index_sweep_golden.py jax

Left out: lists (JAX lists their constants among the constvars where it makes them, jaxle where they are first
used) and ``None`` before a Python boolean (JAX 0.10.2 inserts the boolean's axis in the wrong place).
"""

import jnp_golden
import numpy as np

X = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
ITEMS = [0, -1, 7, np.int32(1), slice(None), slice(1, None), slice(None, None, 2), slice(None, None, -1),
         slice(3, 0, -2), np.array([0, -1]), np.array([[1], [0]]), None, Ellipsis, np.array([True, False, True]),
         True]


def _combos(count: int, seed: int = 3) -> list[tuple[int, ...]]:
    rng = np.random.default_rng(seed)
    combos: set[tuple[int, ...]] = set()
    while len(combos) < count:
        combo = tuple(int(k) for k in rng.integers(0, len(ITEMS), rng.integers(1, 4)))
        items = [ITEMS[k] for k in combo]
        if any(item is None for item in items) and any(item is True for item in items):
            continue
        combos.add(combo)
    return sorted(combos)


def _cases() -> dict:
    cases = {}
    for combo in _combos(40):
        index = tuple(ITEMS[k] for k in combo)
        name = "-".join(str(k) for k in combo)
        cases[f"{name}-get"] = lambda m, index=index: (lambda x: x[index], jnp_golden.module_arrays(m, (X,)))
        cases[f"{name}-add"] = lambda m, index=index: (lambda x: x.at[index].add(1.0),
                                                       jnp_golden.module_arrays(m, (X,)))
        cases[f"{name}-traced"] = lambda m, index=index: (lambda x, i: x[(i,) + index],
                                                          jnp_golden.module_arrays(m, (X, 1)))
        cases[f"{name}-fill"] = lambda m, index=index: (lambda x: x.at[index].get(mode="fill", fill_value=0.0),
                                                        jnp_golden.module_arrays(m, (X,)))
    return cases


CASES = _cases()

if __name__ == "__main__":
    jnp_golden.write(CASES, "index_sweep_golden.json")
