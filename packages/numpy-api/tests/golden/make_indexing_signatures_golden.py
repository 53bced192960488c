"""Write indexing_signatures.json: the signatures (parameter names, kinds, defaults) of JAX 0.10.2's index-driven
jnp functions, of the Array's methods and of the ``.at[]`` reference's methods.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_indexing_signatures_golden.py jax
"""

import importlib
import json
import pathlib
import sys

import make_jnp_reduction_signatures_golden

FUNCTIONS = ("take take_along_axis put_along_axis put place compress extract choose select piecewise nonzero "
             "argwhere flatnonzero fill_diagonal ravel_multi_index unravel_index packbits unpackbits").split()
ARRAY_METHODS = ("all any argmax argmin argpartition argsort astype byteswap choose clip compress conj conjugate "
                 "copy cumprod cumsum diagonal dot flatten item max mean min nonzero prod ptp ravel repeat reshape "
                 "round searchsorted sort squeeze std sum swapaxes take trace transpose var view __array_namespace__ "
                 "__contains__ __copy__ __deepcopy__ __round__").split()
AT_METHODS = "get set add subtract multiply mul divide power min max apply".split()


def signatures(numpy_module, array, at_ref) -> dict:
    """Prefixed name -> signature record, for the functions, the Array's methods and ``.at[]``'s methods."""
    records = {}
    for prefix, owner, names in (("", numpy_module, FUNCTIONS), ("Array.", type(array), ARRAY_METHODS),
                                 (".at[].", at_ref, AT_METHODS)):
        for name, record in make_jnp_reduction_signatures_golden.signatures(owner, names).items():
            records[prefix + name] = record
    return records


if __name__ == "__main__":
    jnp = importlib.import_module(f"{sys.argv[1]}.numpy")
    x = jnp.ones(2)
    path = pathlib.Path(__file__).parent / "indexing_signatures.json"
    path.write_text(json.dumps(signatures(jnp, x, x.at[0]), indent=1, sort_keys=True) + "\n")
    print(f"signatures -> {path}")
