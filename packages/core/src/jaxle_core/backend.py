"""The backend interface, and its NumPy reference implementation.

A backend evaluates primitives eagerly, compiles closed jaxprs into callables,
moves values to and from its devices, and lists those devices. Core ships the
reference backend; ``jaxle_xla`` registers an XLA one when imported.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

import numpy as np

from jaxle_core import core
from jaxle_core.array import Array, ReferenceArray
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.config import debug_key_reuse
from jaxle_core.extended import ExtendedArray, apply_physically, has_extended
from jaxle_core.jaxpr_util import negative_size_shape, sub_jaxprs, unlowerable_effects
from jaxle_core.mesh import Mesh, PartitionSpec, get_mesh
from jaxle_core.sharding import NamedSharding


class Backend(Protocol):
    """What core needs from a backend."""

    platform: str

    def apply_primitive(self, primitive: core.Primitive, args: Sequence[Any], params: dict) -> Any:
        """Evaluate one primitive on concrete values; returns Array(s)."""

    def compile(self, closed_jaxpr: core.ClosedJaxpr, name: str, donated_invars: Sequence[bool],
                keep_unused: bool, device: Any, in_shardings: Sequence[Any] = (),
                out_shardings: Sequence[Any] = (), layouts: tuple = ((), ()),
                compiler_options: dict[str, Any] | None = None) -> Callable[..., list[Any]]:
        """A callable taking the jaxpr's flat inputs (concrete values) and returning its outputs; the shardings
        (one per input and output, None where free; empty when none was asked for) lay them out over devices,
        ``layouts`` (the inputs' and the outputs': ``Layout``, ``Layout.AUTO`` or None) in memory;
        ``compiler_options`` override the compiler's options by name."""

    def lower_text(self, closed_jaxpr: core.ClosedJaxpr, name: str, donated_invars: Sequence[bool] = (),
                   keep_unused: bool = False, in_shardings: Sequence[Any] = (),
                   out_shardings: Sequence[Any] = (), dialect: str | None = None, debug_info: bool = False,
                   layouts: tuple = ((), ()), result_names: Sequence[str] = (), pinned: bool = False,
                   aliases: Sequence[int | None] = (), equations_pruned: bool = False) -> str:
        """The backend's program text for ``closed_jaxpr`` (StableHLO for XLA, or another of its ``dialect``s);
        the shardings and layouts (as for ``compile``, and one-device shardings of committed arguments) annotate
        its inputs and outputs; ``debug_info`` adds its locations; ``result_names`` name its results (their paths
        in the output pytree) where the text can say so; ``pinned``: the program runs on one device ``jit``
        named; ``aliases``: the output each input's buffer becomes (None: where donation lets it);
        ``equations_pruned``: no equation is dropped (the program was pruned before its references were
        discharged, as JAX prunes it), only the inputs nothing reads."""

    def check_lowering(self, closed_jaxpr: core.ClosedJaxpr, name: str, in_shardings: Sequence[Any] = (),
                       out_shardings: Sequence[Any] = (), pinned: bool = False,
                       arg_shardings: Sequence[Any] = (), given: Sequence[Any] = ()) -> None:
        """Raise the errors ``lower_text`` would raise for these shardings (as ``jit(f).lower`` raises them),
        without lowering; ``arg_shardings`` (where each argument lies, None where it is not committed) name the
        arguments in them, and must suit the in_shardings jit was ``given``."""

    def compiler_ir(self, program_text: str, dialect: str | None) -> Any:
        """The program ``lower_text`` gave as the compiler's IR object for ``dialect`` (None: the backend's own);
        None for a backend without one."""
        return None

    def cost_analysis(self, program_text: str) -> Any:
        """The compiler's cost estimates of the program ``lower_text`` gave, before optimisation; None for a backend
        without them."""
        return None

    def device_put(self, x: Any, device: Any = None, weak_type: bool = False) -> Array:
        """``x`` as an Array on ``device`` (the default device when None)."""

    def device_sharding(self, device: Any) -> Any:
        """The sharding of ``device`` alone (a SingleDeviceSharding; for a platform name, its first device's); None
        for a backend without shardings."""
        return None

    def lay_out_all(self, xs: Sequence[Any], shardings: Sequence[Any]) -> list[Array]:
        """Each of ``xs`` laid out by the NamedSharding at its position (pmap's arguments, on every call)."""

    def devices(self) -> list[Any]:
        """The devices of this backend."""

    def from_process_local(self, x: Any, sharding: Any) -> Array:
        """In a multi-process run, the array laid out by ``sharding`` of which ``x`` is this process's part."""

    def process_local_part(self, x: Any) -> Array:
        """In a multi-process run, this process's part of ``x``, over a mesh of its own devices."""


