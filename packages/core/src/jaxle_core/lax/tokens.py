"""Tokens: values that carry no data and order side effects (``create_token``, ``after_all``).

A token's abstract value is ``AbstractToken`` (printed ``Tok``). Token operations need no device: evaluated
eagerly they make a host ``Token``; staged, they become equations that the compiler turns into its own
tokens.
"""

from __future__ import annotations

from typing import Any

from jaxle_core import core
from jaxle_core.avals import AbstractValue, abstract_value_types, aval_handlers

__all__ = ["after_all", "after_all_p", "create_token", "create_token_p"]


class AbstractToken(AbstractValue):
    """The abstract value of a token."""

    __slots__ = ()
    shape = ()
    dtype = None
    weak_type = False

    def str_short(self, short_dtypes: bool = False) -> str:
        return "Tok"

    __str__ = str_short

    def __repr__(self) -> str:
        return "AbstractToken()"

    def __eq__(self, other: object) -> bool:
        return type(other) is AbstractToken

    def __hash__(self) -> int:
        return hash(AbstractToken)

    def strip_weak_type(self) -> AbstractToken:
        return self

    def update(self, **changes: Any) -> AbstractToken:
        """Itself: a token has no shape or dtype to change (its tangent type is a token too, as in JAX)."""
        return self


abstract_token = AbstractToken()


class Token:
    """A concrete token (what ``create_token`` returns outside any transformation)."""

    __slots__ = ()
    aval = abstract_token


aval_handlers[Token] = lambda token: abstract_token
abstract_value_types.append(AbstractToken)


class TokenPrimitive(core.Primitive):
    """A primitive on tokens: outside any transformation it is evaluated on the host, without a backend."""

    def bind(self, *args, **params):
        if core.evaluates_eagerly(args):
            return self.impl(*args, **params)
        return super().bind(*args, **params)


def _check_tokens(*avals: Any) -> AbstractToken:
    if not all(type(a) is AbstractToken for a in avals):
        raise TypeError("Arguments to after_all must be tokens")
    return abstract_token


create_token_p = TokenPrimitive("create_token")
create_token_p.def_abstract_eval(lambda: abstract_token)
create_token_p.def_impl(lambda: Token())

after_all_p = TokenPrimitive("after_all")
after_all_p.def_abstract_eval(_check_tokens)
after_all_p.def_impl(lambda *tokens: Token())


def create_token(_: Any = None) -> Any:
    """A token with no preconditions; the argument is ignored (kept for backward compatibility)."""
    return create_token_p.bind()


def after_all(*operands: Any) -> Any:
    """A token that comes after all of ``operands`` (tokens)."""
    return after_all_p.bind(*operands)
