"""The signatures (parameter names, kinds and defaults) of JAX 0.10.2's creation, range, matrix, grid, I/O,
window and dtype-query functions, written to creation_signatures.json.

Run with JAX's environment: /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_creation_signatures.py jax
"""

import importlib
import inspect
import json
import pathlib
import sys

NAMES = ("array asarray copy zeros ones full empty zeros_like ones_like full_like empty_like arange linspace logspace "
         "geomspace eye identity tri tril triu diag diagflat vander diag_indices diag_indices_from tril_indices "
         "triu_indices tril_indices_from triu_indices_from mask_indices meshgrid indices ix_ fromfunction frombuffer "
         "fromstring fromiter fromfile load save savez from_dlpack bartlett blackman hamming hanning kaiser "
         "promote_types result_type can_cast issubdtype isdtype iscomplexobj isrealobj isscalar iterable ndim shape "
         "size array_repr array_str").split()


def signature_record(fun) -> list:
    """[name, kind, repr of the default or '-'] per parameter."""
    return [[p.name, p.kind.name, "-" if p.default is inspect.Parameter.empty else repr(p.default)]
            for p in inspect.signature(fun).parameters.values()]


if __name__ == "__main__":
    jnp = importlib.import_module(f"{sys.argv[1]}.numpy")
    records = {name: signature_record(getattr(jnp, name)) for name in NAMES}
    path = pathlib.Path(__file__).parent / "creation_signatures.json"
    path.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} signatures -> {path}")
