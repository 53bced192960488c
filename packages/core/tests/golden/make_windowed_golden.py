"""Write windowed_golden.json (lax reduce_window, its primitives and the pooling gradients) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_windowed_golden.py jax

The pooling-gradient primitives are reached through ``jax.vjp``/``jax.jvp`` only when the module has them.
"""

import numpy as np
from make_reductions_golden import rand, write

CONFIGS = {
    "valid": dict(window_dimensions=(2, 2), window_strides=(1, 1), padding="VALID"),
    "same-strided": dict(window_dimensions=(2, 3), window_strides=(2, 1), padding="SAME"),
    "same-lower": dict(window_dimensions=(3, 2), window_strides=(1, 2), padding="SAME_LOWER"),
    "explicit": dict(window_dimensions=(2, 2), window_strides=(1, 1), padding=((1, 0), (2, 1))),
    "negative-pad": dict(window_dimensions=(1, 2), window_strides=(1, 1), padding=((-1, 0), (0, 0))),
    "dilated": dict(window_dimensions=(2, 2), window_strides=(1, 1), padding="SAME", base_dilation=(2, 1),
                    window_dilation=(1, 2)),
    "too-big": dict(window_dimensions=(5, 1), window_strides=(1, 1), padding="VALID"),
}
MONOIDS = {"add": 0, "max": -np.inf, "min": np.inf}
CASES = {}
for _config, _kw in CONFIGS.items():
    for _dtype in ["float32", "int32", "bfloat16", "bool"]:
        for _op, _init in MONOIDS.items():
            if _dtype == "bool" and _op == "add":
                continue
            if _dtype in ("int32", "bool"):
                _init = {"add": 0, "max": np.iinfo(np.int32).min, "min": np.iinfo(np.int32).max}[_op]
                _init = np.int32(_init) if _dtype == "int32" else np.bool_(_op == "min")
            CASES[f"{_op}-{_config}-{_dtype}"] = lambda lax, o=_op, i=_init, d=_dtype, kw=_kw: (
                lambda x: lax.reduce_window(x, i, getattr(lax, o), **kw), (rand((4, 5), d),))
    CASES[f"mul-{_config}"] = lambda lax, kw=_kw: (
        lambda x: lax.reduce_window(x, np.float32(1), lax.mul, **kw), (rand((4, 5), "float32"),))
    CASES[f"lambda-{_config}"] = lambda lax, kw=_kw: (
        lambda x: lax.reduce_window(x, 0.0, lambda a, b: lax.max(a, b * 2.0), **kw), (rand((4, 5), "float32"),))
CASES.update({
    "add-nonzero-init": lambda lax: (lambda x: lax.reduce_window(x, 1.0, lax.add, (2,), (1,), "VALID"),
                                     (rand((5,), "float32"),)),
    "max-nan": lambda lax: (lambda x: lax.reduce_window(x, -np.inf, lax.max, (2,), (1,), "VALID"),
                            (np.array([1.0, np.nan, 2.0, -0.0, 0.0], np.float32),)),
    "default-strides": lambda lax: (lambda x: lax.reduce_window(x, 0.0, lax.add, (2, 2)), (rand((3, 3), "float32"),)),
    "weak": lambda lax: (lambda: lax.reduce_window(lax.broadcast(2.0, (3,)), 0.0, lax.add, (2,), (1,), "VALID"), ()),
    "pair": lambda lax: (
        lambda x, y: lax.reduce_window((x, y), (0.0, 1.0), lambda a, b: (lax.add(a[0], b[0]), lax.mul(a[1], b[1])),
                                       (2, 2), (1, 1), "VALID"), (rand((3, 4), "float32"), rand((3, 4), "float32", 1))),
    "padtype-same": lambda lax: (lambda: np.array(lax.padtype_to_pads((5, 6), (2, 3), (2, 1), "SAME")), ()),
    "padtype-same-lower": lambda lax: (lambda: np.array(lax.padtype_to_pads((5, 6), (2, 3), (2, 1), "SAME_LOWER")),
                                       ()),
    "padtype-valid": lambda lax: (lambda: np.array(lax.padtype_to_pads((5, 6), (2, 3), (2, 1), "VALID")), ()),
    "err-padtype": lambda lax: (lambda: lax.padtype_to_pads((5,), (2,), (1,), "FOO"), ()),
    "err-init-dtype": lambda lax: (lambda x: lax.reduce_window(x, np.int32(1), lax.mul, (2,), (1,), "VALID"),
                                   (rand((5,), "float32"),)),
    "err-rank": lambda lax: (lambda x: lax.reduce_window(x, 0.0, lax.add, (2,), (1,), "VALID"),
                             (rand((3, 3), "float32"),)),
})
# A non-identity init value is folded in once per window; padding and dilation holes are skipped.
_AFFINE = {  # name: (init, window_dimensions, window_strides, padding, base_dilation, window_dilation)
    "pad-low": (1.0, (3,), (1,), ((2, 0),), None, None),
    "pad-only-windows": (3.0, (2,), (1,), ((3, 0),), None, None),
    "base-dilation": (1.0, (2,), (1,), ((0, 0),), (2,), None),
    "dilations-pad": (1.0, (3,), (2,), ((1, 2),), (2,), (2,)),
    "pad-high-stride": (0.5, (3,), (2,), ((1, 3),), None, None),
}
for _case, (_init, _dims, _strides, _pads, _base, _win) in _AFFINE.items():
    CASES[f"affine-{_case}"] = lambda lax, i=_init, d=_dims, s=_strides, p=_pads, b=_base, w=_win: (
        lambda x: lax.reduce_window(x, i, lambda a, c: a * 2.0 + c, d, s, p, b, w), (np.arange(4.0, dtype=np.float32),))
CASES["affine-2d-pair"] = lambda lax: (
    lambda x, y: lax.reduce_window((x, y), (1.0, 2.0), lambda a, b: (a[0] * 2.0 + b[0], a[1] * b[1] + 1.0), (2, 2),
                                   (1, 2), ((1, 0), (0, 1)), (1, 2)),
    (rand((3, 3), "float32"), rand((3, 3), "float32", 1)))
CASES["affine-empty"] = lambda lax: (
    lambda x: lax.reduce_window(x, 3.0, lambda a, c: a * 2.0 + c, (2,), (1,), ((3, 0),)), (rand((0,), "float32"),))


def _pooling_case(kind, config):
    def build(lax):
        import importlib

        api = importlib.import_module(lax.__name__.rsplit(".", 1)[0])
        kw = CONFIGS[config]
        op, init = (lax.max, -np.inf) if kind.endswith("max") else (lax.min, np.inf)
        pool = lambda x: lax.reduce_window(x, init, op, **kw)  # noqa: E731
        source = rand(pool(rand((4, 5), "float32")).shape, "float32", 2)
        if kind.startswith("vjp"):
            return (lambda x: api.vjp(pool, x)[1](source)[0], (rand((4, 5), "float32"),))
        return (lambda x, t: api.jvp(pool, (x,), (t,))[1], (rand((4, 5), "float32"), rand((4, 5), "float32", 3)))

    return build


POOLING_CASES = {f"{kind}-{config}": _pooling_case(kind, config)
                 for kind in ["vjp-max", "vjp-min", "jvp-max", "jvp-min"]
                 for config in ["valid", "same-strided", "same-lower", "explicit"]}

if __name__ == "__main__":
    write({**CASES, **POOLING_CASES}, "windowed_golden.json")
