"""Configuration flags, with JAX's names, defaults and environment variables.

Each flag has a global value (set by ``config.update`` or read once from its
environment variable, e.g. ``JAX_ENABLE_X64``) and a per-thread override set
by its context manager::

    config.update("jax_enable_x64", True)
    with enable_x64(False):
        assert not x64_enabled()
"""

from __future__ import annotations

import contextlib
import enum
import functools
import itertools
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = [
    "Config", "Flag", "config", "x64_enabled", "trace_context",
    "NumpyDtypePromotion", "ExplicitX64Mode",
    "enable_x64", "disable_jit", "debug_nans", "debug_infs", "numpy_rank_promotion",
    "numpy_dtype_promotion", "default_matmul_precision", "explicit_x64_dtypes",
    "platforms", "num_cpu_devices", "LegacyPrngKeyState",
    "log_compiles", "explain_cache_misses", "check_tracer_leaks", "checking_leaks", "enable_checks",
    "no_tracing", "no_execution", "default_device", "transfer_guard", "transfer_guard_host_to_device",
    "transfer_guard_device_to_host", "transfer_guard_device_to_device", "array_garbage_collection_guard",
    "thread_guard", "allow_f16_reductions", "softmax_custom_jvp", "jax2tf_associative_scan_reductions",
    "default_prng_impl", "threefry_partitionable", "enable_custom_prng", "legacy_prng_key", "debug_key_reuse",
    "make_user_context", "remove_size_one_mesh_axis_from_type", "auto_pcast",
    "enable_compilation_cache", "compilation_cache_dir", "compilation_cache_max_size",
    "persistent_cache_min_compile_time_secs", "persistent_cache_min_entry_size_bytes",
    "persistent_cache_enable_xla_caches", "raise_persistent_cache_errors",
]


class NumpyDtypePromotion(str, enum.Enum):
    """Values of ``jax_numpy_dtype_promotion``; compares equal to its string."""
    STANDARD = "standard"
    STRICT = "strict"

    def __str__(self) -> str:
        return self.value


class LegacyPrngKeyState(str, enum.Enum):
    """Values of ``jax_legacy_prng_key``: what to do when a raw ``uint32`` key is passed where a key is expected."""
    ALLOW = "allow"
    WARN = "warn"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value


class ExplicitX64Mode(enum.IntEnum):
    """What to do when a 64-bit dtype is requested explicitly while x64 is off."""
    WARN = 1
    ERROR = 2
    ALLOW = 3

    @classmethod
    def _missing_(cls, value: object) -> ExplicitX64Mode | None:
        return {"warn": cls.WARN, "error": cls.ERROR, "allow": cls.ALLOW}.get(value)  # type: ignore[arg-type]


_UNSET = object()
_TRUE_STRINGS = ("y", "yes", "t", "true", "on", "1")
_FALSE_STRINGS = ("n", "no", "f", "false", "off", "0")


def _bool_from_env(varname: str, default: bool) -> bool:
    text = os.getenv(varname, str(default)).lower()
    if text in _TRUE_STRINGS:
        return True
    if text in _FALSE_STRINGS:
        return False
    raise ValueError(f"invalid truth value {text!r} for environment {varname!r}")


# Counts every change of any flag, in any thread; lets trace_context() reuse its last answer.
_changes = [0]
_trace_context_observers: list[Callable[[Flag], None]] = []  # see Config.add_trace_context_observer


class _ThreadValue(threading.local):
    # A class attribute gives every thread the "no override" default without a getattr fallback.
    value: Any = _UNSET


class Flag:
    """One flag: a global value, a thread-local override, and observers.

    Calling the flag gives a context manager (also usable as a decorator) that
    overrides its value in the current thread::

        with enable_x64(True): ...
    """

    def __init__(self, name: str, default: Any, parse: Callable[[Any], Any], *,
                 in_trace_context: bool = False, context_default: Any = _UNSET, doc: str = ""):
        self.name = name
        self._parse = parse
        self._global = default
        self._local = _ThreadValue()
        self._context_default = context_default
        self._observers: list[Callable[[Any], None]] = []
        self.in_trace_context = in_trace_context
        self.__doc__ = f"Context manager for `{name}` config option.\n\n{doc}"

    @property
    def value(self) -> Any:
        local = self._local.value
        return self._global if local is _UNSET else local

    def set_global(self, new_value: Any) -> None:
        self._global = self._parse(new_value)
        self._notify()

    def _notify(self) -> None:
        _changes[0] += 1
        if self._observers:
            current = self.value
            for callback in self._observers:
                callback(current)
        if self.in_trace_context:
            for callback in _trace_context_observers:
                callback(self)

    def global_and_override(self, unset: Any = None) -> tuple[Any, Any]:
        """The global value and this thread's override (``unset`` where it has none)."""
        local = self._local.value
        return self._global, unset if local is _UNSET else local

    def thread_override(self) -> Any:
        """This thread's override, as ``restore_override`` takes it (an unset marker where it has none)."""
        return self._local.value

    def restore_override(self, saved: Any) -> _FlagOverride:
        """A context manager putting this thread's override back to ``saved`` (from ``thread_override``)."""
        return _FlagOverride(self, saved)

    def __call__(self, new_value: Any = _UNSET) -> _FlagOverride:
        if new_value is _UNSET:
            if self._context_default is _UNSET:
                short_name = self.name.removeprefix("jax_")
                raise TypeError(f"Context manager for {short_name} config option requires an argument "
                                "representing the new value for the config option.")
            new_value = self._context_default
        return _FlagOverride(self, self._parse(new_value))

    def __repr__(self) -> str:
        return f"Flag({self.name}={self.value!r})"


