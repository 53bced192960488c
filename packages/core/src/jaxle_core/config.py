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


class RuntimeTracebackMode(str, enum.Enum):
    """Values of ``jax_send_traceback_to_runtime``: which Python traceback goes with each launched computation."""
    OFF = "off"
    ON = "on"
    FULL = "full"

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


def _truth_value(text: str, varname: str) -> bool:
    text = text.lower()
    if text in _TRUE_STRINGS:
        return True
    if text in _FALSE_STRINGS:
        return False
    raise ValueError(f"invalid truth value {text!r} for environment {varname!r}")


def _bool_from_env(varname: str, default: bool) -> bool:
    return _truth_value(os.getenv(varname, str(default)), varname)


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
                 in_trace_context: bool = False, context_default: Any = _UNSET, state: bool = True, doc: str = ""):
        self.name = name
        # JAX has two kinds of option: states (validated, with a context manager) and plain flags (any value
        # is stored; ``config.read`` gives them).
        self.state = state
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
        if flag.state:
            # A class-level property makes `config.jax_enable_x64` a plain attribute read; plain flags have none.
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
        """The value of plain flag ``name``; options with a context manager are read as ``config.<name>``."""
        try:
            flag = self._flags[name]
        except KeyError:
            raise AttributeError(f"Unrecognized config option: {name}") from None
        if flag.state and name != "jax_enable_x64":  # JAX reads x64 either way
            raise AttributeError(f"For flags with a corresponding contextmanager, read their value via e.g. "
                                 f"`config.{name}` rather than `config.FLAGS.{name}`.")
        return flag.value

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


def _define_int(name: str, default: int, **kwargs: Any) -> Flag:
    return _define(name, _from_env(name, default, _parse_optional_int, int), _parse_optional_int, **kwargs)


def _define_float(name: str, default: float, **kwargs: Any) -> Flag:
    return _define(name, _from_env(name, default, _parse_optional_float, float), _parse_optional_float, **kwargs)


def _define_str(name: str, default: str | None, **kwargs: Any) -> Flag:
    return _define(name, _from_env(name, default, _parse_optional_str), _parse_optional_str, **kwargs)


def _define_enum(name: str, default: str | None, choices: list[str], optional: bool = False, **kwargs: Any) -> Flag:
    parse = _enum_parser(choices, optional)
    return _define(name, _from_env(name, default, parse), parse, **kwargs)


def _define_plain(name: str, default: Any, env: Callable[[str], Any] | None = None, doc: str = "") -> Flag:
    """One of JAX's plain flags: any value is stored as given, ``config.read`` gives it, and there is no context
    manager. ``env`` (bool, or a conversion of the text such as int) reads its environment variable; None: the
    flag does not read one."""
    text = os.getenv(name.upper()) if env is not None else None
    if text is None:
        start = default
    else:
        start = _truth_value(text, name.upper()) if env is bool else env(text)  # type: ignore[misc]
    return _define(name, start, lambda value: value, state=False, doc=doc)


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