def to_numpy(x: Any) -> np.ndarray:
    """A concrete value as a NumPy array of its canonical JAX dtype."""
    if isinstance(x, Array):
        return np.asarray(x._value)
    aval = get_aval(x)
    return np.asarray(x, dtype=aval.dtype)


class MLIRError(Exception):
    """The reference backend's stand-in for jaxlib's ``MLIRError`` (which it has no MLIR to raise): refusing, as
    XLA's lowering refuses, a program JAX stages with a size below zero."""


def _refuse_tensor_type(shape: tuple[int, ...]) -> None:
    raise MLIRError("Invalid type:\nerror: unknown: invalid tensor dimension size") from None


refuse_tensor_type: Callable[[tuple[int, ...]], None] = _refuse_tensor_type
"""Raises the error MLIR gives for a tensor type of ``shape`` (a size below zero): the stand-in ``MLIRError``, or,
once jaxle_xla is loaded, MLIR's own (jaxlib's ``MLIRError``, as on XLA)."""


def _refuse_negative_sizes(out_avals: Sequence[Any], params: dict) -> None:
    """The ``MLIRError`` MLIR gives when a size below zero is among ``out_avals`` or in the jaxprs of ``params``."""
    for aval in out_avals:
        shape = getattr(aval, "shape", ())
        if any(type(d) is int and d < 0 for d in shape):
            refuse_tensor_type(shape)
    for jaxpr in sub_jaxprs(params):
        shape = negative_size_shape(jaxpr)
        if shape is not None:
            refuse_tensor_type(shape)


def _refuse_unlowerable_effects(jaxpr: core.Jaxpr) -> None:
    """JAX's error for a program staging effects XLA cannot lower (``Primitive.unlowerable_effect``), raised when the
    program is compiled or lowered, as XLA's lowering raises it."""
    effects = unlowerable_effects(jaxpr)
    if effects:
        raise ValueError(f"Cannot lower jaxpr with effects: {set(effects)}")


class ReferenceDevice:
    """The one device of the reference backend: host memory."""

    id = 0
    platform = "reference"
    device_kind = "numpy"
    process_index = 0

    def __repr__(self) -> str:
        return "ReferenceDevice(id=0)"


