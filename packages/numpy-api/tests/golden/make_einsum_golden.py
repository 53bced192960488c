"""Write einsum_golden.json: jnp.einsum's staged contractions (opt_einsum's order), values, weak types and errors
as the named module runs them.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_einsum_golden.py jax
"""

import jnp_golden
from jnp_golden import rand

F32 = "float32"


def _einsum(subscripts, *shapes_dtypes, **kwargs):
    def build(m):
        return ((lambda *ops: m.numpy.einsum(subscripts, *ops, **kwargs)),
                [rand(s, d, seed) for seed, (s, d) in enumerate(shapes_dtypes)])
    return build


CASES = {
    "matmul": _einsum("ij,jk->ik", ((2, 3), F32), ((3, 4), F32)),
    "implicit_output": _einsum("ij,jk", ((2, 3), F32), ((3, 4), F32)),
    "chain_auto": _einsum("ij,jk,kl->il", ((2, 3), F32), ((3, 4), F32), ((4, 5), F32)),
    "chain_greedy": _einsum("ij,jk,kl->il", ((2, 3), F32), ((3, 4), F32), ((4, 5), F32), optimize="greedy"),
    "chain_optimal": _einsum("ij,jk,kl->il", ((5, 3), F32), ((3, 4), F32), ((4, 2), F32), optimize="optimal"),
    "chain_true": _einsum("ij,jk,kl->il", ((5, 3), F32), ((3, 4), F32), ((4, 2), F32), optimize=True),
    "chain_unoptimized": _einsum("ij,jk,kl->il", ((2, 3), F32), ((3, 4), F32), ((4, 5), F32), optimize=False),
    "chain_explicit_path": _einsum("ij,jk,kl->il", ((2, 3), F32), ((3, 4), F32), ((4, 5), F32),
                                   optimize=[(1, 2), (0, 1)]),
    "four_operands": _einsum("ab,bc,cd,de->ae", ((2, 3), F32), ((3, 4), F32), ((4, 2), F32), ((2, 3), F32)),
    "diagonal": _einsum("ii->i", ((3, 3), F32)),
    "trace": _einsum("ii", ((3, 3), F32)),
    "diagonal_with_free": _einsum("iij->ij", ((3, 3, 2), F32)),
    "triple_diagonal": _einsum("iii->", ((2, 2, 2), F32)),
    "transpose": _einsum("ij->ji", ((2, 3), F32)),
    "sum_all": _einsum("ij->", ((2, 3), F32)),
    "sum_axis": _einsum("ijk->ik", ((2, 3, 4), F32)),
    "batched": _einsum("bij,bjk->bik", ((5, 2, 3), F32), ((5, 3, 4), F32)),
    "batched_transposed_out": _einsum("bij,bjk->kib", ((2, 2, 3), F32), ((2, 3, 4), F32)),
    "outer": _einsum("i,j->ij", ((2,), F32), ((3,), F32)),
    "outer_reversed": _einsum("i,j->ji", ((2,), F32), ((3,), F32)),
    "inner": _einsum("i,i", ((3,), F32), ((3,), F32)),
    "ellipsis": _einsum("...ij,...jk", ((5, 2, 3), F32), ((3, 4), F32)),
    "ellipsis_broadcast": _einsum("...ij,...jk->...ik", ((2, 1, 2, 3), F32), ((4, 3, 2), F32)),
    "singleton_broadcast": _einsum("ij,ij->", ((2, 3), F32), ((1, 3), F32)),
    "unique_and_repeat": _einsum("iij,jk->ik", ((2, 2, 3), F32), ((3, 4), F32)),
    "unique_both_sides": _einsum("ij,kl->", ((2, 3), F32), ((4, 5), F32)),
    "hadamard": _einsum("ij,ij->ij", ((2, 3), F32), ((2, 3), F32)),
    "mixed_int_float": _einsum("i,i", ((3,), "int32"), ((3,), F32)),
    "mixed_sum_converts": _einsum("ij,j->i", ((2, 3), "int32"), ((3,), F32)),
    "int8": _einsum("ij,jk->ik", ((2, 3), "int8"), ((3, 2), "int8")),
    "bool": _einsum("ij,jk->ik", ((2, 3), "bool"), ((3, 2), "bool")),
    "bool_sum": _einsum("ij->i", ((2, 3), "bool")),
    "float16": _einsum("ij,jk->ik", ((2, 3), "float16"), ((3, 2), "float16")),
    "bfloat16_sum": _einsum("ij->j", ((2, 3), "bfloat16")),
    "complex": _einsum("ij,jk->ik", ((2, 3), "complex64"), ((3, 2), "complex64")),
    "preferred_int8": _einsum("i,i", ((3,), "int8"), ((3,), "int8"), preferred_element_type="float32"),
    "preferred_sum": _einsum("ij->i", ((2, 3), "int8"), preferred_element_type="float32"),
    "precision": _einsum("ij,jk->ik", ((2, 3), F32), ((3, 4), F32), precision="highest"),
    "weak_scalar": lambda m: (lambda a: m.numpy.einsum(",i", 2.0, a), [rand((3,), "int32")]),
    "weak_scalar_float": lambda m: (lambda a: m.numpy.einsum("i,->i", a, 3), [rand((3,), F32)]),
    "interleaved": lambda m: (lambda a: m.numpy.einsum(a, [0, 1], a, [1, 2], [0, 2]), [rand((3, 3), F32)]),
    "interleaved_implicit": lambda m: (lambda a, b: m.numpy.einsum(a, [0, 1], b, [1]),
                                       [rand((2, 3), F32), rand((3,), F32, 1)]),
    "interleaved_ellipsis": lambda m: (lambda a: m.numpy.einsum(a, [Ellipsis, 0], [Ellipsis]),
                                       [rand((2, 3), F32)]),
    "list_operand": lambda m: (lambda a: m.numpy.einsum("i,i", [1.0, 2.0], a), [rand((2,), F32)]),
    "string_operand": lambda m: (lambda: m.numpy.einsum("i", "abc"), []),
    "scalar_only": lambda m: (lambda: m.numpy.einsum("", 3.0), []),
    "dot_general_argument": lambda m: (lambda a, b: m.numpy.einsum("ij,jk", a, b, _dot_general=m.lax.dot_general),
                                       [rand((2, 3), F32), rand((3, 2), F32, 1)]),
    "empty": _einsum("ij,jk->ik", ((2, 0), F32), ((0, 3), F32)),
    "error_size_mismatch": _einsum("ij,jk->ik", ((2, 3), F32), ((4, 5), F32)),
    "error_operand_count": _einsum("ij,jk->ik", ((2, 3), F32)),
    "error_subscript_length": _einsum("i,i", ((3,), F32), ((), F32)),
    "error_output_letter": _einsum("ij->k", ((3, 3), F32)),
    "error_out": _einsum("ij->i", ((3, 3), F32), out=1),
    "error_bad_optimize": _einsum("ij,jk->ik", ((2, 3), F32), ((3, 4), F32), optimize="fastest"),
    "jit": lambda m: (m.jit(lambda a, b: m.numpy.einsum("ij,kj->ik", a, b)), [rand((2, 3), F32), rand((4, 3), F32)]),
    "vmap": lambda m: (m.vmap(lambda a, b: m.numpy.einsum("ij,j->i", a, b), in_axes=(0, None)),
                       [rand((5, 2, 3), F32), rand((3,), F32, 1)]),
    "grad": lambda m: (m.grad(lambda a, b: m.numpy.einsum("ij,jk->", a, b), argnums=(0, 1)),
                       [rand((2, 3), F32), rand((3, 4), F32, 1)]),
    "grad_diagonal": lambda m: (m.grad(lambda a: m.numpy.einsum("ii->", a)), [rand((3, 3), F32)]),
}


if __name__ == "__main__":
    jnp_golden.write(CASES, "einsum_golden.json")
