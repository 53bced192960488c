"""The tokens of ordered effects between calls of compiled programs.

A program with ordered effects (``io_callback(..., ordered=True)``, ``debug.print(..., ordered=True)``) takes one
token per effect as its first arguments and returns the token of its last call of each first, as JAX's. The
runtime hands each call the token the previous call of that effect returned (an empty boolean array at first), so
XLA runs the calls of one effect in the order they were made, across programs as within one.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_xla import _jaxlib

# what a token is between programs: an empty array of booleans
TOKEN_AVAL = ShapedArray((0,), np.dtype(np.bool_))


class _RuntimeTokens(threading.local):
    """Each ordered effect's token as the last program of this thread that has the effect returned it."""

    def __init__(self):
        self.current: dict[Any, Any] = {}

    def inputs(self, effects: Sequence[Any], device: _jaxlib.Device) -> list[Any]:
        """The token buffers to pass, on ``device``, to a program of ``effects``."""
        tokens = []
        for effect in effects:
            token = self.current.get(effect)
            if token is None:
                token = _jaxlib.device_put(np.zeros(0, np.bool_), TOKEN_AVAL, device)
            elif _jaxlib.buffer_device(token) != device:
                token = _jaxlib.copy_to_device(token, TOKEN_AVAL, device)
            tokens.append(token)
        return tokens

    def keep_results(self, effects: Sequence[Any], outs: Sequence[Any]) -> list[Any]:
        """Keep the first of a program's ``outs`` as the tokens of its ``effects``; returns the others."""
        self.current.update(zip(effects, outs))
        return list(outs[len(effects):])

    def block_until_ready(self) -> None:
        """Wait for the programs that returned the tokens kept, and forget them."""
        for token in self.current.values():
            token.block_until_ready()
        self.current.clear()


runtime_tokens = _RuntimeTokens()
