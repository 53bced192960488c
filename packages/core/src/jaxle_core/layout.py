"""Memory layouts of arrays (``jax.experimental.layout``): the order of an array's dimensions in memory
(``Layout``), and a layout with the sharding placing the array (``Format``).

A layout names the dimensions from the slowest-varying to the fastest (``major_to_minor``); NumPy's row-major
order of a rank-2 array is ``(0, 1)``. XLA writes the reverse order (minor to major), with tiles after a colon.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# the module, not its names: it reads Format from this one
from jaxle_core import sharding as shardings_module

__all__ = ["AutoLayoutSingleton", "Format", "Layout", "as_reported", "check_layout_rank", "custom_layouts_in_use",
           "is_row_major", "layout_mode", "note_custom_layouts"]

# Whether an array may be laid out otherwise than row-major (set by the backend once one is asked for): until then a
# compiled function's arguments need no check of their layouts.
custom_layouts_in_use = False


def note_custom_layouts() -> None:
    """Note that arrays in layouts other than row-major may exist from now on."""
    global custom_layouts_in_use
    custom_layouts_in_use = True


class AutoLayoutSingleton:
    """``Layout.AUTO``: the compiler chooses the layout."""

    def __repr__(self) -> str:
        return "AUTO"


class Layout:
    """The order of an array's dimensions in memory, from the slowest-varying (``major_to_minor``), with the
    compiler's tiles (``tiling``, None when not given) and the size of sub-byte elements."""

    AUTO = AutoLayoutSingleton()

    def __init__(self, major_to_minor: Sequence[int], tiling: Sequence[Sequence[int]] | None = None,
                 sub_byte_element_size_in_bits: int = 0):
        self.major_to_minor = tuple(major_to_minor)
        self.tiling = None if tiling is None else tuple(map(tuple, tiling))
        self.sub_byte_element_size_in_bits = sub_byte_element_size_in_bits

    @staticmethod
    def from_pjrt_layout(pjrt_layout: Any) -> Layout:
        """The layout jaxlib reports (a ``PjRtLayout``, minor to major)."""
        xla_layout = pjrt_layout._xla_layout()
        return Layout(tuple(reversed(xla_layout.minor_to_major())), tuple(xla_layout.tiling()),
                      xla_layout.element_size_in_bits())

    def _fields(self) -> tuple:
        return self.major_to_minor, self.tiling, self.sub_byte_element_size_in_bits

    def __repr__(self) -> str:
        return (f"Layout(major_to_minor={self.major_to_minor}, tiling={self.tiling}, "
                f"sub_byte_element_size_in_bits={self.sub_byte_element_size_in_bits})")

    def __eq__(self, other: object) -> bool:
        return type(other) is Layout and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def update(self, **fields: Any) -> Layout:
        """This layout with the fields named replaced (other names are ignored, as in JAX)."""
        major_to_minor, tiling, sub_byte = self._fields()
        return Layout(fields.get("major_to_minor", major_to_minor), fields.get("tiling", tiling),
                      fields.get("sub_byte_element_size_in_bits", sub_byte))

    def check_compatible_aval(self, shape: Sequence[Any]) -> None:
        """Refuses a value of ``shape`` whose rank the layout does not have."""
        if len(self.major_to_minor) != len(shape):
            raise ValueError("Length of major_to_minor and the rank of the value should match. Got "
                             f"major_to_minor={self.major_to_minor} and shape={tuple(shape)}")


def as_reported(layout: Layout) -> Layout:
    """``layout`` as XLA reports layouts: no tiling given is none (``()``)."""
    return layout if layout.tiling is not None else layout.update(tiling=())


def is_row_major(layout: Layout, ndim: int) -> bool:
    """Whether ``layout`` is NumPy's order for an array of rank ``ndim``, untiled (XLA's default on CPU)."""
    return as_reported(layout) == Layout(tuple(range(ndim)), ())


def layout_mode(layout: Layout | AutoLayoutSingleton | None) -> str | None:
    """The ``mhlo.layout_mode`` XLA reads for ``layout`` (None: the default layout, no annotation)."""
    if layout is None:
        return None
    if isinstance(layout, AutoLayoutSingleton):
        return "auto"
    order = ",".join(map(str, reversed(layout.major_to_minor)))
    tiles = "".join(f"T({','.join(map(str, tile))})" for tile in layout.tiling or ())
    return f"{{{order}:{tiles}}}" if tiles else f"{{{order}}}"


def check_layout_rank(layout: Any, shape: Sequence[Any], where: str) -> None:
    """JAX's error for a ``Layout`` of another rank than the value's (``where``: which value, as JAX words it)."""
    if isinstance(layout, Layout):
        try:
            layout.check_compatible_aval(shape)
        except ValueError as error:
            raise ValueError(f"{where} is incompatible with its layout annotation {layout}: {error}") from None


class Format:
    """An array's layout in memory and the sharding placing it: what ``jit``'s ``in_shardings`` and
    ``out_shardings``, ``device_put`` and a compiled function's ``input_formats``/``output_formats`` use."""

    def __init__(self, layout: Layout | AutoLayoutSingleton | None = None, sharding: Any = None):
        if not (layout is None or isinstance(layout, (Layout, AutoLayoutSingleton))):
            raise TypeError("Invalid value received for the layout argument. Expected values are `None`, "
                            f"`Layout.AUTO` or an instance of `Layout`. Got {layout} of type {type(layout)}")
        if not (sharding is None or isinstance(sharding, shardings_module.Sharding)):
            raise TypeError("Invalid value received for the sharding argument. Expected values are `None` or an "
                            f"instance of `jax.Sharding`. Got {sharding} of type {type(sharding)}")
        if isinstance(layout, Layout) and sharding is None:
            raise ValueError(f"Sharding has to be concrete when layout is of type {type(layout)}. Please pass a "
                             "`jax.sharding.NamedSharding` or `jax.sharding.SingleDeviceSharding` to the sharding "
                             f"argument. Got sharding {sharding}")
        self.layout = layout
        self.sharding = sharding

    def __repr__(self) -> str:
        return f"Format(layout={self.layout}, sharding={self.sharding})"

    def __eq__(self, other: object) -> bool:
        return type(other) is Format and (self.layout, self.sharding) == (other.layout, other.sharding)

    def __hash__(self) -> int:
        return hash((self.layout, self.sharding))
