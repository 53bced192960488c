"""``jax.debug.visualize_sharding`` and ``visualize_array_sharding``: draw how a 1-D or 2-D array is laid out over
devices, one box per distinct block, sized in proportion to the block and labelled with the devices holding it.

The drawing is a ``rich`` table (``rich`` is the optional ``jaxle[visualize]`` dependency): every cell is the
device label padded to the block's size, so that rich's own layout (shrinking columns that do not fit the
console's ``max_width``) gives the same text as JAX's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core.inspect_sharding import inspect_array_sharding

__all__ = ["visualize_array_sharding", "visualize_sharding"]

_BASE_HEIGHT = 10  # lines of the whole array's box at scale 1
_CHARACTER_ASPECT = 2.5  # a terminal character is about 2.5 times taller than wide


def _block_range(index: slice, size: int) -> tuple[int, int]:
    start, stop, _ = index.indices(size)
    return start, stop


def _device_label(devices: list) -> str:
    return f"{devices[0].platform.upper()} {','.join(str(d.id) for d in sorted(devices, key=lambda d: d.id))}"


def visualize_sharding(shape: Sequence[int], sharding: Any, *, use_color: bool = True, scale: float = 1.0,
                       min_width: int = 9, max_width: int = 80, color_map: Any = None) -> None:
    """Print a box per block of an array of ``shape`` laid out by ``sharding``, labelled with its devices."""
    try:
        import rich.box
        import rich.console
        import rich.padding
        import rich.table
    except ImportError:
        raise ValueError("`visualize_sharding` requires `rich` to be installed.") from None
    shape = tuple(shape)
    if len(shape) not in (1, 2):
        raise ValueError("`visualize_sharding` only works for shapes with 1 and 2 dimensions.")
    rows, cols = (1, shape[0]) if len(shape) == 1 else shape
    base_height = int(_BASE_HEIGHT * scale)
    # A 1-D array's box is as wide as a 2-D array of one column would be: a long vector stays narrow.
    base_width = int(base_height * (shape[1] if len(shape) == 2 else 1) / shape[0])
    blocks: dict[tuple[tuple[int, int], tuple[int, int]], list] = {}
    for device, index in sharding.devices_indices_map(shape).items():
        row_range = (0, 1) if len(shape) == 1 else _block_range(index[0], rows)
        col_range = _block_range(index[-1], cols)
        blocks.setdefault((row_range, col_range), []).append(device)
    row_ranges = sorted({r for r, _ in blocks})
    col_ranges = sorted({c for _, c in blocks})
    table = rich.table.Table(show_header=False, show_lines=True, padding=0, box=rich.box.SQUARE)
    for _ in col_ranges:
        table.add_column()
    for row_range in row_ranges:
        cells = []
        for col_range in col_ranges:
            devices = blocks.get((row_range, col_range))
            label = _device_label(devices) if devices else ""
            width = int((col_range[1] - col_range[0]) / cols * base_width * _CHARACTER_ASPECT)
            width = min(max_width, max(min_width, width))
            left = max(0, (width - 2 - len(label)) // 2)
            right = max(0, width - 2 - len(label) - left)
            if len(shape) == 1:
                top = bottom = 0
            else:
                height = int((row_range[1] - row_range[0]) / rows * base_height)
                top = max(0, (height - 2) // 2)
                bottom = max(0, height - 2 - top)
            cells.append(rich.padding.Padding(label, (top, right, bottom, left)))
        table.add_row(*cells)
    rich.console.Console(width=max_width).print(table)


def visualize_array_sharding(arr: Any, **kwargs: Any) -> None:
    """Draw the layout of ``arr`` (see ``visualize_sharding``); inside ``jit``, once, when it is compiled."""
    inspect_array_sharding(arr, callback=lambda sharding: visualize_sharding(arr.shape, sharding, **kwargs))
