"""Write dot_algorithm_golden.json (dot algorithm presets and DotAlgorithm as the precision of dot_general, dot and
conv: jaxprs, values and the CPU backend's errors) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_dot_algorithm_golden.py jax
"""

import numpy as np
from make_reductions_golden import rand, write

# Small integers: every preset's operand and accumulation types hold the products and sums exactly.
LHS, RHS = rand((2, 3), "int8").astype(np.float32), rand((3, 2), "int8", 1).astype(np.float32)
CPU_PRESETS = ["DEFAULT", "F16_F16_F16", "BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6", "F32_F32_F32",
               "F64_F64_F64"]
OTHER_PRESETS = ["ANY_F8_ANY_F8_F32", "F16_F16_F32", "BF16_BF16_BF16", "BF16_BF16_F32_X9", "TF32_TF32_F32",
                 "TF32_TF32_F32_X3"]

CASES = {}
for _name in CPU_PRESETS:
    CASES[f"dot-{_name}"] = lambda lax, n=_name: (
        lambda a, b: lax.dot(a, b, precision=getattr(lax.DotAlgorithmPreset, n)), (LHS, RHS))
    CASES[f"dot-name-{_name}"] = lambda lax, n=_name: (lambda a, b: lax.dot(a, b, precision=n), (LHS, RHS))
    for _dtype in ["float16", "bfloat16", "int32"]:
        CASES[f"dot-{_name}-{_dtype}"] = lambda lax, n=_name, d=_dtype: (
            lambda a, b: lax.dot(a, b, precision=n), (LHS.astype(d), RHS.astype(d)) if d != "bfloat16" else
            (rand((2, 3), "int8").astype(np.float32).astype(rand((1,), d).dtype),
             rand((3, 2), "int8", 1).astype(np.float32).astype(rand((1,), d).dtype)))
for _name in OTHER_PRESETS:
    CASES[f"err-dot-{_name}"] = lambda lax, n=_name: (lambda a, b: lax.dot(a, b, precision=n), (LHS, RHS))
CASES.update({
    "dot_general-batched-F32_F32_F32": lambda lax: (
        lambda a, b: lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))), precision="F32_F32_F32"),
        (rand((2, 2, 3), "int8").astype(np.float32), rand((2, 3, 2), "int8", 1).astype(np.float32))),
    "dot-preferred-BF16_BF16_F32": lambda lax: (
        lambda a, b: lax.dot(a, b, precision="BF16_BF16_F32", preferred_element_type=np.float32),
        (LHS.astype(rand((1,), "bfloat16").dtype), RHS.astype(rand((1,), "bfloat16").dtype))),
    "conv-F16_F16_F16": lambda lax: (
        lambda x, w: lax.conv_general_dilated(x, w, (1,), "VALID", precision="F16_F16_F16"),
        (rand((1, 2, 5), "int8").astype(np.float32), rand((3, 2, 2), "int8", 1).astype(np.float32))),
    "conv-TF32_TF32_F32": lambda lax: (
        lambda x, w: lax.conv_general_dilated(x, w, (1,), "VALID", precision="TF32_TF32_F32"),
        (rand((1, 2, 5), "int8").astype(np.float32), rand((3, 2, 2), "int8", 1).astype(np.float32))),
    "err-dot-DotAlgorithm": lambda lax: (
        lambda a, b: lax.dot(a, b, precision=lax.DotAlgorithm(np.float32, np.float32, np.float32)), (LHS, RHS)),
    "err-dot-lowercase-name": lambda lax: (lambda a, b: lax.dot(a, b, precision="f32_f32_f32"), (LHS, RHS)),
    "err-dot-pair-of-presets": lambda lax: (
        lambda a, b: lax.dot(a, b, precision=(lax.DotAlgorithmPreset.F32_F32_F32,) * 2), (LHS, RHS)),
})

if __name__ == "__main__":
    write(CASES, "dot_algorithm_golden.json")