class _FlagOverride:
    """Thread-local override of one flag for the extent of a ``with`` block."""
    __slots__ = ("flag", "new_value", "saved")

    def __init__(self, flag: Flag, new_value: Any):
        self.flag = flag
        self.new_value = new_value

    def __enter__(self) -> None:
        local = self.flag._local
        self.saved = local.value
        local.value = self.new_value
        self.flag._notify()

    def __exit__(self, *exc_info: Any) -> None:
        self.flag._local.value = self.saved
        self.flag._notify()

    def __call__(self, func: Callable) -> Callable:
        @functools.wraps(func)
        def with_override(*args, **kwargs):
            with _FlagOverride(self.flag, self.new_value):
                return func(*args, **kwargs)
        return with_override


class Config:
    """The flag registry: ``config.update(name, value)`` and ``config.<name>`` reads."""

    def __init__(self) -> None:
        self._flags: dict[str, Flag] = {}

    def _register(self, flag: Flag) -> Flag:
        self._flags[flag.name] = flag
        # A class-level property makes `config.jax_enable_x64` a plain attribute read.
        setattr(type(self), flag.name, property(lambda _self, f=flag: f.value))
        return flag

    def update(self, name: str, value: Any) -> None:
        """Set the global value of flag ``name``; unknown names raise AttributeError."""
        try:
            flag = self._flags[name]
        except KeyError:
            raise AttributeError(f"Unrecognized config option: {name}") from None
        flag.set_global(value)

    def read(self, name: str) -> Any:
        """The current value of flag ``name`` (thread-local override included)."""
        try:
            return self._flags[name].value
        except KeyError:
            raise AttributeError(f"Unrecognized config option: {name}") from None

    @staticmethod
    def add_trace_context_observer(callback: Callable[[Flag], None]) -> None:
        """Call ``callback(flag)`` whenever a flag of the trace context (``trace_context``) changes, globally or
        in a ``with`` block (contexts made later by ``make_user_context`` included)."""
        _trace_context_observers.append(callback)

    def add_observer(self, name: str, callback: Callable[[Any], None]) -> None:
        """Call ``callback(value)`` whenever flag ``name`` changes, globally or in a ``with`` block."""
        try:
            self._flags[name]._observers.append(callback)
        except KeyError:
            raise AttributeError(f"Unrecognized config option: {name}") from None

    @property
    def values(self) -> dict[str, Any]:
        return {name: flag.value for name, flag in self._flags.items()}

    @property
    def x64_enabled(self) -> bool:
        return x64_enabled()

    @staticmethod
    def trace_context() -> tuple:
        """See the module-level ``trace_context``."""
        return trace_context()


config = Config()


# ---- parsers: each validates a new value the way JAX's flag of that kind does.

def _parse_bool(value: Any) -> bool:
    return bool(value)


def _parse_optional_int(value: Any) -> int | None:
    if value is not None and not isinstance(value, int):
        raise ValueError(f"new int config value must be None or of type int, got {value} of type {type(value)}")
    return value


def _parse_optional_float(value: Any) -> float | None:
    if value is not None and not isinstance(value, (int, float)):
        raise ValueError(f"new float config value must be None or of type float, got {value} of type {type(value)}")
    return value


def _parse_optional_str(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"new string config value must be None or of type str, got {value} of type {type(value)}.")
    return value


def _enum_parser(choices: list[str], optional: bool) -> Callable[[Any], str | None]:
    def parse(value: Any) -> str | None:
        if (value is None and optional) or (isinstance(value, str) and value in choices):
            return value
        allowed = f"None or in {choices}" if optional else f"in {choices}"
        raise ValueError(f"new enum value must be {allowed}, got {value} of type {type(value)}.")
    return parse


