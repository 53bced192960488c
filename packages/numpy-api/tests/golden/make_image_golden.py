"""Golden values for ``jax.image``: ``resize`` with every method, up and down, antialiased or not, dtypes, and
``scale_and_translate``; errors. Values only (jaxle stages its own jaxprs for these).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_image_golden.py jax
"""

import importlib
import json
import sys

import numpy as np
from jnp_golden import HERE, value_record

IMAGE = (np.arange(30, dtype=np.float32).reshape(3, 5, 2) ** 1.5) % 17.0


def cases(image):
    out = {}
    for method in ("nearest", "linear", "bilinear", "cubic", "bicubic", "lanczos3", "lanczos5"):
        out[f"{method}_up"] = lambda m, method=method: image.resize(IMAGE, (5, 7, 2), method)
        out[f"{method}_down"] = lambda m, method=method: image.resize(IMAGE, (2, 3, 2), method)
        out[f"{method}_down_aliased"] = lambda m, method=method: image.resize(IMAGE, (2, 3, 2), method,
                                                                           antialias=False)
        out[f"{method}_mixed"] = lambda m, method=method: image.resize(IMAGE, (2, 8, 3), method)
    out.update({
        "linear_enum": lambda m: image.resize(IMAGE, (4, 4, 2), image.ResizeMethod.LINEAR),
        "cubic_pytorch_up": lambda m: image.resize(IMAGE, (5, 7, 2), image.ResizeMethod.CUBIC_PYTORCH),
        "cubic_pytorch_down": lambda m: image.resize(IMAGE, (2, 3, 2), image.ResizeMethod.CUBIC_PYTORCH),
        "area_up": lambda m: image.resize(IMAGE, (5, 7, 2), image.ResizeMethod.AREA),
        "area_down": lambda m: image.resize(IMAGE, (2, 3, 2), image.ResizeMethod.AREA),
        "area_down_aliased": lambda m: image.resize(IMAGE, (2, 3, 2), image.ResizeMethod.AREA, antialias=False),
        "linear_int": lambda m: image.resize(np.arange(12, dtype=np.int32).reshape(3, 4), (2, 2), "linear"),
        "nearest_int": lambda m: image.resize(np.arange(12, dtype=np.int32).reshape(3, 4), (5, 6), "nearest"),
        "linear_float16": lambda m: image.resize(IMAGE.astype(np.float16), (4, 4, 2), "linear"),
        "linear_jit": lambda m: m.jit(lambda x: image.resize(x, (4, 3, 2), "cubic"))(IMAGE),
        "scale_and_translate": lambda m: image.scale_and_translate(
            IMAGE, (5, 8, 2), (0, 1), np.array([1.3, 1.5], np.float32), np.array([0.5, -1.0], np.float32), "linear"),
        "scale_and_translate_lanczos": lambda m: image.scale_and_translate(
            IMAGE, (3, 3, 2), (0, 1), np.array([0.7, 0.4], np.float32), np.array([0.0, 0.25], np.float32),
            "lanczos3", antialias=False),
        "bad_shape": lambda m: image.resize(IMAGE, (5,), "linear"),
        "bad_method": lambda m: image.resize(IMAGE, (4, 4, 2), "foo"),
    })
    return out


def run(m, image) -> dict:
    records = {}
    for name, build in cases(image).items():
        try:
            records[name] = {"value": value_record(build(m))}
        except Exception as error:  # noqa: BLE001 - the error is what we record
            records[name] = {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    return records


if __name__ == "__main__":
    m = importlib.import_module(sys.argv[1])
    records = run(m, importlib.import_module(f"{sys.argv[1]}.image"))
    (HERE / "image_golden.json").write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} cases -> {HERE / 'image_golden.json'}")
