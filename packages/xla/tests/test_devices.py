"""Devices and data movement: the device queries, device_put / device_get for every dtype and for pytrees,
and the platform and CPU-device-count settings (read when the clients start, so tried in subprocesses)."""

import os
import subprocess
import sys
import textwrap

import ml_dtypes
import numpy as np
import pytest
from conftest import FLOAT_EDGES, random_values

import jaxle_xla
from jaxle_core import config, dtypes
from jaxle_xla import XlaArray, xla_backend


def test_device_queries():
    devices = jaxle_xla.devices()
    assert devices == jaxle_xla.devices("cpu") == jaxle_xla.local_devices() == xla_backend.devices()
    assert jaxle_xla.local_devices(process_index=0) == devices
    assert jaxle_xla.device_count() == jaxle_xla.local_device_count() == len(devices) >= 1
    assert (jaxle_xla.process_index(), jaxle_xla.process_count()) == (0, 1)
    assert jaxle_xla.default_backend() == "cpu"
    device = devices[0]
    assert (device.id, device.platform, device.process_index) == (0, "cpu", 0)
    assert repr(device) == "CpuDevice(id=0)"


def test_cpu_client_made_with_jaxs_options(monkeypatch):
    # JAX 0.10.2 makes its CPU client asynchronous, with its topology flags' defaults (2 and 5 minutes).
    seen = {}
    monkeypatch.setattr(jaxle_xla._jaxlib.xc, "make_cpu_client", lambda **options: seen.update(options))
    jaxle_xla._jaxlib.make_cpu_client(-1)
    assert seen == {"asynchronous": True, "get_local_topology_timeout_minutes": 2,
                    "get_global_topology_timeout_minutes": 5}
    jaxle_xla._jaxlib.make_cpu_client(3, {"node_id": 1, "num_nodes": 2})
    assert (seen["num_devices"], seen["node_id"], seen["num_nodes"]) == (3, 1, 2)


def test_unknown_backends_and_processes():
    with pytest.raises(RuntimeError, match="Unknown backend: 'gpu' requested, but no platforms that are instances "
                                           "of gpu are present. Platforms present are: cpu"):
        jaxle_xla.devices("gpu")
    with pytest.raises(RuntimeError, match=r"Unknown backend foo. Available backends are \['cpu'\]"):
        jaxle_xla.devices("foo")
    with pytest.raises(ValueError, match="Unknown process_index 1"):
        jaxle_xla.local_devices(process_index=1)


def _bits(a: np.ndarray) -> np.ndarray:
    """The raw bytes of ``a``, so that NaN payloads and -0.0 compare too."""
    return np.ascontiguousarray(a).view(np.uint8)


FLOAT8 = [ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3b11fnuz, ml_dtypes.float8_e4m3fnuz,
          ml_dtypes.float8_e5m2fnuz, ml_dtypes.float8_e3m4, ml_dtypes.float8_e4m3, ml_dtypes.float8_e8m0fnu]
ROUND_TRIP_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                     np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128,
                     *FLOAT8, ml_dtypes.float4_e2m1fn, ml_dtypes.int4, ml_dtypes.uint4, ml_dtypes.int2,
                     ml_dtypes.uint2]


def _values(dtype: np.dtype) -> np.ndarray:
    rng = np.random.default_rng(0)
    if dtype in FLOAT8:  # every bit pattern, NaNs and infinities included
        return np.arange(256, dtype=np.uint8).view(dtype)
    if dtype in (np.float16, np.float32, np.float64):
        with np.errstate(over="ignore"):
            return np.concatenate([random_values(rng, (15,), dtype), FLOAT_EDGES.astype(dtype)])
    if dtype.kind in "biuc":
        return random_values(rng, (16,), dtype)
    if dtypes.issubdtype(dtype, np.integer):  # int4 and the like: every value
        info = ml_dtypes.iinfo(dtype)
        return np.arange(info.min, info.max + 1).astype(dtype)
    return rng.standard_normal(16).astype(dtype)  # bfloat16, float4_e2m1fn


@pytest.mark.parametrize("dtype", ROUND_TRIP_DTYPES, ids=lambda d: np.dtype(d).name)
def test_device_put_device_get_round_trip(dtype):
    dtype = np.dtype(dtype)
    value = _values(dtype).reshape(2, -1)
    with config.enable_x64(True):
        x = jaxle_xla.device_put(value)
        back = jaxle_xla.device_get(x)
    assert type(x) is XlaArray and x.dtype == dtype and x.shape == value.shape
    assert type(back) is np.ndarray and back.dtype == dtype
    np.testing.assert_array_equal(_bits(back), _bits(value))
    np.testing.assert_array_equal(_bits(np.asarray(jaxle_xla.device_put(x, jaxle_xla.devices()[-1]))), _bits(value))


@pytest.mark.parametrize("wide, narrow", [(np.int64, np.int32), (np.uint64, np.uint32), (np.float64, np.float32),
                                          (np.complex128, np.complex64)])
def test_without_x64_values_are_narrowed_as_jax_does(wide, narrow):
    x = jaxle_xla.device_put(np.array([1, 2, 3], wide))
    assert x.dtype == narrow
    np.testing.assert_array_equal(np.asarray(x), [1, 2, 3])


