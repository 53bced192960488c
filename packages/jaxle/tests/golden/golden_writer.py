"""Where this folder's golden generators put their records: ``python make_NAME_golden.py jax`` writes JAX's to the
generator's JSON file; run with another implementation (``jaxle``) a generator prints its records instead, for a
look at what differs. Also how a case's outcome is recorded (``outcome``). Imported by generators run under JAX as
well, so it uses the standard library alone."""

from __future__ import annotations

import json
import pathlib
import sys
from collections.abc import Callable
from typing import Any


def write_golden(records: dict, path: pathlib.Path, indent: int | None = 1) -> None:
    """``records`` as JSON with sorted keys: written to ``path`` when the implementation named on the command line
    is JAX, printed otherwise."""
    text = json.dumps(records, indent=indent, sort_keys=True)
    if sys.argv[1] != "jax":
        print(text)
        return
    path.write_text(text + "\n")
    print(f"{len(records)} cases -> {path}")


def outcome(thunk: Callable[[], Any], describe: Callable[[Any], Any] = repr,
            errors: type[BaseException] | tuple[type[BaseException], ...] = Exception) -> Any:
    """``describe`` of what ``thunk()`` returns (its repr by default), or the error it raises (one of ``errors``)
    as its type's name and its message: ``"TypeError: ..."``."""
    try:
        result = thunk()
    except errors as error:  # the type and message are what is compared
        return f"{type(error).__name__}: {error}"
    return describe(result)
