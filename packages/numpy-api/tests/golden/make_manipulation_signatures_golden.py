"""Write manipulation_signatures.json: the signatures (parameter names, kinds, defaults) of JAX 0.10.2's shape
manipulation functions.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_manipulation_signatures_golden.py jax
"""

import importlib
import json
import pathlib
import sys

from make_jnp_reduction_signatures_golden import signatures

NAMES = ("reshape ravel transpose permute_dims matrix_transpose moveaxis rollaxis swapaxes expand_dims squeeze "
         "broadcast_to broadcast_arrays broadcast_shapes atleast_1d atleast_2d atleast_3d concatenate concat stack "
         "hstack vstack dstack column_stack block split array_split hsplit vsplit dsplit unstack tile repeat pad flip "
         "fliplr flipud rot90 roll resize insert delete append trim_zeros diagonal astype").split()

if __name__ == "__main__":
    module = importlib.import_module(f"{sys.argv[1]}.numpy")
    path = pathlib.Path(__file__).parent / "manipulation_signatures.json"
    path.write_text(json.dumps(signatures(module, NAMES), indent=1, sort_keys=True) + "\n")
    print(f"{len(NAMES)} signatures -> {path}")