def test_device_put_of_pytrees():
    tree = {"a": 1.0, "b": [np.int64(2), np.ones(2, np.float32)], "c": None, "d": (True, 3)}
    out = jaxle_xla.device_put(tree)
    assert out["c"] is None
    assert repr(out["a"]) == "Array(1., dtype=float32, weak_type=True)"
    assert repr(out["b"][0]) == "Array(2, dtype=int32)"
    assert repr(out["d"]) == "(Array(True, dtype=bool), Array(3, dtype=int32, weak_type=True))"
    assert all(type(leaf) is XlaArray and not leaf.committed for leaf in [out["a"], *out["b"], *out["d"]])
    device = jaxle_xla.devices()[0]
    placed = jaxle_xla.device_put(tree, {"a": device, "b": None, "c": None, "d": device})
    assert placed["a"].committed and not placed["b"][1].committed and placed["d"][1].committed
    assert jaxle_xla.device_put([1.0, 2.0], [device, out["a"].sharding])[1].device == device


def test_device_put_errors():
    with pytest.raises(ValueError, match="`jax.device_put` only accepts `None`, `jax.sharding.Sharding`, "
                                         "`jax.Device`.*Received invalid value: cpu"):
        jaxle_xla.device_put(np.ones(3), "cpu")
    with pytest.raises(TypeError, match="Argument 'abc' of type <class 'str'> is not a valid JAX type"):
        jaxle_xla.device_put("abc")
    with pytest.raises(OverflowError, match="Python int 1099511627776 too large to convert to int32"):
        jaxle_xla.device_put(2 ** 40)
    with pytest.raises(ValueError, match="may_alias and donate cannot be True at the same time."):
        jaxle_xla.device_put(np.ones(3), donate=True, may_alias=True)


def test_device_put_commits_aliases_and_copies():
    device = jaxle_xla.devices()[0]
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    assert not x.committed and jaxle_xla.device_put(x) is x
    committed = jaxle_xla.device_put(x, device)
    assert committed is not x and committed.committed and committed.device == device
    assert jaxle_xla.device_put(committed) is committed
    copy = jaxle_xla.device_put(x, may_alias=False)
    donated = jaxle_xla.device_put(x, donate=True)
    assert donated is not x and not copy.committed
    x.delete()  # the committed handle shares x's buffer, as in JAX; the copy does not
    assert committed.is_deleted() and not copy.is_deleted()
    np.testing.assert_array_equal(np.asarray(copy), [0, 1, 2])


def test_device_get():
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    out = jaxle_xla.device_get({"x": x, "s": x[1], "f": 1.5, "t": "text", "n": np.ones(1)})
    assert type(out["x"]) is np.ndarray and not out["x"].flags.writeable
    np.testing.assert_array_equal(out["x"], [0, 1, 2])
    assert type(out["s"]) is np.ndarray and out["s"].shape == () and out["s"] == 1.0
    assert out["f"] == 1.5 and out["t"] == "text" and type(out["n"]) is np.ndarray


# ---------------------------------------------------------------- settings read when the clients start

PROBE = """
import json
import jaxle_core as jc
import jaxle_xla
from jaxle_xla import _jaxlib
{setup}
try:
    report = {{"devices": [repr(d) for d in jaxle_xla.devices()], "backend": jaxle_xla.default_backend(),
              "cuda_plugin": _jaxlib.find_plugin_library("cuda") is not None}}
    try:
        jc.config.config.update("jax_num_cpu_devices", 7)
    except RuntimeError as err:
        report["late"] = str(err)
except RuntimeError as err:
    report = {{"error": str(err)}}
print(json.dumps(report))
"""


def run_probe(env: dict, setup: str = "") -> dict:
    import json

    clean = {k: v for k, v in os.environ.items() if k not in ("JAX_PLATFORMS", "JAX_NUM_CPU_DEVICES", "XLA_FLAGS")}
    result = subprocess.run([sys.executable, "-c", PROBE.format(setup=textwrap.dedent(setup))],
                            env={**clean, **env}, capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def _cpu_devices(n: int) -> list[str]:
    return [f"CpuDevice(id={i})" for i in range(n)]


LATE = "jax_num_cpu_devices config should be updated before backends are initialized"


def test_cpu_platform_and_device_count_from_the_environment():
    report = run_probe({"JAX_PLATFORMS": "cpu", "JAX_NUM_CPU_DEVICES": "3"})
    assert report["devices"] == _cpu_devices(3) and report["backend"] == "cpu"
    assert report["late"].startswith(LATE)


def test_device_count_and_platforms_from_config():
    setup = """
        jc.config.config.update("jax_platforms", "cpu")
        jc.config.config.update("jax_num_cpu_devices", 5)
    """
    report = run_probe({}, setup)
    assert report["devices"] == _cpu_devices(5) and report["late"].startswith(LATE)


def test_device_count_from_xla_flags():
    assert run_probe({"XLA_FLAGS": "--xla_force_host_platform_device_count=2"})["devices"] == _cpu_devices(2)


def test_an_unknown_platform_fails_to_initialize():
    report = run_probe({"JAX_PLATFORMS": "foo"})
    assert report["error"] == ("Unable to initialize backend 'foo': Backend 'foo' is not in the list of known "
                               "backends: ['cpu']. (set JAX_PLATFORMS='' to automatically choose an available "
                               "backend)")


def test_a_gpu_platform_without_its_plugin_is_passed_over():
    report = run_probe({"JAX_PLATFORMS": "cuda,cpu"})
    assert report["cuda_plugin"] or (report["backend"], report["devices"]) == ("cpu", _cpu_devices(1))
