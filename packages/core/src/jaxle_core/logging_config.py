"""The library's log output on stderr, set by two options.

``jax_logging_level`` (env ``JAX_LOGGING_LEVEL``): the level of the library's top loggers, whose records
then go to stderr as ``LEVEL:time:logger:line: message``; ``"NOTSET"`` or None hands them back to the
logging module's own setup. ``jax_debug_log_modules``: comma-separated logger names (modules) whose debug
records are shown on stderr too, unless the level above already shows them.
"""

from __future__ import annotations

import logging
import sys

from jaxle_core.config import config

__all__: list[str] = []

# The loggers the level applies to: jaxle's packages, jaxlib's, and "jax" (jaxle's loggers named after JAX's
# modules live under it).
_TOP_LOGGERS = ("jax", "jaxlib", "jaxle", "jaxle_core", "jaxle_xla", "jaxle_numpy", "jaxle_random", "jaxle_tree")
_FORMAT = logging.Formatter("{levelname}:{asctime}:{name}:{lineno}: {message}", style="{")


def _stderr_handler() -> logging.StreamHandler:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_FORMAT)
    return handler


class _Override:
    """Loggers given a level and a handler by one option, with the levels they had before."""

    def __init__(self, handler: logging.Handler):
        self.handler = handler
        self.previous: dict[str, int] = {}

    def undo(self) -> None:
        for name, level in self.previous.items():
            logger = logging.getLogger(name)
            logger.removeHandler(self.handler)
            logger.setLevel(level)
        self.previous.clear()

    def apply(self, name: str, level: int, with_handler: bool = True) -> None:
        logger = logging.getLogger(name)
        self.previous.setdefault(name, logger.level)
        logger.setLevel(level)
        if with_handler:
            logger.addHandler(self.handler)


_level = _Override(_stderr_handler())
_debug_handler = _stderr_handler()
_debug_handler.setLevel(logging.DEBUG)
# a module's debug records are shown once: not again by this handler when the top loggers already show them
_debug_handler.addFilter(lambda record: logging.getLogger("jax").level > logging.DEBUG)
_debug = _Override(_debug_handler)


def _set_level(name: str | None) -> None:
    _level.undo()
    if name is None:
        return
    level = logging.getLevelName(name)
    for logger_name in _TOP_LOGGERS:
        _level.apply(logger_name, level, with_handler=level != logging.NOTSET)


def _set_debug_modules(names: str) -> None:
    _debug.undo()
    for name in filter(None, names.split(",")):
        _debug.apply(name, logging.DEBUG)


config.add_observer("jax_logging_level", _set_level)
config.add_observer("jax_debug_log_modules", _set_debug_modules)
_set_level(config.jax_logging_level)
_set_debug_modules(config.jax_debug_log_modules)
