"""Registering dataclasses (and other attribute bags) as pytree nodes."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

from .keys import GetAttrKey
from .registry import register_pytree_with_keys

__all__ = ["register_dataclass"]

T = TypeVar("T")


def _fields_from_metadata(nodetype: type) -> tuple[list[str], list[str]]:
    fields = dataclasses.fields(nodetype)
    data = [f.name for f in fields if not f.metadata.get("static", False)]
    meta = [f.name for f in fields if f.metadata.get("static", False)]
    return data, meta


def _check_fields(nodetype: type, data: tuple, meta: tuple, drop: Sequence[str]) -> None:
    init_fields = {f.name for f in dataclasses.fields(nodetype) if f.init} - set(drop)
    given = {*data, *meta}
    if given == init_fields:
        return
    message = "data_fields and meta_fields must include all dataclass fields with ``init=True`` and only them."
    missing = init_fields - given
    if missing:
        message += f" Missing fields: {missing}. Add them to drop_fields to suppress this error."
    unexpected = given - init_fields
    if unexpected:
        message += f" Unexpected fields: {unexpected}."
    raise ValueError(message)


def register_dataclass(
    nodetype: type[T],
    data_fields: Sequence[str] | None = None,
    meta_fields: Sequence[str] | None = None,
    drop_fields: Sequence[str] = (),
) -> type[T]:
    """Register a dataclass: ``data_fields`` are children, ``meta_fields`` live in the treedef.

    Without explicit fields, fields whose ``metadata`` has ``static=True`` are meta fields.
    Rebuilding calls ``nodetype(**fields)``.
    """
    if data_fields is None or meta_fields is None:
        if (data_fields is None) != (meta_fields is None):
            raise TypeError(
                "register_dataclass: data_fields and meta_fields must both be specified"
                f" when either is specified. Got {data_fields=} {meta_fields=}."
            )
        if not dataclasses.is_dataclass(nodetype):
            raise TypeError(
                "register_dataclass: data_fields and meta_fields are required when"
                f" nodetype is not a dataclass. Got {nodetype=}."
            )
        data_fields, meta_fields = _fields_from_metadata(nodetype)
    data, meta = tuple(data_fields), tuple(meta_fields)
    if dataclasses.is_dataclass(nodetype):
        _check_fields(nodetype, data, meta, drop_fields)
    overlap = set(data) & set(meta)
    if overlap:
        raise ValueError(f"data_fields and meta_fields must not overlap. Overlapping fields: {overlap}.")
    keys = tuple(GetAttrKey(name) for name in data)

    def flatten(node):
        return [getattr(node, name) for name in data], tuple(getattr(node, name) for name in meta)

    def flatten_with_keys(node):
        return [(key, getattr(node, name)) for key, name in zip(keys, data)], tuple(getattr(node, n) for n in meta)

    def unflatten(aux, children):
        return nodetype(**dict(zip(meta, aux)), **dict(zip(data, children)))

    register_pytree_with_keys(nodetype, flatten_with_keys, unflatten, flatten)
    return nodetype
