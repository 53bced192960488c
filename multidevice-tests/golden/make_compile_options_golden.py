"""Write compile_options_golden.json: the ``CompileOptions`` JAX 0.10.2's ``jax.interpreters.pxla``
``create_compile_options`` builds on 8 CPU devices (every field that differs from jaxlib's defaults), for modules
lowered by the module named on the command line, over several device grids, propagation flags and compiler
options:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_compile_options_golden.py jax

With another module (jaxle) it prints its outcomes as JSON instead of writing them. The device count is read when
the client starts, so it runs in a fresh interpreter.
"""

import importlib
import pathlib

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent
X = np.arange(8, dtype=np.float32)


def _module(m, additions: int):
    """The StableHLO module of a function adding its argument to itself ``additions`` times."""
    def f(a):
        for _ in range(additions):
            a = a + a
        return a

    return m.jit(f).lower(X).compiler_ir("stablehlo")


def _fields(options) -> dict[str, str]:
    """Every field of ``options`` (its build options and their debug options included) as text."""
    build = options.executable_build_options
    fields = {}
    for prefix, holder, names in (("", options, dir(options)), ("build.", build, dir(build)),
                                  ("debug.", build.debug_options, dir(build.debug_options))):
        for name in names:
            if name.startswith("_") or name in ("debug_options", "executable_build_options"):
                continue
            try:
                value = getattr(holder, name)
            except Exception as error:  # noqa: BLE001 - a field jaxlib cannot read back is compared as its error
                value = type(error).__name__
            if not callable(value):
                fields[prefix + name] = repr(value)
    return fields


def _changed(m, xla_client, options) -> dict[str, str]:
    """The fields of ``options`` that differ from a default ``CompileOptions``."""
    default = _fields(xla_client.CompileOptions())
    return {name: value for name, value in _fields(options).items() if default.get(name) != value}


def record(m) -> dict:
    pxla = importlib.import_module(f"{m.__name__}.interpreters.pxla")
    backend = importlib.import_module(f"{m.__name__}.extend.backend").get_backend()
    xla_client = importlib.import_module(f"{m.__name__}.extend.sharding").xla_client
    devices = np.array(m.devices())
    cases = {
        "one_device": (_module(m, 1), False, [True], [True], devices[:1].reshape(1, 1), {}),
        "two_partitions": (_module(m, 1), False, [True, False], [True], devices[:2].reshape(1, 2), {}),
        "grid_of_four": (_module(m, 1), True, [False], [False], devices[:4].reshape(2, 2), {}),
        "flat_devices": (_module(m, 1), False, [True], [True], devices[:8], {}),
        "seven_operations": (_module(m, 7), False, [True], [True], devices[:1].reshape(1, 1), {}),
        "eight_operations": (_module(m, 8), False, [True], [True], devices[:1].reshape(1, 1), {}),
        "compiler_options": (_module(m, 1), False, [True], [True], devices[:2].reshape(1, 2),
                             {"xla_cpu_enable_fast_math": True, "xla_backend_optimization_level": 1}),
        "fdo_profile": (_module(m, 1), False, [True], [True], devices[:1].reshape(1, 1), {"fdo_profile": b"profile"}),
    }
    outcomes = {}
    for name, (module, tuple_args, inputs, outputs, grid, compiler_options) in cases.items():
        options = pxla.create_compile_options(module, tuple_args, inputs, outputs, backend, grid, compiler_options)
        outcomes[name] = _changed(m, xla_client, options)
    return outcomes


if __name__ == "__main__":
    golden_main.main(record, HERE / "compile_options_golden.json")