def _enum_class_parser(enum_class: type[enum.Enum]) -> Callable[[Any], Any]:
    def parse(value: Any) -> Any:
        if isinstance(value, enum_class):
            return value
        if not isinstance(value, str):
            raise TypeError(f"new enum value must be an instance of {enum_class}, got {value} of type {type(value)}.")
        return enum_class(value)
    return parse


def _from_env(name: str, default: Any, parse: Callable[[Any], Any], convert: Callable[[str], Any] = str) -> Any:
    """The flag's starting value: its environment variable (upper-cased name) if set."""
    text = os.getenv(name.upper())
    if text is None:
        return default
    try:
        return parse(convert(text))
    except (ValueError, TypeError):
        raise ValueError(f'Invalid value "{text}" for JAX flag {name}') from None


def _define(name: str, default: Any, parse: Callable[[Any], Any], **kwargs: Any) -> Flag:
    return config._register(Flag(name, default, parse, **kwargs))


def _define_bool(name: str, default: bool, **kwargs: Any) -> Flag:
    start = _bool_from_env(name.upper(), default)
    return _define(name, start, _parse_bool, context_default=True, **kwargs)


_MATMUL_PRECISIONS = [
    "default", "high", "highest", "bfloat16", "tensorfloat32", "float32",
    "ANY_F8_ANY_F8_F32", "ANY_F8_ANY_F8_F32_FAST_ACCUM", "ANY_F8_ANY_F8_ANY", "ANY_F8_ANY_F8_ANY_FAST_ACCUM",
    "F16_F16_F16", "F16_F16_F32", "BF16_BF16_BF16", "BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6",
    "BF16_BF16_F32_X9", "TF32_TF32_F32", "TF32_TF32_F32_X3", "F32_F32_F32", "F64_F64_F64",
]

enable_x64 = _define_bool("jax_enable_x64", False, in_trace_context=True, doc="Enable 64-bit types to be used")
disable_jit = _define_bool("jax_disable_jit", False, in_trace_context=True,
                           doc="Disable JIT compilation and just call original Python.")
debug_nans = _define_bool("jax_debug_nans", False, doc="Add nan checks to every operation.")
debug_infs = _define_bool("jax_debug_infs", False, doc="Add inf checks to every operation.")

_rank_parse = _enum_parser(["allow", "warn", "raise"], optional=False)
numpy_rank_promotion = _define(
    "jax_numpy_rank_promotion", _from_env("jax_numpy_rank_promotion", "allow", _rank_parse), _rank_parse,
    in_trace_context=True, doc="Control NumPy-style automatic rank promotion broadcasting.")

_precision_parse = _enum_parser(_MATMUL_PRECISIONS, optional=True)
default_matmul_precision = _define(
    "jax_default_matmul_precision", _from_env("jax_default_matmul_precision", None, _precision_parse),
    _precision_parse, in_trace_context=True,
    doc="Control the default matmul and conv precision for 32bit inputs.")

_promotion_parse = _enum_class_parser(NumpyDtypePromotion)
numpy_dtype_promotion = _define(
    "jax_numpy_dtype_promotion",
    _from_env("jax_numpy_dtype_promotion", NumpyDtypePromotion.STANDARD, _promotion_parse),
    _promotion_parse, in_trace_context=True,
    doc='Rules for implicit type promotion between arrays: "standard" or "strict".')

_explicit_parse = _enum_class_parser(ExplicitX64Mode)
explicit_x64_dtypes = _define(
    "jax_explicit_x64_dtypes", _from_env("jax_explicit_x64_dtypes", ExplicitX64Mode.WARN, _explicit_parse),
    _explicit_parse, in_trace_context=True,
    doc="What to do when a 64-bit dtype is requested while jax_enable_x64 is off: warn, error or allow.")

platforms = _define("jax_platforms", _from_env("jax_platforms", None, _parse_optional_str), _parse_optional_str,
                    doc="Comma-separated list of platform names to initialize; the first is the default.")
num_cpu_devices = _define("jax_num_cpu_devices", _from_env("jax_num_cpu_devices", -1, _parse_optional_int, int),
                          _parse_optional_int, doc="Number of CPU devices to create (-1: the platform default).")

log_compiles = _define_bool("jax_log_compiles", False,
                            doc="Log a message each time jit compiles a function (at WARNING level).")
enable_compilation_cache = _define_bool("jax_enable_compilation_cache", True,
                                        doc="Use the persistent compilation cache when a cache directory is set.")
