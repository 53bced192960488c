"""MLIR locations of a module's operations, as JAX writes them: each equation's name stack and the user's frames
that staged it.

An operation is located at ``"jit(f)/jvp()/mul"(frames)``: the block's name stack (``jit(f)`` in ``main``, nothing in
a nested function, ``jit(f)/cond/branch_0_fun`` in a branch), the equation's own (``named_scope`` names and
transformations) and its primitive, over the user's frames that staged it, innermost first, each called from the
next (``callsite(inner at outer)``), each the function's qualified name over the span of source it was running
(``"f"("/path/file.py":4:8 to :15)``). A nested function's operations leave out the frames of the equation that
calls it (they are the caller's).

A loop JAX lowers by tracing a helper (``scan``, ``fori_loop``) has that helper's operations located at their own
names (``jit(f)/while/body/add``, see ``HelperSite``), over the equation's frames inside the traced function called
from the equation's whole stack: ``callsite(F at T)``, and one tracing level down ``callsite(callsite(F at F) at T)``.
"""

from __future__ import annotations

from typing import Any

from jaxle_core.source_info import Frame, name_stack_text, user_frames

__all__ = ["UNKNOWN", "HelperSite", "Locations", "named"]

UNKNOWN = "unknown"
# the primitives JAX lowers through another one, whose name locates the arguments of the regions of its op
_REGION_OWNERS = {"scan": "while", "select_and_scatter_add": "select_and_scatter"}
# how many of the user's frames a location names, the innermost (JAX's ``jax_traceback_in_locations_limit``)
_FRAME_LIMIT = 10


def _string(text: str) -> str:
    """``text`` as an MLIR string literal."""
    escaped = "".join(c if c.isprintable() and c not in '"\\' else
                      "".join(f"\\{b:02X}" for b in c.encode()) for c in text)
    return f'"{escaped}"'


def named(name: str, child: str) -> str:
    """The location ``name`` over ``child`` (a location's text without ``loc(...)``)."""
    return _string(name) if child == UNKNOWN else f"{_string(name)}({child})"


def _frame_text(frame: Frame) -> str:
    end = f":{frame.end_column}" if frame.end_line == frame.start_line else f"{frame.end_line}:{frame.end_column}"
    return f"{_string(frame.function)}({_string(frame.file)}:{frame.start_line}:{frame.start_column} to {end})"


