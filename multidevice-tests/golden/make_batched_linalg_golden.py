"""Write batched_linalg_golden.json: how XLA partitions jitted linear algebra over a batch of matrices split along
mesh axes (of Auto type) on eight CPU devices, recorded from the module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_batched_linalg_golden.py jax

For each case: the layouts of the results, the collectives of the compiled program and the per-device result
shapes of its LAPACK calls (a batch kept split runs each device's own matrices, with no collective). Values are
compared against NumPy and SciPy by the test, not here.
"""

import pathlib
import re

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent


def matrices(shape, spd=False):
    """Random float32 matrices of ``shape`` (symmetric positive definite ones with ``spd``)."""
    a = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    if spd:
        a = a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1], dtype=np.float32)
    return a


def cases(jax):
    """Each case's function, operands (NumPy arrays) and the mesh axes splitting their leading dimensions."""
    linalg, lax = jax.numpy.linalg, jax.lax.linalg
    square, spd = matrices((8, 4, 4)), matrices((8, 4, 4), spd=True)
    qr = linalg.qr
    schur = jax.scipy.linalg.schur
    return {
        "cholesky": (linalg.cholesky, [spd], ("x",)),
        "cholesky_two_batch_dimensions": (linalg.cholesky, [matrices((2, 4, 4, 4), spd=True)], ("x", "y")),
        "eigvalsh": (linalg.eigvalsh, [spd], ("x",)),
        "svd_values": (lambda a: linalg.svd(a, compute_uv=False), [square], ("x",)),
        "qr_product": (lambda a: qr(a)[0] @ qr(a)[1], [square], ("x",)),
        "inv": (linalg.inv, [spd], ("x",)),
        "lu": (lambda a: lax.lu(a)[:2], [square], ("x",)),
        "eigvals": (linalg.eigvals, [square], ("x",)),
        "schur_product": (lambda a: schur(a)[1] @ schur(a)[0] @ jax.numpy.swapaxes(schur(a)[1], -1, -2), [square],
                          ("x",)),
        "solve_triangular": (lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True),
                             [np.tril(spd), matrices((8, 4, 2))], ("x",)),
    }


def mesh_of(jax, axes):
    auto = (jax.sharding.AxisType.Auto,) * len(axes)
    return jax.make_mesh((8,) if len(axes) == 1 else (2, 4), axes, axis_types=auto)


def run_case(jax, name):
    """The jitted case's results (NumPy arrays), their layouts and its compiled program (HLO text)."""
    f, operands, axes = cases(jax)[name]
    mesh = mesh_of(jax, axes)
    split = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*axes))
    args = [jax.device_put(a, split) for a in operands]
    outs = jax.tree.leaves(jax.jit(f)(*args))
    return [np.asarray(o) for o in outs], [str(o.sharding.spec) for o in outs], \
        jax.jit(f).lower(*args).compile().as_text()


def partitioning(jax, name):
    """What the golden records of a case."""
    _, specs, hlo = run_case(jax, name)
    return {
        "specs": specs,
        "collectives": sorted(set(re.findall(
            r"\b(all-gather|all-reduce|all-to-all|collective-permute|reduce-scatter)(?:-start)?\(", hlo))),
        "kernel_results": [re.search(r"= (.+?) custom-call\(", line).group(1) for line in hlo.splitlines()
                           if "custom-call(" in line and "_ffi" in line],
    }


def run(jax):
    return {name: partitioning(jax, name) for name in cases(jax)}


if __name__ == "__main__":
    golden_main.main(run, HERE / "batched_linalg_golden.json")