compilation_cache_dir = _define(
    "jax_compilation_cache_dir", _from_env("jax_compilation_cache_dir", None, _parse_optional_str),
    _parse_optional_str, doc="Directory of the persistent compilation cache (None: no persistent cache).")
compilation_cache_max_size = _define(
    "jax_compilation_cache_max_size", _from_env("jax_compilation_cache_max_size", -1, _parse_optional_int, int),
    _parse_optional_int, doc="Most bytes the persistent cache keeps, least recently used entries evicted first "
                             "(-1: no limit).")
persistent_cache_min_compile_time_secs = _define(
    "jax_persistent_cache_min_compile_time_secs",
    _from_env("jax_persistent_cache_min_compile_time_secs", 1.0, _parse_optional_float, float),
    _parse_optional_float, doc="Only programs that took at least this long to compile are saved to the cache.")
persistent_cache_min_entry_size_bytes = _define(
    "jax_persistent_cache_min_entry_size_bytes",
    _from_env("jax_persistent_cache_min_entry_size_bytes", 0, _parse_optional_int, int),
    _parse_optional_int, doc="Only entries of at least this many bytes are saved to the cache.")
persistent_cache_enable_xla_caches = _define(
    "jax_persistent_cache_enable_xla_caches",
    _from_env("jax_persistent_cache_enable_xla_caches", "xla_gpu_per_fusion_autotune_cache_dir",
              _parse_optional_str),
    _parse_optional_str, doc="Which of XLA's own caches live under the cache directory: "
                             "'xla_gpu_per_fusion_autotune_cache_dir', 'all' or 'none'.")
raise_persistent_cache_errors = _define_bool(
    "jax_raise_persistent_cache_errors", False,
    doc="Raise errors of reading or writing the persistent cache instead of warning and compiling.")
explain_cache_misses = _define_bool("jax_explain_cache_misses", False,
                                    doc="Log why each jit tracing cache miss happened.")
check_tracer_leaks = _define_bool("jax_check_tracer_leaks", False,
                                  doc="Check for tracers leaked out of the transformation that made them.")
checking_leaks = functools.partial(check_tracer_leaks, True)
enable_checks = _define_bool("jax_enable_checks", False, doc="Turn on internal consistency checks.")
no_tracing = _define_bool("jax_no_tracing", False, doc="Disallow tracing (jit, vmap, grad, ...): raise instead.")
no_execution = _define_bool("jax_no_execution", False, doc="Disallow executing computations: raise instead.")
thread_guard = _define_bool("jax_thread_guard", False,
                            doc="Check that multi-process computations are launched from one thread only.")
allow_f16_reductions = _define_bool("jax_allow_f16_reductions", True,
                                    doc="Allow reductions to accumulate in float16/bfloat16.")
softmax_custom_jvp = _define_bool("jax_softmax_custom_jvp", False, in_trace_context=True,
                                  doc="Use a custom_jvp rule for jax.nn.softmax.")
jax2tf_associative_scan_reductions = _define_bool(
    "jax2tf_associative_scan_reductions", False, in_trace_context=True,
    doc="Lower cumulative reductions through associative_scan when exporting.")
enable_custom_prng = _define_bool("jax_enable_custom_prng", False, in_trace_context=True,
                                  doc="Enable the experimental custom PRNG implementation API.")
threefry_partitionable = _define_bool("jax_threefry_partitionable", True, in_trace_context=True,
                                      doc="Use the threefry PRNG formulation that shards without communication.")
debug_key_reuse = _define_bool("jax_debug_key_reuse", False, in_trace_context=True,
                               doc="Raise KeyReuseError when a PRNG key is used twice.")
# Switches of JAX's sharding in types (Explicit mesh axes in avals), which jaxle does not model: they are kept so
# that programs setting them run, and change nothing.
remove_size_one_mesh_axis_from_type = _define_bool(
    "jax_remove_size_one_mesh_axis_from_type", False, in_trace_context=True,
    doc="Leave mesh axes of size one out of the shardings in array types.")
auto_pcast = _define_bool("jax_auto_pcast", True, in_trace_context=True,
                          doc="Insert the casts between varying and invarying values under shard_map automatically.")

_prng_impl_parse = _enum_parser(["threefry2x32", "threefry4x32", "rbg", "unsafe_rbg", "philox2x32", "philox4x32"],
                                optional=False)
default_prng_impl = _define(
    "jax_default_prng_impl", _from_env("jax_default_prng_impl", "threefry2x32", _prng_impl_parse),
    _prng_impl_parse, in_trace_context=True, doc="The PRNG implementation of new keys.")