class Locations:
    """The locations of one module's operations (each stack's frames and text worked out once)."""

    def __init__(self) -> None:
        self._frames: dict[Any, tuple[Frame, ...]] = {}
        self._texts: dict[tuple[Any, tuple[Frame, ...]], str] = {}
        # the frames where the module's function was traced from (outside it)
        self.entry: tuple[Frame, ...] = ()

    def frames(self, traceback: Any) -> tuple[Frame, ...]:
        """The user's frames of ``traceback`` (a staged equation's stack), innermost first, at most the limit."""
        if traceback is None:
            return ()
        frames = self._frames.get(traceback)
        if frames is None:
            frames = self._frames[traceback] = tuple(user_frames(traceback)[:_FRAME_LIMIT])
        return frames

    def stack(self, traceback: Any, caller: tuple[Frame, ...] = ()) -> str:
        """The text of ``traceback``'s frames (``unknown`` for none), less the outermost ones it shares with
        ``caller`` (the frames of the equation calling the function it is in)."""
        key = (traceback, caller)
        text = self._texts.get(key)
        if text is None:
            frames = list(self.frames(traceback))
            outer = list(caller)
            while frames and outer and frames[-1] == outer[-1]:
                frames.pop()
                outer.pop()
            text = UNKNOWN
            for frame in reversed(frames):
                inner = _frame_text(frame)
                text = inner if text == UNKNOWN else f"callsite({inner} at {text})"
            self._texts[key] = text
        return text

    def equation(self, eqn: Any, block_name: str, caller: tuple[Frame, ...] = (), ambient: str = UNKNOWN) -> str:
        """The location (text without ``loc(...)``) of the operations of ``eqn`` in a block of name stack
        ``block_name``; ``ambient``: the frames of one staged with none of the user's (in a traced helper)."""
        source = eqn.source
        traceback, name_stack = (None, ()) if source is None else source
        stack = self.stack(traceback, caller)
        return named(_joined(block_name, _operation_name(eqn, name_stack)), ambient if stack == UNKNOWN else stack)

    def helper_site(self, eqn: Any, block_name: str, caller: tuple[Frame, ...]) -> HelperSite:
        """Where the operations of the helper traced to lower ``eqn`` (in a block of name stack ``block_name``)
        are located."""
        traceback, name_stack = (None, ()) if eqn.source is None else eqn.source
        return HelperSite(_joined(block_name, name_stack_text(name_stack)), self.stack(traceback, self.entry),
                          self.stack(traceback, caller))

    def function(self, eqn: Any, block_name: str, caller: tuple[Frame, ...] = ()) -> str:
        """The location of a nested function written for ``eqn``'s call (in a block of name stack ``block_name``):
        ``"jit:"("jit(g)/jit"(frames))``."""
        source = eqn.source
        traceback, name_stack = (None, ()) if source is None else source
        primitive = eqn.primitive.name
        return named(f"{primitive}:", named(_joined(block_name, name_stack_text(name_stack), primitive),
                                            self.stack(traceback, caller)))

    def scope(self, eqn: Any, block_name: str, name: str = "") -> str:
        """The name stack of the equations of a jaxpr ``eqn`` calls inline (in a block of name stack
        ``block_name``): the equation's own, followed by ``name``."""
        return _joined(block_name, name_stack_text(() if eqn.source is None else eqn.source[1]), name)

    def region_argument(self, eqn: Any) -> str:
        """The location of the arguments of a region of the op lowering ``eqn``: ``"reduce_sum:"("reduce_sum")``,
        after the primitive JAX lowers it with."""
        primitive = _REGION_OWNERS.get(eqn.primitive.name, eqn.primitive.name)
        return named(f"{primitive}:", _string(primitive))

    def name_stack(self, eqn: Any, block_name: str, name: str = "") -> str:
        """The name stack of a block inside ``eqn`` (a control-flow equation's region, ``name`` within it) in a
        block of name stack ``block_name``."""
        if eqn is None:
            return _joined(block_name, name)
        source = eqn.source
        return _joined(block_name, name_stack_text(() if source is None else source[1]), eqn.primitive.name, name)


class HelperSite:
    """The locations of the operations of a helper JAX traces to lower one equation: ``prefix`` the name stack
    they are under (the equation's block's and its own), ``own`` the equation's frames inside the traced
    function, ``whole`` all its frames (less those of the caller of the function it is in)."""

    def __init__(self, prefix: str, own: str, whole: str):
        self.prefix, self.own, self.whole = prefix, own, whole

    def operation(self, name: str, depth: int = 1) -> str:
        """The location of the operation at ``name`` in the helper (``while/cond/lt``), ``depth`` levels of
        tracing down (2: inside the loop the helper traces)."""
        frames = self.own
        for _ in range(depth - 1):
            frames = _callsite(frames, self.own)
        return named(_joined(self.prefix, name), _callsite(frames, self.whole))

    def function(self, name: str) -> str:
        """The location of the function a call at ``name`` (``while/body/jit(g)``) calls: ``"jit:"("while/body/jit"(
        frames))``."""
        scope, _, operation = name.rpartition("/")
        primitive = operation.partition("(")[0]
        return named(f"{primitive}:", named(_joined(scope, primitive), self.own))


def _callsite(inner: str, outer: str) -> str:
    if inner == UNKNOWN:
        return outer
    return inner if outer == UNKNOWN else f"callsite({inner} at {outer})"


def _joined(*names: str) -> str:
    return "/".join(n for n in names if n)


def _operation_name(eqn: Any, name_stack: tuple[Any, ...]) -> str:
    """An equation's name under its name stack: a jitted call by the function it calls, as a scope the innermost
    transformation wraps (``jvp(jit(f))``); any other by its primitive after the stack (``jvp()/mul``)."""
    if eqn.primitive.name == "jit":
        return name_stack_text((*name_stack, f"jit({eqn.params['name']})"))
    return _joined(name_stack_text(name_stack), eqn.primitive.name)