class ReferenceBackend:
    """Evaluates every primitive with its NumPy implementation."""

    platform = "reference"

    def __init__(self):
        self._device = ReferenceDevice()

    def apply_primitive(self, primitive, args, params):
        avals = [get_aval(x) for x in args]
        out_avals = core.abstract_eval(primitive, avals, params)
        out_list = out_avals if primitive.multiple_results else [out_avals]
        if has_extended(avals) or has_extended(out_list):
            try:
                return apply_physically(primitive, args, avals, out_avals, params)
            except TypeError:  # the physical computation of a draw staged with a negative size, say
                _refuse_negative_sizes(out_list, params)
                raise
        if primitive.impl is None:
            raise NotImplementedError(f"primitive {primitive.name} has no reference implementation")
        _refuse_negative_sizes(out_list, {})  # NumPy would make some of them empty (``np.arange`` of a negative size)
        outs = primitive.impl(*[to_numpy(x) for x in args], **params)
        if primitive.multiple_results:
            return [_wrap(out, aval) for out, aval in zip(outs, out_avals)]
        return _wrap(outs, out_avals)

    def compile(self, closed_jaxpr, name, donated_invars, keep_unused, device, in_shardings=(), out_shardings=(),
                layouts=((), ()), compiler_options=None):
        # host memory holds NumPy's arrays as NumPy lays them out; NumPy compiles nothing, so takes no options
        jaxpr, consts = closed_jaxpr.jaxpr, closed_jaxpr.consts
        _refuse_unlowerable_effects(jaxpr)
        out_avals = jaxpr.out_avals

        def run(*args):
            # a program runs as one call: its keys were checked at its boundary, not again by each operation inside
            with core.set_current_trace(core.EvalTrace()), debug_key_reuse(False):
                outs = core.eval_jaxpr(jaxpr, consts, *args)
            # outputs that are constants or inputs passed through are arrays of their avals too, as on XLA (tokens
            # stay host values)
            return [_wrap(out, aval) if type(out) is not ReferenceArray and isinstance(aval, ShapedArray) else out
                    for out, aval in zip(outs, out_avals)]

        return run

    def lower_text(self, closed_jaxpr, name, donated_invars=(), keep_unused=False, in_shardings=(),
                   out_shardings=(), dialect=None, debug_info=False, layouts=((), ()), result_names=(), pinned=False,
                   aliases=(), equations_pruned=False):
        if dialect is not None:
            raise ValueError(f"unknown dialect: {dialect}")
        _refuse_unlowerable_effects(closed_jaxpr.jaxpr)
        return str(closed_jaxpr)

    def check_lowering(self, closed_jaxpr, name, in_shardings=(), out_shardings=(), pinned=False, arg_shardings=(),
                       given=()):
        pass  # one device, no mesh to refuse arguments of

    def cost_analysis(self, program_text):
        return None  # NumPy has no compiler to estimate costs

    def device_put(self, x, device=None, weak_type=False):
        if isinstance(x, (ReferenceArray, ExtendedArray)):
            return x
        return ReferenceArray(to_numpy(x), weak_type)

    def device_sharding(self, device):
        return None  # one device in host memory, laid out by no sharding

    def lay_out_all(self, xs, shardings):
        return [self.device_put(x, s) for x, s in zip(xs, shardings)]

    def devices(self):
        return [self._device]


def _wrap(value: Any, aval) -> ReferenceArray | ExtendedArray:
    if isinstance(value, ExtendedArray):  # a jaxpr's output of an extended dtype is already one
        return value
    value = np.asarray(value)
    if value.dtype != aval.dtype:
        value = value.astype(aval.dtype)
    return ReferenceArray(value, aval.weak_type)


_backends: dict[str, tuple[int, Backend]] = {"reference": (0, ReferenceBackend())}
_default: list[Backend | None] = [None]


def register_backend(name: str, backend: Backend, priority: int = 100) -> None:
    """Make ``backend`` available; the highest priority one is the default."""
    _backends[name] = (priority, backend)
    _default[0] = None


def get_backend(name: str | None = None) -> Backend:
    if name is not None:
        try:
            return _backends[name][1]
        except KeyError:
            raise RuntimeError(f"Unknown backend {name!r}. Available backends: {sorted(_backends)}") from None
    return current_backend()


@contextmanager
def use_backend(name: str) -> Iterator[Backend]:
    """Make backend ``name`` the current one inside the block (for example the reference, as an oracle)."""
    previous = _default[0]
    _default[0] = get_backend(name)
    try:
        yield _default[0]
    finally:
        _default[0] = previous


def current_backend() -> Backend:
    backend = _default[0]
    if backend is None:
        backend = _default[0] = max(_backends.values(), key=lambda entry: entry[0])[1]
    return backend


def backends() -> list[str]:
    return sorted(_backends)


def put_host_value(value: Any, weak_type: bool = False, eager: bool | None = None) -> Array:
    """A host value put on the current backend: under ``set_mesh``, in eager code, replicated over the mesh's
    devices (as JAX places the arrays its eager operations make), else on the default device. ``eager``: whether
    the value is made by eager code (default: whether no transformation is tracing)."""
    mesh = get_mesh()
    if not mesh.empty and (eager if eager is not None else isinstance(core.current_trace(), core.EvalTrace)):
        return current_backend().device_put(value, _replicated_over(mesh), weak_type=weak_type)
    return current_backend().device_put(value, weak_type=weak_type)


@functools.lru_cache(maxsize=16)
def _replicated_over(mesh: Mesh) -> NamedSharding:
    return NamedSharding(mesh, PartitionSpec())
