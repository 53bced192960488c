"""Write nn_initializers_golden.json: jaxprs, bits and errors of ``jax.nn.initializers`` for fixed keys, replayed
bit for bit by test_nn_initializers.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_nn_initializers_golden.py jax
"""

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parents[3] / "numpy-api" / "tests" / "golden"))

import jnp_golden  # noqa: E402 - found through the path set just above


def init_case(factory, shape, dtype=None, *args, seed=0, **kwargs):
    """``initializers.<factory>(*args, **kwargs)(key, shape, dtype)`` with the key traced."""
    def build(m):
        init = getattr(m.nn.initializers, factory)(*args, **kwargs)
        call = (lambda key: init(key, shape)) if dtype is None else (lambda key: init(key, shape, dtype))
        return call, [m.random.key(seed)]
    return build


def direct_case(name, shape, dtype=None):
    return lambda m: ((lambda key: getattr(m.nn.initializers, name)(key, shape, dtype)), [m.random.key(1)])


CASES = {
    "zeros": direct_case("zeros", (2, 3)),
    "ones_int32": direct_case("ones", (3,), np.int32),
    "constant": init_case("constant", (2, 2), None, 1.5),
    "constant_int": init_case("constant", (3,), np.int32, 7),
    "uniform": init_case("uniform", (2, 3)),
    "uniform_scale": init_case("uniform", (4,), None, 2),
    "normal": init_case("normal", (3, 2)),
    "normal_bfloat16": init_case("normal", (5,), "bfloat16", 0.5),
    "normal_complex": init_case("normal", (2, 2), np.complex64),
    "normal_int_error": init_case("normal", (2,), np.int32),
    "truncated_normal": init_case("truncated_normal", (2, 3), None, 1.0, lower=-1.0, upper=0.5),
    "legacy_key": lambda m: ((lambda key: m.nn.initializers.lecun_uniform()(key, (3, 2))), [m.random.PRNGKey(4)]),
    "mode_bad": init_case("variance_scaling", (2, 3), None, 1.0, "fan_bad", "normal"),
    "distribution_bad": init_case("variance_scaling", (2, 3), None, 1.0, "fan_in", "cauchy"),
    "rank1_error": init_case("lecun_normal", (3,)),
    "rank1_in_axis": init_case("lecun_normal", (3,), in_axis=0),
    "axes_batch": init_case("variance_scaling", (2, 3, 5, 4), None, 1.0, "fan_avg", "normal", in_axis=(0, 1),
                            batch_axis=2),
    "orthogonal_wide": init_case("orthogonal", (2, 3)),
    "orthogonal_tall_scaled": init_case("orthogonal", (4, 2), None, 2.0),
    "orthogonal_column_axis": init_case("orthogonal", (3, 2, 2), None, column_axis=0),
    "orthogonal_complex": init_case("orthogonal", (2, 2), np.complex64),
    "orthogonal_rank1_error": init_case("orthogonal", (3,)),
    "delta_orthogonal_3d": init_case("delta_orthogonal", (3, 2, 2)),
    "delta_orthogonal_4d": init_case("delta_orthogonal", (2, 3, 2, 3)),
    "delta_orthogonal_5d": init_case("delta_orthogonal", (1, 2, 3, 2, 2), None, 0.5),
    "delta_orthogonal_rank_error": init_case("delta_orthogonal", (3, 3)),
    "delta_orthogonal_fan_error": init_case("delta_orthogonal", (3, 4, 3)),
}
for _mode in ["fan_in", "fan_out", "fan_avg", "fan_geo_avg"]:
    for _distribution in ["truncated_normal", "normal", "uniform"]:
        CASES[f"variance_scaling_{_mode}_{_distribution}"] = init_case(
            "variance_scaling", (3, 4, 5), None, 2.0, _mode, _distribution)
for _distribution in ["truncated_normal", "normal", "uniform"]:
    CASES[f"variance_scaling_complex_{_distribution}"] = init_case(
        "variance_scaling", (2, 3), np.complex64, 1.0, "fan_avg", _distribution)
for _preset in ["glorot_normal", "glorot_uniform", "he_normal", "he_uniform", "kaiming_normal", "kaiming_uniform",
                "lecun_normal", "lecun_uniform", "xavier_normal", "xavier_uniform"]:
    CASES[_preset] = init_case(_preset, (4, 3), seed=2)
CASES["glorot_uniform_out_axis"] = init_case("glorot_uniform", (2, 3, 4), out_axis=0)

if __name__ == "__main__":
    jnp_golden.write(CASES, str(pathlib.Path(__file__).parent / "nn_initializers_golden.json"))