default_device = _define("jax_default_device", _parse_default_device(os.getenv("JAX_DEFAULT_DEVICE")),
                         _parse_default_device, in_trace_context=True,
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


def _parse_log_modules(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"new string config value must be of type str, got {value} of type {type(value)}.")
    return value


def _parse_client_options(value: Any) -> dict | str | None:
    if value is not None and not isinstance(value, (dict, str)):
        raise ValueError("new string config value must be None or of type dict | str, got "
                         f"{value} of type {type(value)}.")
    return value


# ---- tracing and staging

random_seed_offset = _define_int("jax_random_seed_offset", 0, in_trace_context=True,
                                 doc="Added to the seed of every new PRNG key (keys of different processes differ).")
high_dynamic_range_gumbel = _define_bool(
    "jax_high_dynamic_range_gumbel", False, in_trace_context=True,
    doc="Sample Gumbel variates from two uniforms, so that their tails reach further.")
check_static_indices = _define_bool("jax_check_static_indices", False, in_trace_context=True,
                                    doc="Raise IndexError for out-of-bounds static indices in jnp indexing.")
traceback_filtering = _define_enum(
    "jax_traceback_filtering", "auto", ["off", "tracebackhide", "remove_frames", "quiet_remove_frames", "auto"],
    doc="How the library's internal frames are left out of the tracebacks of errors raised through it.")
check_vma = _define_bool("check_vma", False, in_trace_context=True,
                         doc="Check the varying manual axes of values under shard_map.")
eager_constant_folding = _define_bool("eager_constant_folding", False, in_trace_context=True,
                                      doc="Fold operations on constants while tracing.")
use_direct_linearize = _define_bool("jax_use_direct_linearize", True, in_trace_context=True,
                                    doc="Linearize in one pass rather than by JVP then partial evaluation.")
use_simplified_jaxpr_constants = _define_bool("jax_use_simplified_jaxpr_constants", False, in_trace_context=True,
                                              doc="Keep large constants as jaxpr literals.")
mutable_array_checks = _define_bool("jax_mutable_array_checks", True, in_trace_context=True,
                                    doc="Check that mutable arrays are not aliased or returned.")
refs_to_pins = _define_bool("jax_refs_to_pins", False, in_trace_context=True,
                            doc="Lower array references to pinned buffers.")
custom_vjp3 = _define_bool("jax_custom_vjp3", False, in_trace_context=True,
                           doc="Use the third implementation of custom_vjp.")
remat3 = _define_bool("jax_remat3", False, in_trace_context=True, doc="Use the third implementation of remat.")
scan3 = _define_bool("jax_scan3", False, in_trace_context=True, doc="Use the third implementation of scan.")
disable_bwd_checks = _define_bool("jax_disable_bwd_checks", False, in_trace_context=True,
                                  doc="Skip the checks of custom_vjp backward outputs.")
disable_vmap_shmap_error = _define_bool("jax_disable_vmap_shmap_error", False, in_trace_context=True,
                                        doc="Allow vmap of shard_map over an axis name it uses.")
disallow_mesh_context_manager = _define_bool("jax_disallow_mesh_context_manager", False,
                                             doc="Forbid `with mesh:` (use jax.sharding.use_mesh).")
log_checkpoint_residuals = _define_bool("jax_log_checkpoint_residuals", False,
                                        doc="Log the residuals that checkpoint saves.")
captured_constants_warn_bytes = _define_int("jax_captured_constants_warn_bytes", 2_000_000_000,
                                            doc="Warn when a traced function captures constants of more bytes.")
captured_constants_report_frames = _define_int("jax_captured_constants_report_frames", 0,
                                               doc="Source frames shown for each captured constant in the warning.")
embedded_constants_max_bytes = _define_int("jax_embedded_constants_max_bytes", 32,
                                           doc="Largest constant embedded in lowered code rather than passed in.")
pprint_use_color = _define_bool("jax_pprint_use_color", True, doc="Use color when pretty-printing jaxprs.")
error_checking_behavior_nan = _define_enum("jax_error_checking_behavior_nan", "ignore", ["ignore", "raise"],
                                           doc="What jax.experimental.error_check does on NaN.")
error_checking_behavior_divide = _define_enum("jax_error_checking_behavior_divide", "ignore", ["ignore", "raise"],
                                              doc="What jax.experimental.error_check does on division by zero.")
error_checking_behavior_oob = _define_enum("jax_error_checking_behavior_oob", "ignore", ["ignore", "raise"],
                                           doc="What jax.experimental.error_check does on out-of-bounds indices.")

# ---- lowering, compilation and dumps

optimization_level = _define_enum("jax_optimization_level", "UNKNOWN", ["UNKNOWN", "O0", "O1", "O2", "O3"],
                                  in_trace_context=True, doc="XLA's optimization level for compilation.")
memory_fitting_level = _define_enum("jax_memory_fitting_level", "O2", ["UNKNOWN", "O0", "O1", "O2", "O3"],
                                    in_trace_context=True, doc="How hard XLA works to fit a program in memory.")
exec_time_optimization_effort = _define_float(
    "jax_exec_time_optimization_effort", 0.0, in_trace_context=True,
    doc="Compile-time effort for run-time speed, in [-1, 1].")
memory_fitting_effort = _define_float("jax_memory_fitting_effort", 0.0, in_trace_context=True,
                                      doc="Compile-time effort for memory fitting, in [-1, 1].")
compiler_enable_remat_pass = _define_bool("jax_compiler_enable_remat_pass", True,
                                          doc="Let XLA rematerialize to save memory (GPU).")
include_full_tracebacks_in_locations = _define_bool(
    "jax_include_full_tracebacks_in_locations", True, doc="Put whole tracebacks in the locations of lowered code.")
traceback_in_locations_limit = _define_int("jax_traceback_in_locations_limit", 100,
                                           doc="Most frames of a traceback kept in a location.")
hlo_source_file_canonicalization_regex = _define_str(
    "jax_hlo_source_file_canonicalization_regex", None,
    doc="Text matching this regular expression is removed from file names in lowered code.")
send_traceback_to_runtime = _define(
    "jax_send_traceback_to_runtime",
    _from_env("jax_send_traceback_to_runtime", RuntimeTracebackMode.OFF, _enum_class_parser(RuntimeTracebackMode)),
    _enum_class_parser(RuntimeTracebackMode), doc="Send Python tracebacks with launched computations: off, on, full.")
experimental_unsafe_xla_runtime_errors = _define_bool(
    "jax_experimental_unsafe_xla_runtime_errors", False, doc="Let XLA raise run-time errors (unsafe).")
xla_profile_version = _define_int("jax_xla_profile_version", 0, doc="Version of the XLA profile to compile with.")
compilation_cache_include_metadata_in_key = _define_bool(
    "jax_compilation_cache_include_metadata_in_key", False,
    doc="Include the lowered code's metadata (locations) in compilation cache keys.")
compilation_cache_check_contents = _define_bool(
    "jax_compilation_cache_check_contents", False, doc="Check that a cache hit holds what compiling would give.")
compilation_cache_expect_pgle = _define_bool("jax_compilation_cache_expect_pgle", False,
                                             doc="Expect profile-guided entries in the compilation cache.")
remove_custom_partitioning_ptr_from_cache_key = _define_bool(
    "jax_remove_custom_partitioning_ptr_from_cache_key", False,
    doc="Leave custom_partitioning callback addresses out of cache keys.")
enable_pgle = _define_bool("jax_enable_pgle", False, doc="Profile-guided latency estimation (GPU).")
pgle_profiling_runs = _define_int("jax_pgle_profiling_runs", 3, doc="Runs profiled before recompiling (PGLE).")
pgle_aggregation_percentile = _define_int("jax_pgle_aggregation_percentile", 90,
                                          doc="Percentile of the profiled times used (PGLE).")
share_binary_between_hosts = _define_bool("jax_share_binary_between_hosts", False,
                                          doc="Compile once and share the executable between hosts.")
share_binary_between_hosts_timeout_ms = _define_int("jax_share_binary_between_hosts_timeout_ms", 1_200_000,
                                                    doc="How long hosts wait for a shared executable.")
export_calling_convention_version = _define(
    "jax_export_calling_convention_version", int(os.getenv("JAX_EXPORT_CALLING_CONVENTION_VERSION", "10")),
    _parse_optional_int, doc="Calling convention version of jax.export serializations.")
serialization_version = _define("jax_serialization_version", int(os.getenv("JAX_SERIALIZATION_VERSION", "0")),
                                _parse_optional_int, doc="Former name of the export calling convention version.")
export_ignore_forward_compatibility = _define_bool(
    "jax_export_ignore_forward_compatibility", False,
    doc="Export custom calls that are not covered by the forward compatibility guarantee.")
jax2tf_default_native_serialization = _define_bool("jax2tf_default_native_serialization", True,
                                                   doc="jax2tf serializes natively by default.")
use_shardy_partitioner = _define_bool("jax_use_shardy_partitioner", True, in_trace_context=True,
                                      doc="Lower shardings for the Shardy partitioner rather than GSPMD.")
dump_ir_to = _define_plain("jax_dump_ir_to", "", str,
                           doc="Directory to write the lowered module of every compiled function to.")
dump_ir_modes = _define_plain("jax_dump_ir_modes", "stablehlo", str,
                              doc="Which forms to dump: comma-separated 'stablehlo', 'jaxpr'.")
include_debug_info_in_dumps = _define_plain("jax_include_debug_info_in_dumps", True, bool,
                                            doc="Keep locations in the dumped modules.")
disable_most_optimizations = _define_plain("jax_disable_most_optimizations", False, bool,
                                           doc="Compile with XLA's optimizations mostly off.")
compiler_detailed_logging_min_ops = _define_plain("jax_compiler_detailed_logging_min_ops", 10, int,
                                                  doc="Programs of fewer operations compile without detailed logs.")

# ---- logging and debugging

logging_level = _define_enum("jax_logging_level", "NOTSET",
                             ["NOTSET", "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"], optional=True,
                             doc="Level of the library's loggers, shown on stderr (NOTSET: logging's own setup).")
debug_log_modules = _define("jax_debug_log_modules", _from_env("jax_debug_log_modules", "", _parse_log_modules),
                            _parse_log_modules, doc="Comma-separated modules whose debug messages are shown.")
tracer_error_num_traceback_frames = _define_plain("jax_tracer_error_num_traceback_frames", 5, int,
                                                  doc="Frames shown in errors about tracers.")
distributed_debug = _define_bool("jax_distributed_debug", False, doc="Log the steps of jax.distributed.")
debug_leaked_clients_on_clear_backends = _define_bool(
    "jax_debug_leaked_clients_on_clear_backends", False, doc="Report clients still referenced after clear_backends.")
source_url_schema = _define_str("jax_source_url_schema", None,
                                doc="URL template for source links in profiler traces.")

# ---- platforms and clients

platform_name = _define_plain("jax_platform_name", "", str.lower,
                              doc="Platform of the default backend (''/unset: the first of jax_platforms).")
backend_target = _define_plain("jax_backend_target", "", str, doc="Address of a remote backend.")
xla_backend = _define_plain("jax_xla_backend", "", doc="Former name of jax_backend_target.")
cpu_enable_async_dispatch = _define_plain("jax_cpu_enable_async_dispatch", True,
                                          doc="Return from CPU computations before they finish.")
cpu_collectives_implementation = _define_enum(
    "jax_cpu_collectives_implementation", "gloo", ["gloo", "mpi", "megascale"], optional=True,
    doc="Transport of CPU collectives between processes.")
cpu_get_local_topology_timeout_minutes = _define_int(
    "jax_cpu_get_local_topology_timeout_minutes", 2, doc="Minutes a CPU client waits to learn its local topology.")
cpu_get_global_topology_timeout_minutes = _define_int(
    "jax_cpu_get_global_topology_timeout_minutes", 5, doc="Minutes a CPU client waits for every process's topology.")
pjrt_client_create_options = _define(
    "jax_pjrt_client_create_options", _from_env("jax_pjrt_client_create_options", None, _parse_client_options),
    _parse_client_options, doc="Options for creating PJRT plugin clients: a dict or 'key:value;key:value' text.")
sort_devices_by_process_index = _define_plain("jax_sort_devices_by_process_index", True,
                                              doc="Order devices by process index.")
enable_preemption_service = _define_bool("jax_enable_preemption_service", True,
                                         doc="Start the preemption sync service with jax.distributed.")
enable_recoverability = _define_bool("jax_enable_recoverability", False,
                                     doc="Let a multi-process run continue when processes fail.")
check_proxy_envs = _define_plain("jax_check_proxy_envs", True, doc="Warn when proxy environment variables are set.")
cross_host_transfer_socket_address = _define_plain("jax_cross_host_transfer_socket_address", "",
                                                   doc="Socket address for transfers between hosts.")
cross_host_transport_addresses = _define_plain("jax_cross_host_transport_addresses", "",
                                               doc="Transport addresses for transfers between hosts.")
cross_host_transfer_timeout_seconds = _define_plain("jax_cross_host_transfer_timeout_seconds", None,
                                                    doc="Timeout of transfers between hosts.")
cross_host_transfer_transfer_size = _define_plain("jax_cross_host_transfer_transfer_size", None,
                                                  doc="Chunk size of transfers between hosts.")
force_dcn_cross_host_transfers = _define_plain("jax_force_dcn_cross_host_transfers", False,
                                               doc="Send transfers between hosts over the data-center network.")

# ---- accelerators only (accepted and stored; nothing reads them on CPU)

cuda_visible_devices = _define_plain("jax_cuda_visible_devices", "all", doc="CUDA devices to use ('all' or ids).")
rocm_visible_devices = _define_plain("jax_rocm_visible_devices", "all", doc="ROCm devices to use ('all' or ids).")
oneapi_visible_devices = _define_plain("jax_oneapi_visible_devices", "all", doc="oneAPI devices to use.")
mock_gpu_topology = _define_plain("jax_mock_gpu_topology", "", doc="Mock GPU topology 'slices x hosts x devices'.")
mock_num_gpu_processes = _define_plain("mock_num_gpu_processes", 0, doc="Number of mock GPU processes.")
use_magma = _define_enum("jax_use_magma", "auto", ["off", "on", "auto"], doc="Use MAGMA for GPU eigendecompositions.")
bcoo_cusparse_lowering = _define_bool("jax_bcoo_cusparse_lowering", False, doc="Lower BCOO operations to cuSPARSE.")
threefry_gpu_kernel_lowering = _define_bool("jax_threefry_gpu_kernel_lowering", False, in_trace_context=True,
                                            doc="Lower threefry to a GPU kernel.")
ragged_dot_use_ragged_dot_instruction = _define_bool(
    "jax_ragged_dot_use_ragged_dot_instruction", True, in_trace_context=True,
    doc="Lower ragged_dot to XLA's ragged dot instruction.")
ragged_dot_use_gpu_pallas_triton_lowering = _define_bool(
    "jax_ragged_dot_use_gpu_pallas_triton_lowering", False, in_trace_context=True,
    doc="Lower ragged_dot through a Pallas Triton kernel on GPU.")
mosaic_allow_hlo = _define_bool("jax_mosaic_allow_hlo", False, doc="Let Mosaic kernels contain HLO (TPU).")
pallas_use_mosaic_gpu = _define_bool("jax_pallas_use_mosaic_gpu", True, doc="Lower Pallas to Mosaic GPU.")
pallas_enable_debug_checks = _define_bool("jax_pallas_enable_debug_checks", False, doc="Pallas run-time checks.")
pallas_poison_buffers = _define_bool("jax_pallas_poison_buffers", False, doc="Fill Pallas scratch buffers with NaN.")
pallas_verbose_errors = _define_plain("jax_pallas_verbose_errors", False, bool, doc="Longer Pallas errors.")
use_emit_pipeline_primitive = _define_bool("jax_use_emit_pipeline_primitive", False,
                                           doc="Pallas pipelines as a primitive (TPU).")


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
