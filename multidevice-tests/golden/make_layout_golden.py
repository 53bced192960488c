"""Write layout_golden.json: what JAX 0.10.2's ``jax.experimental.layout`` gives on 8 CPU devices: ``Format`` and
``Layout`` objects and their errors, ``Array.format``, ``device_put`` onto a ``Format``, ``jit`` given ``Format``s
as in/out shardings, and compiled functions' ``input_formats``/``output_formats``:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_layout_golden.py jax

With another module (jaxle) it prints its outcomes as JSON instead of writing them. The device count is read when
the client starts, so it runs in a fresh interpreter.
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, unqualified_classes

HERE = pathlib.Path(__file__).parent


def _cases(m):
    jnp, sharding = m.numpy, m.sharding
    layout = importlib.import_module(f"{m.__name__}.experimental.layout")
    Format, Layout = layout.Format, layout.Layout
    first = sharding.SingleDeviceSharding(m.devices()[0])
    second = sharding.SingleDeviceSharding(m.devices()[1])
    mesh = m.make_mesh((2, 4), ("a", "b"))
    rows = sharding.NamedSharding(mesh, sharding.PartitionSpec("a"))
    x = jnp.arange(12.0).reshape(3, 4)
    wide = jnp.arange(24.0).reshape(4, 6)
    column_major = Format(Layout((1, 0)), first)
    double = lambda a: a * 2  # noqa: E731 - small cases read best inline
    pair = lambda a, b: (a @ b, a + 1)  # noqa: E731
    put = lambda value, fmt: m.device_put(value, fmt)  # noqa: E731
    return {
        "format_default": lambda: Format(),
        "format_auto": lambda: Format(Layout.AUTO),
        "format_auto_sharded": lambda: Format(Layout.AUTO, first),
        "format_sharding_only": lambda: Format(None, rows),
        "format_layout_and_sharding": lambda: Format(Layout((0,)), first),
        "format_layout_without_sharding": lambda: Format(Layout((1, 0))),
        "format_sharding_as_layout": lambda: Format(rows),
        "format_bad_layout": lambda: Format(3),
        "format_bad_sharding": lambda: Format(Layout((0,)), 3),
        "format_equal": lambda: (Format(Layout((1, 0)), first) == Format(Layout((1, 0)), first),
                                 Format(Layout((1, 0)), first) == Format(Layout((1, 0), ()), first),
                                 hash(Format(Layout.AUTO)) == hash(Format(Layout.AUTO)), Format() == 3),
        "layout_fields": lambda: (Layout((1, 0), ((8,),)), Layout([1, 0], sub_byte_element_size_in_bits=4),
                                  Layout((1, 0)).major_to_minor, Layout((1, 0)) == Layout((1, 0), ())),
        "layout_update": lambda: (Layout((1, 0)).update(major_to_minor=(0, 1)), Layout((1, 0)).update(tiling=((2,),))),
        "layout_auto": lambda: (Layout.AUTO, str(Format(Layout.AUTO)), Layout.AUTO == Layout.AUTO),
        "layout_compatible": lambda: Layout((1, 0)).check_compatible_aval((3, 4)),
        "layout_incompatible": lambda: Layout((1, 0)).check_compatible_aval((3,)),
        "layout_not_a_sequence": lambda: Layout(3),
        "array_format": lambda: (x.format, jnp.float32(1).format, jnp.arange(3).format),
        "array_format_sharded": lambda: m.device_put(wide, rows).format,
        "put_default": lambda: put(x, Format()),
        "put_sharding_only": lambda: put(x, Format(None, second)).format,
        "put_column_major": lambda: put(x, column_major).format,
        "put_column_major_values": lambda: np.asarray(put(x, column_major)).tolist(),
        "put_column_major_computed": lambda: ((put(x, column_major) + 1).format,
                                              np.asarray(put(x, column_major) * 2).tolist()),
        "put_column_major_jitted_again": lambda: _called_after(m.jit(lambda a: a @ jnp.eye(4)), x,
                                                               put(x, column_major)),
        "put_tiled": lambda: (put(x, Format(Layout((0, 1), ((2,),)), first)).format,
                              np.asarray(put(x, Format(Layout((0, 1), ((2,),)), first))).tolist()),
        "put_sharded_column_major": lambda: (put(wide, Format(Layout((1, 0)), rows)).format,
                                             np.asarray(put(wide, Format(Layout((1, 0)), rows))).tolist()),
        "put_auto": lambda: put(x, Format(Layout.AUTO)),
        "put_wrong_rank": lambda: put(x, Format(Layout((0,)), first)),
        "jit_in_layout": lambda: m.jit(double, in_shardings=column_major).lower(x).compile().input_formats,
        "jit_in_layout_call": lambda: (m.jit(double, in_shardings=column_major)(x).format,
                                       np.asarray(m.jit(double, in_shardings=column_major)(x)).tolist()),
        "jit_out_layout": lambda: (m.jit(double, out_shardings=column_major).lower(x).compile().output_formats,
                                   m.jit(double, out_shardings=column_major)(x).format,
                                   np.asarray(m.jit(double, out_shardings=column_major)(x)).tolist()),
        "jit_auto": lambda: (m.jit(double, in_shardings=Format(Layout.AUTO)).lower(x).compile().input_formats,
                             m.jit(double, out_shardings=Format(Layout.AUTO))(x).format),
        "jit_sharding_only": lambda: m.jit(double, in_shardings=Format(None, first)).lower(x).compile().input_formats,
        "jit_wrong_rank": lambda: m.jit(double, in_shardings=column_major).lower(jnp.ones(3)),
        "jit_wrong_rank_output": lambda: m.jit(double, out_shardings=column_major).lower(jnp.ones(3)),
        "compiled_formats": lambda: (lambda c: (c.input_formats, c.output_formats))(
            m.jit(pair).lower(jnp.ones((8, 4)), jnp.ones((4, 2))).compile()),
        "compiled_formats_pruned": lambda: m.jit(lambda a, b: a * 2).lower(x, x).compile().input_formats,
        "compiled_formats_sharded": lambda: (lambda c: (c.input_formats, c.output_formats))(
            m.jit(double).lower(m.device_put(wide, rows)).compile()),
        "lowered_from_laid_out_array": lambda: m.jit(double).lower(put(x, column_major)).compile().input_formats,
        **_compiled_call_cases(m, x, put(x, column_major)),
        "struct_format": lambda: (m.ShapeDtypeStruct((3, 4), jnp.float32, sharding=column_major),
                                  m.ShapeDtypeStruct((3, 4), jnp.float32, sharding=column_major).format,
                                  m.ShapeDtypeStruct((3, 4), jnp.float32, sharding=column_major).sharding,
                                  m.ShapeDtypeStruct((3, 4), jnp.float32).format),
        **_constraint_cases(m, layout, x),
        "lowered_from_struct": lambda: m.jit(double).lower(
            m.ShapeDtypeStruct((3, 4), jnp.float32, sharding=column_major)).compile().input_formats,
    }


def _compiled_call_cases(m, x, laid_out):
    """A compiled function called with arrays in other layouts than it was compiled for: host values and
    uncommitted arrays are converted, committed arrays refused."""
    jnp = m.numpy
    add = m.jit(lambda a, b: a * 2 + b)
    row_major, column_major = add.lower(x, x).compile(), add.lower(laid_out, x).compile()
    called = lambda c, *args: (c(*args).format.layout, np.asarray(c(*args)).tolist())  # noqa: E731
    return {
        "compiled_called_column_major": lambda: called(row_major, laid_out, x),
        "compiled_called_both_column_major": lambda: called(row_major, laid_out, laid_out),
        "compiled_for_column_major_host": lambda: called(column_major, np.asarray(x), x),
        "compiled_for_column_major_uncommitted": lambda: called(column_major, jnp.asarray(x), x),
        "compiled_for_column_major_committed": lambda: called(column_major, m.device_put(x, m.devices()[0]), x),
        "compiled_for_column_major_called_so": lambda: called(column_major, laid_out, laid_out),
        "jit_called_both_layouts": lambda: (m.jit(lambda a: a * 2)(laid_out).format.layout,
                                            m.jit(lambda a: a * 2)(x).format.layout),
    }


def _constraint_cases(m, layout, x):
    """``with_layout_constraint``: its jaxprs (under vmap and differentiation too), lowered text, values, the layout
    of a result it computes, and its errors."""
    jnp, Layout, constrain = m.numpy, layout.Layout, layout.with_layout_constraint
    column_major = Layout((1, 0))
    doubled = lambda a: constrain(a * 2, column_major)  # noqa: E731 - small cases read best inline
    result_layout_chosen = lambda f, *args: 'mhlo.layout_mode = "auto"' in next(  # noqa: E731
        line for line in m.jit(f).lower(*args).as_text().splitlines() if "func.func public @main" in line)
    custom_call = lambda f, *args: next(line.strip() for line in m.jit(f).lower(*args).as_text().splitlines()  # noqa: E731
                                        if "LayoutConstraint" in line)
    return {
        "constraint_jaxpr": lambda: str(m.make_jaxpr(doubled)(x)),
        "constraint_tree": lambda: str(m.make_jaxpr(lambda a, b: constrain((a, b), (column_major, Layout((0,)))))(
            x, jnp.ones(3))),
        "constraint_prefix": lambda: str(m.make_jaxpr(lambda a, b: constrain((a, b), column_major))(x, x)),
        "constraint_scalar": lambda: str(m.make_jaxpr(lambda a: constrain(a, Layout(())))(1.0)),
        "constraint_vmap": lambda: str(m.make_jaxpr(m.vmap(lambda a: constrain(a * 2, Layout((0,)))))(x)),
        "constraint_vmap_axis1": lambda: str(m.make_jaxpr(m.vmap(lambda a: constrain(a * 2, Layout((0,))),
                                                                 in_axes=1))(x)),
        "constraint_jvp": lambda: str(m.make_jaxpr(lambda a: m.jvp(lambda v: constrain(v, column_major), (a,),
                                                                   (a,)))(x)),
        "constraint_grad": lambda: (str(m.make_jaxpr(m.grad(lambda a: doubled(a).sum()))(x)),
                                    np.asarray(m.grad(lambda a: (constrain(a, column_major) ** 2).sum())(x)).tolist()),
        "constraint_text": lambda: (custom_call(lambda a: constrain(a, Layout((1, 0), ((2,),))), x),
                                    custom_call(lambda a: constrain(a, Layout(())), 1.0)),
        "constraint_result_layout": lambda: (result_layout_chosen(doubled, x),
                                             result_layout_chosen(lambda a: doubled(a) + 1, x)),
        "constraint_values": lambda: (np.asarray(m.jit(lambda a: constrain(a.T * 1, column_major) + 1)(x)).tolist(),
                                      m.jit(lambda a: (doubled(a), a + 1))(x)[0].format.layout,
                                      np.asarray(constrain(x, column_major)).tolist(),
                                      constrain(x, column_major).format.layout),
        "constraint_not_a_layout": lambda: constrain(x, 3),
        "constraint_a_format": lambda: constrain(x, layout.Format(column_major, m.sharding.SingleDeviceSharding(
            m.devices()[0]))),
        "constraint_auto": lambda: m.jit(lambda a: constrain(a, Layout.AUTO))(x),
        "constraint_none": lambda: constrain([x, x], [column_major, None]),
        "constraint_wrong_rank": lambda: m.jit(lambda a: constrain(a, Layout((0,))))(x),
    }


def _called_after(jitted, warm, laid_out) -> list:
    """``jitted``'s values of ``laid_out`` once calls of ``warm`` (in the default layout) have made it fast."""
    jitted(warm)
    jitted(warm)
    return [np.asarray(jitted(laid_out)).tolist(), np.asarray(jitted(warm)).tolist()]


def _outcome(case) -> str:
    """The repr of what ``case`` returns, or the type and message of its error; classes are named without their
    module (JAX's are in ``jax._src``)."""
    return unqualified_classes(outcome(lambda: repr(case())))


def record(m):
    return {name: _outcome(case) for name, case in _cases(m).items()}


if __name__ == "__main__":
    golden_main.main(record, HERE / "layout_golden.json")
