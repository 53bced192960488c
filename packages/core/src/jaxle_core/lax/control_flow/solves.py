"""``custom_linear_solve`` and ``custom_root``: solvers differentiated implicitly, not through their iterations.

``custom_linear_solve(matvec, b, solve)`` binds ``linear_solve_p`` (printed ``custom_linear_solve``), whose
operands are the constants of ``matvec``, ``vecmat`` (the transpose of ``matvec``), ``solve`` and
``transpose_solve``, then the leaves of ``b``. Its params hold each function's jaxpr and its number of
constants, as ``_LinearSolveTuple`` named tuples (JAX's printed name). Running it runs ``solve``; its derivative solves
again with the same operator (``ad/solves.py``), so gradients never go through the solver's loop.

``custom_root(f, initial_guess, solve, tangent_solve)`` is a ``custom_jvp`` function whose rule applies the
implicit function theorem: the tangent of a root ``x*`` of ``f(params, x) = 0`` solves the linear system
``∂f/∂x · dx = -∂f/∂params · dparams``, with ``tangent_solve``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.control_flow.common import TracedFunction, flatten_avals, trace_function
from jaxle_core.lax.elementwise import neg

__all__ = ["custom_linear_solve", "custom_root", "linear_solve_p"]


class _LinearSolveTuple(NamedTuple):
    """One entry per function of a linear solve (a jaxpr, a count of constants, a list of operands...)."""

    matvec: Any
    vecmat: Any
    solve: Any
    transpose_solve: Any

    def transpose(self) -> _LinearSolveTuple:
        """The entries of the transposed system: ``vecmat`` and ``matvec``, ``solve`` and ``transpose_solve`` swap."""
        return type(self)(self.vecmat, self.matvec, self.transpose_solve, self.solve)


linear_solve_p = Primitive("custom_linear_solve")
linear_solve_p.multiple_results = True


def split_linear_solve_args(args: Sequence[Any], const_lengths: NamedTuple) -> tuple[Any, list]:
    """Operands as (a tuple like ``const_lengths`` of each function's constants, the rest): for
    ``custom_linear_solve`` the rest is the leaves of ``b``, for ``custom_root`` the initial guess."""
    groups, start = [], 0
    for n in const_lengths:
        groups.append(list(args[start:start + n]))
        start += n
    return type(const_lengths)(*groups), list(args[start:])


def flatten_groups(groups: _LinearSolveTuple) -> list[Any]:
    """The constants of every function, in operand order."""
    return [x for group in groups for x in group]


def num_aux(jaxprs: _LinearSolveTuple) -> int:
    """How many auxiliary outputs ``solve`` returns after the solution."""
    return len(jaxprs.solve.out_avals) - len(jaxprs.matvec.out_avals)


@linear_solve_p.def_abstract_eval
def _linear_solve_aval(*avals: ShapedArray, const_lengths: _LinearSolveTuple,
                       jaxprs: _LinearSolveTuple) -> list[ShapedArray]:
    # The solution has the type of ``b`` (as in JAX); auxiliary outputs the type ``solve`` gives them.
    n_aux = num_aux(jaxprs)
    return list(avals[sum(const_lengths):]) + (jaxprs.solve.out_avals[-n_aux:] if n_aux else [])


@linear_solve_p.def_impl
def _linear_solve_impl(*args: Any, const_lengths: _LinearSolveTuple, jaxprs: _LinearSolveTuple) -> list[Any]:
    consts, b = split_linear_solve_args(args, const_lengths)
    return core.eval_jaxpr(jaxprs.solve.jaxpr, jaxprs.solve.consts, *consts.solve, *b)


# ---------------------------------------------------------------- tracing the functions


def _trace_with_aux(fun: Callable, in_tree: Any, in_avals: Sequence[ShapedArray], has_aux: bool,
                    traced_for: str) -> tuple[TracedFunction, Any]:
    """``fun`` traced, and the tree of its solution part (``fun`` returns ``(solution, aux)`` with ``has_aux``)."""

    def unpacking(*args):
        solution, aux = fun(*args)
        return solution, aux

    traced = trace_function(unpacking if has_aux else fun, in_tree, in_avals, traced_for)
    solution_tree = tree.treedef_children(traced.out_tree)[0] if has_aux else traced.out_tree
    return traced, solution_tree


def _check_tree(fun_name: str, expected_name: str, actual: Any, expected: Any) -> None:
    if actual != expected:
        raise TypeError(f"{fun_name}() output pytree structure must match {expected_name}, "
                        f"got {actual} and {expected}.")


def _check_shapes(fun_name: str, expected_name: str, actual: Sequence[ShapedArray],
                  expected: Sequence[ShapedArray]) -> None:
    actual_shapes = [a.shape for a in actual[:len(expected)]]
    expected_shapes = [a.shape for a in expected]
    if actual_shapes != expected_shapes:
        raise ValueError(f"{fun_name}() output shapes must match {expected_name}, "
                         f"got {actual_shapes} and {expected_shapes}")


def _traced_operator(fun: Callable, name: str, in_tree: Any, b_tree: Any, b_avals: Sequence[ShapedArray],
                     has_aux: bool = False) -> tuple[TracedFunction, Any]:
    """``fun`` traced on ``b``'s type; its output (without aux) must have ``b``'s tree and shapes."""
    traced, solution_tree = _trace_with_aux(fun, in_tree, b_avals, has_aux, "custom_linear_solve")
    _check_tree(name, "b", solution_tree, b_tree)
    _check_shapes(name, "b", traced.out_avals, b_avals)
    return traced, traced.out_tree


def _transposed(matvec: Callable, b: Any) -> Callable:
    """The transpose of the linear function ``matvec`` at inputs shaped like ``b``."""
    from jaxle_core.ad.reverse import linear_transpose  # local: ad imports lax (its rules)

    transpose = linear_transpose(matvec, b)

    def vecmat(x):
        (y,) = transpose(x)
        return y

    return vecmat


def custom_linear_solve(matvec: Callable, b: Any, solve: Callable, transpose_solve: Callable | None = None,
                        symmetric: bool = False, has_aux: bool = False) -> Any:
    """``x`` with ``matvec(x) == b``, computed by ``solve(matvec, b)`` and differentiated implicitly.

    ``transpose_solve(vecmat, b)`` solves the transposed system (needed for reverse mode); with ``symmetric``
    it defaults to ``solve``. With ``has_aux`` the solvers return ``(x, aux)`` and ``(x, aux)`` is returned.
    """
    if transpose_solve is None and symmetric:
        transpose_solve = solve
    b_flat, in_tree, b_avals = flatten_avals((b,))
    (b_tree,) = tree.treedef_children(in_tree)

    matvec_traced, _ = _traced_operator(matvec, "matvec", in_tree, b_tree, b_avals)
    solve_traced, out_tree = _traced_operator(lambda x: solve(matvec, x), "solve", in_tree, b_tree, b_avals,
                                              has_aux)
    if transpose_solve is None:
        vecmat_traced = transpose_solve_traced = None
    else:
        if symmetric:
            vecmat, vecmat_traced = matvec, matvec_traced
        else:
            vecmat = _transposed(matvec, b)
            vecmat_traced, _ = _traced_operator(vecmat, "vecmat", in_tree, b_tree, b_avals)
        transpose_solve_traced, _ = _traced_operator(lambda x: transpose_solve(vecmat, x), "transpose_solve",
                                                     in_tree, b_tree, b_avals, has_aux)
    traced = _LinearSolveTuple(matvec_traced, vecmat_traced, solve_traced, transpose_solve_traced)
    consts = _LinearSolveTuple(*[t.consts if t is not None else [] for t in traced])
    jaxprs = _LinearSolveTuple(*[t.jaxpr if t is not None else None for t in traced])
    const_lengths = _LinearSolveTuple(*map(len, consts))
    args = [*flatten_groups(consts), *b_flat]
    if core.evaluates_eagerly(args):  # as JAX's, an eager solve runs its jaxpr equation by equation
        outs = _linear_solve_impl(*args, const_lengths=const_lengths, jaxprs=jaxprs)
    else:
        outs = linear_solve_p.bind(*args, const_lengths=const_lengths, jaxprs=jaxprs)
    return tree.tree_unflatten(out_tree, outs)


# ---------------------------------------------------------------- custom_root


class _RootTuple(NamedTuple):
    """One entry per function of a root finding: ``f``, ``solve`` and ``l_and_s`` (linearize and solve)."""

    f: Any
    solve: Any
    l_and_s: Any


def _custom_root(const_lengths: _RootTuple, jaxprs: _RootTuple, *args: Any) -> list[Any]:
    consts, initial_guess = split_linear_solve_args(args, const_lengths)
    return core.eval_jaxpr(jaxprs.solve.jaxpr, jaxprs.solve.consts, *consts.solve, *initial_guess)


def _root_jvp(const_lengths: _RootTuple, jaxprs: _RootTuple, primals: tuple, tangents: tuple):
    # With f(params, x*(params)) = 0: dx* = -(∂f/∂x)^-1 (∂f/∂params · dparams). The right-hand side is f's tangent
    # in its constants at the solution; the inverse is tangent_solve applied to f linearized there (l_and_s).
    from jaxle_core.ad.jvp import Zero, instantiate, jvp_flat, tangent_aval  # local: ad imports lax (its rules)

    consts, _ = split_linear_solve_args(primals, const_lengths)
    consts_dot, _ = split_linear_solve_args(tangents, const_lengths)
    outs = _custom_root_function()(const_lengths, jaxprs, *primals)
    n_solution = len(jaxprs.f.out_avals)
    solution, aux = outs[:n_solution], outs[n_solution:]
    f, l_and_s = jaxprs.f, jaxprs.l_and_s

    def f_at_solution(*params):
        return core.eval_jaxpr(f.jaxpr, f.consts, *params, *solution), None

    _, rhs, _ = jvp_flat(f_at_solution, consts.f, consts_dot.f)
    step = core.eval_jaxpr(l_and_s.jaxpr, l_and_s.consts, *consts.l_and_s, *solution, *map(instantiate, rhs))
    return outs, [neg(t) for t in step] + [Zero(tangent_aval(get_aval(a))) for a in aux]


@functools.cache
def _custom_root_function() -> Any:
    """``_custom_root`` as a ``custom_jvp`` function (made on first use: custom_derivatives imports ``lax``)."""
    from jaxle_core.custom_derivatives import custom_jvp  # local: custom_derivatives imports ad, which imports lax

    root = custom_jvp(_custom_root, nondiff_argnums=(0, 1))
    root.defjvp(_root_jvp)
    return root


def custom_root(f: Callable, initial_guess: Any, solve: Callable, tangent_solve: Callable,
                has_aux: bool = False) -> Any:
    """A root of ``f`` found by ``solve(f, initial_guess)``, differentiated by the implicit function theorem.

    ``tangent_solve(g, y)`` solves the linear system ``g(x) == y`` for the linearization ``g`` of ``f`` at the
    root. With ``has_aux``, ``solve`` returns ``(root, aux)`` and so does this function.
    """
    from jaxle_core.ad.reverse import linearize  # local: ad imports lax (its rules)

    guess_flat, in_tree, guess_avals = flatten_avals((initial_guess,))
    (guess_tree,) = tree.treedef_children(in_tree)
    f_traced = trace_function(f, in_tree, guess_avals, "custom_root")
    _check_tree("f", "initial_guess", f_traced.out_tree, guess_tree)
    solve_traced, solution_tree = _trace_with_aux(lambda x: solve(f, x), in_tree, guess_avals, has_aux,
                                                 "custom_root")
    _check_tree("solve", "initial_guess", solution_tree, guess_tree)

    def linearize_and_solve(x, rhs):
        _, f_jvp = linearize(f, x)
        return tangent_solve(f_jvp, rhs)

    pair_tree = tree.treedef_tuple([guess_tree, guess_tree])
    l_and_s_traced = trace_function(linearize_and_solve, pair_tree, guess_avals * 2, "custom_root")
    _check_tree("tangent_solve", "x", l_and_s_traced.out_tree, guess_tree)

    traced = _RootTuple(f_traced, solve_traced, l_and_s_traced)
    const_lengths = _RootTuple(*[len(t.consts) for t in traced])
    jaxprs = _RootTuple(*[t.jaxpr for t in traced])
    consts = [c for t in traced for c in t.consts]
    outs = _custom_root_function()(const_lengths, jaxprs, *consts, *guess_flat)
    return tree.tree_unflatten(solve_traced.out_tree, outs)
