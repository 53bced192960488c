"""Where this folder's golden generators put their records: ``python make_NAME_golden.py jax`` writes JAX's to the
generator's JSON file; run with another implementation (``jaxle``) a generator prints its records instead, for a
look at what differs. Imported by generators run under JAX as well, so it uses the standard library alone."""

from __future__ import annotations

import json
import pathlib
import sys


def write_golden(records: dict, path: pathlib.Path, indent: int | None = 1) -> None:
    """``records`` as JSON with sorted keys: written to ``path`` when the implementation named on the command line
    is JAX, printed otherwise."""
    text = json.dumps(records, indent=indent, sort_keys=True)
    if sys.argv[1] != "jax":
        print(text)
        return
    path.write_text(text + "\n")
    print(f"{len(records)} cases -> {path}")