_legacy_key_parse = _enum_class_parser(LegacyPrngKeyState)
legacy_prng_key = _define(
    "jax_legacy_prng_key", _from_env("jax_legacy_prng_key", LegacyPrngKeyState.ALLOW, _legacy_key_parse),
    _legacy_key_parse, in_trace_context=True, doc="What to do with legacy uint32 keys: allow, warn or error.")

# Platform names that a string `jax_default_device` may give.
_PLATFORM_NAMES = ("cpu", "gpu", "cuda", "rocm", "tpu")


def _parse_default_device(value: Any) -> Any:
    # A device is anything with a platform and an id: core does not know the backend's Device class.
    is_device = hasattr(value, "platform") and hasattr(value, "id")
    if value is None or is_device or (isinstance(value, str) and value in _PLATFORM_NAMES):
        return value
    raise ValueError("jax.default_device must be passed either a Device object (e.g. `jax.devices('cpu')[0]`) "
                     f"or a platform name string like 'cpu' or 'gpu', got: {value!r}")


default_device = _define("jax_default_device", None, _parse_default_device, in_trace_context=True,
                         doc="The device that uncommitted computations and arrays are placed on.")

_guard_parse = _enum_parser(["allow", "log", "disallow", "log_explicit", "disallow_explicit"], optional=True)
transfer_guard_host_to_device = _define(
    "jax_transfer_guard_host_to_device", _from_env("jax_transfer_guard_host_to_device", None, _guard_parse),
    _guard_parse, doc="Guard level for host-to-device transfers.")
transfer_guard_device_to_host = _define(
    "jax_transfer_guard_device_to_host", _from_env("jax_transfer_guard_device_to_host", None, _guard_parse),
    _guard_parse, doc="Guard level for device-to-host transfers.")
transfer_guard_device_to_device = _define(
    "jax_transfer_guard_device_to_device", _from_env("jax_transfer_guard_device_to_device", None, _guard_parse),
    _guard_parse, doc="Guard level for device-to-device transfers.")
_transfer_guard_all = _define("jax_transfer_guard", _from_env("jax_transfer_guard", None, _guard_parse),
                              _guard_parse, doc="Guard level for every kind of transfer.")

_gc_guard_parse = _enum_parser(["allow", "log", "fatal"], optional=True)
array_garbage_collection_guard = _define(
    "jax_array_garbage_collection_guard",
    _from_env("jax_array_garbage_collection_guard", None, _gc_guard_parse), _gc_guard_parse,
    doc="What to do when an array is freed by the garbage collector (in a reference cycle).")


@contextlib.contextmanager
def transfer_guard(new_val: str) -> Iterator[None]:
    """Set the guard level of every kind of transfer (host to device, device to host, device to device)."""
    with contextlib.ExitStack() as stack:
        for flag in (transfer_guard_host_to_device, transfer_guard_device_to_host, transfer_guard_device_to_device,
                     _transfer_guard_all):
            stack.enter_context(flag(new_val))
        yield


# ---- hot-path accessors

_x64_local = enable_x64._local


def x64_enabled() -> bool:
    """Whether 64-bit types are enabled in this thread (fast path for canonicalisation)."""
    local = _x64_local.value
    return enable_x64._global if local is _UNSET else local


# A list: make_user_context appends to it.
_TRACE_CONTEXT_FLAGS = [flag for flag in config._flags.values() if flag.in_trace_context]


class _TraceContextCache(threading.local):
    changes = -1
    value: tuple = ()


_trace_context_cache = _TraceContextCache()
# Equal trace contexts are one object: caches key calls by its identity, and a context manager entered and left
# (set_mesh inside a function) must find the context it left.
_interned_contexts: dict[tuple, tuple] = {}


def trace_context() -> tuple:
    """Hashable values of the flags that change what tracing produces; part of jit cache keys."""
    cache = _trace_context_cache
    if cache.changes != _changes[0]:
        cache.changes = _changes[0]
        value = tuple([flag.value for flag in _TRACE_CONTEXT_FLAGS])
        cache.value = _interned_contexts.setdefault(value, value)
    return cache.value


_user_context_ids = itertools.count()


def make_user_context(default_value: Any = None) -> Flag:
    """A new context whose value (``with context(value): ...``) is part of every jit cache key: jitted functions
    are traced and compiled again when it changes. Values must be hashable. Not listed in ``config``."""
    flag = Flag(f"user_context_{next(_user_context_ids)}", default_value, lambda value: value, in_trace_context=True)
    _TRACE_CONTEXT_FLAGS.append(flag)
    _changes[0] += 1
    return flag
