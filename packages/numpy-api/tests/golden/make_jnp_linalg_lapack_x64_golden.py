"""Write jnp_linalg_lapack_x64_golden.json: the LAPACK-backed ``jnp.linalg`` functions on float64 and complex128
with 64-bit types enabled, as the named module runs them (the double-precision LAPACK routines).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_linalg_lapack_x64_golden.py jax
"""

import jnp_golden
from jnp_golden import rand
from make_jnp_linalg_lapack_golden import linalg_case, spd

F64, C128 = "float64", "complex128"
SQ = rand((4, 4), F64, 1)
M34 = rand((3, 4), F64, 2)
CSQ = rand((3, 3), C128, 3)
SPD = spd(3, F64, 4)
CSPD = spd(3, C128, 5)

CASES = {
    "cholesky": linalg_case("cholesky", SPD),
    "cholesky_complex": linalg_case("cholesky", CSPD),
    "qr": linalg_case("qr", M34),
    "qr_raw_complex": linalg_case("qr", CSQ, mode="raw"),
    "svd": linalg_case("svd", M34),
    "svd_complex_values": linalg_case("svd", CSQ, compute_uv=False),
    "eigh": linalg_case("eigh", SPD),
    "eigh_complex": linalg_case("eigh", CSPD),
    "eigvals": linalg_case("eigvals", SQ),
    "inv": linalg_case("inv", SQ),
    "solve": linalg_case("solve", SQ, rand((4, 2), F64, 6)),
    "solve_complex": linalg_case("solve", CSQ, rand((3,), C128, 7)),
    "det": linalg_case("det", SQ),
    "det_3x3_complex": linalg_case("det", CSQ),
    "slogdet": linalg_case("slogdet", SQ),
    "slogdet_qr": linalg_case("slogdet", SQ, method="qr"),
    "pinv": linalg_case("pinv", M34),
    "lstsq": linalg_case("lstsq", M34.T, rand((4,), F64, 8)),
    "matrix_rank": linalg_case("matrix_rank", M34),
    "cond": linalg_case("cond", SQ),
    "norm_2": linalg_case("norm", M34, ord=2),
}

if __name__ == "__main__":
    jnp_golden.write_x64(CASES, "jnp_linalg_lapack_x64_golden.json")
