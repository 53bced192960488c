"""Symbolic dimensions: array sizes written as integer polynomials of named variables (shape polymorphism).

A dimension expression is a sum of terms, each an integer coefficient times a product of factors raised to powers;
a factor is a variable (``b``, at least 1) or an operation on expressions (``floordiv``, ``mod``, ``max``, ``min``,
``non_negative``). Expressions are kept normalized, so ``b*n + n*b`` and ``2*n*b`` are the same object up to ``==``;
one whose every term cancels is a plain ``int``. Comparisons are decided from bounds derived from the variables'
ranges, the operations' properties and the user's constraints, and raise ``InconclusiveDimensionOperation`` when
those do not decide them. Variables belong to a ``SymbolicScope`` holding the constraints; scopes do not mix.
"""

from __future__ import annotations

import io
import math
import operator
import sys
import tokenize
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

__all__ = ["DimExpr", "InconclusiveDimensionOperation", "SymbolicScope", "UnexpectedDimVar", "dimension_as_value",
           "evaluate", "is_constant_dim", "is_symbolic_dim", "linear_in_one_variable", "max_dim", "min_dim",
           "non_negative_dim", "solve_dimension_variables", "symbolic_args_specs", "symbolic_shape", "variable_name"]


class InconclusiveDimensionOperation(Exception):
    """A comparison or operation on symbolic dimensions whose result differs for different values of them."""


class UnexpectedDimVar(Exception):
    """A program computes with a dimension variable that none of its arguments' shapes carries."""


_INCONCLUSIVE_HELP = (
    "\nThis error arises for comparison operations with shapes that\n"
    "are non-constant, and the result of the operation cannot be represented as\n"
    "a boolean value for all values of the symbolic dimensions involved.\n\n"
    "Please see https://docs.jax.dev/en/latest/export/shape_poly.html#comparison-of-symbolic-dimensions-is-partially-"
    "supported\nfor more details.\n")
_SCOPES_HELP = "See https://docs.jax.dev/en/latest/export/shape_poly.html#user-specified-symbolic-constraints."

# The order of operations among factors (after variables), which fixes how expressions print.
_OPERATIONS = ("floordiv", "mod", "non_negative", "max", "min")
_JAXLE_PACKAGES = {"jaxle", "jaxle_core", "jaxle_numpy", "jaxle_random", "jaxle_tree", "jaxle_xla"}


def _caller_location() -> str:
    """Where user code (the first frame outside jaxle's packages) created a scope: ``file:line:col (function)``."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] in _JAXLE_PACKAGES:
        frame = frame.f_back
    if frame is None:
        return "unknown"
    code = frame.f_code
    column = ""
    for start, _, col, _ in code.co_positions():
        if start == frame.f_lineno and col is not None:
            column = f":{col}"
            break
    return f"{code.co_filename}:{frame.f_lineno}{column} ({code.co_name})"


class _Factor:
    """A variable, or an operation applied to expressions (its operands, kept as written)."""

    __slots__ = ("name", "operation", "operands", "key", "_hash")

    def __init__(self, name: str | None, operation: str | None = None, operands: tuple = ()):
        self.name = name
        self.operation = operation
        self.operands = operands
        self.key = (0, name) if name is not None else (1, _OPERATIONS.index(operation),
                                                       tuple(_expr_key(o) for o in operands))
        self._hash = hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Factor) and self.key == other.key

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        if self.name is not None:
            return self.name
        return f"{self.operation}({', '.join(_format_terms(_terms_of(o)) for o in self.operands)})"


# A term is a tuple of (factor, power) sorted by factor; the constant term is the empty tuple.
Term = tuple


def _term_key(term: Term) -> tuple:
    """Terms order by degree, then by their factors (each repeated by its power) in order."""
    return (sum(p for _, p in term), tuple(f.key for f, p in term for _ in range(p)))


def _terms_of(e: Any) -> tuple:
    return e._terms if isinstance(e, _DimExpr) else (((), e),) if e else ()


def _expr_key(e: Any) -> tuple:
    return tuple((_term_key(t), c) for t, c in _terms_of(e))


def _format_term(term: Term, coeff: int) -> str:
    if not term:
        return str(coeff)
    monomial = "*".join(str(f) if p == 1 else f"{f}^{p}" for f, p in term)
    return monomial if coeff == 1 else f"{coeff}*{monomial}"


def _format_terms(terms: tuple) -> str:
    if not terms:
        return "0"
    parts = []
    for i, (term, coeff) in enumerate(terms):
        text = _format_term(term, abs(coeff))
        parts.append(("- " if coeff < 0 else "") + text if i == 0 else (" - " if coeff < 0 else " + ") + text)
    return "".join(parts)


def _multiply_terms(t1: Term, t2: Term) -> Term:
    powers = dict(t1)
    for f, p in t2:
        powers[f] = powers.get(f, 0) + p
    return tuple(sorted(powers.items(), key=lambda fp: fp[0].key))


class SymbolicScope:
    """The constraints that hold among a set of symbolic dimensions (``"a >= b"``, ``"a == 2*c"``, ...)."""

    def __init__(self, constraints_str: Sequence[str] = ()):
        if isinstance(constraints_str, str) or not isinstance(constraints_str, Sequence):
            raise ValueError(f"The symbolic constraints should be a sequence of strings. Got {constraints_str!r}")
        self._location = _caller_location()
        self._constraints_str = tuple(constraints_str)
        self._inequalities: list[dict] = []  # each {term: coefficient} is >= 0
        self._checks: list[tuple[str, Any]] = []  # (constraint, the expression it says is >= 0), checked at calls
        self._substitutions: dict[Term, tuple[int, Any]] = {}  # c*term == expression, applied when normalizing
        self._bounds_cache: dict[tuple, tuple] = {}
        for constraint in self._constraints_str:
            self._add_constraint(constraint)

    def _add_constraint(self, constraint: str) -> None:
        for comparison in ("==", ">=", "<="):
            if comparison in constraint:
                break
        else:
            raise ValueError("Constraint parsing error: must contain one of '==' or '>=' or '<='")
        lhs_str, rhs_str = constraint.split(comparison, 1)
        lhs, rhs = _parse_expression(lhs_str, self), _parse_expression(rhs_str, self)
        if comparison == "==":
            terms = _terms_of(lhs)
            if len(terms) != 1 or not terms[0][0]:
                raise ValueError("Invalid equality constraint: {e1} == {e2}. "
                                 "The left-hand-side must be of the form `term * coefficient`.")
            if lhs != rhs:
                self._substitutions[terms[0][0]] = (terms[0][1], rhs)
            return
        difference = lhs - rhs if comparison == ">=" else rhs - lhs
        self._checks.append((constraint, difference))
        self._inequalities.append({t: Fraction(c) for t, c in _terms_of(difference)})
        self._bounds_cache.clear()

    def __str__(self) -> str:
        text = f"{id(self)} created at {self._location}"
        if self._constraints_str:
            text += " with constraints:\n" + "\n".join(f"  {c}" for c in self._constraints_str)
        return text

    __repr__ = __str__

    def _check_same(self, other: SymbolicScope, what: str, found: Any) -> None:
        if other is not self:
            raise ValueError(f"Invalid mixing of symbolic scopes {what}.\nExpected  scope {self}\n"
                             f"and found for '{found}' (unknown) scope {other}\n{_SCOPES_HELP}")


class _DimExpr:
    """A symbolic dimension: an integer polynomial of variables and operations on them, in one scope."""

    __slots__ = ("_terms", "_scope", "_hash")
    __array_priority__ = 1000  # numpy integers defer to our operators (``np.int64(2) * b`` is an expression)

    def __init__(self, terms: tuple, scope: SymbolicScope):
        self._terms = terms  # (term, coefficient) pairs, largest term first, no zero coefficients
        self._scope = scope
        self._hash = None

    @property
    def scope(self) -> SymbolicScope:
        return self._scope

    @staticmethod
    def _build(coefficients: dict, scope: SymbolicScope) -> Any:
        """The normalized expression of ``{term: coefficient}``: the scope's equalities substituted, zero
        coefficients dropped, a plain ``int`` when only the constant is left."""
        if scope._substitutions:
            for term in [t for t in coefficients if t in scope._substitutions]:
                coeff = coefficients.pop(term)
                lhs_coeff, rhs = scope._substitutions[term]
                quotient, remainder = divmod(coeff, lhs_coeff)
                if remainder:
                    coefficients[term] = coefficients.get(term, 0) + remainder
                for t, c in _terms_of(rhs):
                    coefficients[t] = coefficients.get(t, 0) + quotient * c
        terms = tuple(sorted(((t, c) for t, c in coefficients.items() if c), key=lambda tc: _term_key(tc[0]),
                             reverse=True))
        if not terms:
            return 0
        if len(terms) == 1 and not terms[0][0]:
            return terms[0][1]
        return _DimExpr(terms, scope)

    @staticmethod
    def _variable(name: str, scope: SymbolicScope) -> Any:
        return _DimExpr._build({((_Factor(name), 1),): 1}, scope)

    @staticmethod
    def _operation(operation: str, operands: tuple, scope: SymbolicScope) -> Any:
        return _DimExpr._build({((_Factor(None, operation, operands), 1),): 1}, scope)

    # --- printing, hashing, equality ---
    def __str__(self) -> str:
        return _format_terms(self._terms)

    __repr__ = __str__

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._terms)
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (_DimExpr, int)) and not _is_integer(other):
            return False
        if isinstance(other, _DimExpr) and other._scope is not self._scope:
            return False
        difference = self - other
        return isinstance(difference, int) and difference == 0  # equal once normalized, as JAX decides

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __int__(self) -> int:
        raise InconclusiveDimensionOperation(
            f"Symbolic dimension '{self}' used in a context that requires a constant{_INCONCLUSIVE_HELP}")

    # --- arithmetic ---
    def _other(self, other: Any, what: str) -> Any:
        """``other`` as an expression or int, checking scopes; None for values that are not dimensions."""
        if isinstance(other, _DimExpr):
            self._scope._check_same(other._scope, what, other)
            return other
        if _is_integer(other):
            return operator.index(other)
        return None

    def _linear(self, other: Any, sign: int) -> Any:
        coefficients = dict(self._terms)
        for t, c in _terms_of(other):
            coefficients[t] = coefficients.get(t, 0) + sign * c
        return _DimExpr._build(coefficients, self._scope)

    def __add__(self, other: Any) -> Any:
        o = self._other(other, "for linear combination")
        return dimension_as_value(self) + other if o is None else self._linear(o, 1)

    def __radd__(self, other: Any) -> Any:
        o = self._other(other, "for linear combination")
        return other + dimension_as_value(self) if o is None else self._linear(o, 1)

    def __sub__(self, other: Any) -> Any:
        o = self._other(other, "for linear combination")
        return dimension_as_value(self) - other if o is None else self._linear(o, -1)

    def __rsub__(self, other: Any) -> Any:
        o = self._other(other, "for linear combination")
        return other - dimension_as_value(self) if o is None else (-self)._linear(o, 1)

    def __neg__(self) -> Any:
        return _DimExpr._build({t: -c for t, c in self._terms}, self._scope)

    def _multiply(self, other: Any) -> Any:
        coefficients: dict = {}
        for t1, c1 in self._terms:
            for t2, c2 in _terms_of(other):
                t = _multiply_terms(t1, t2)
                coefficients[t] = coefficients.get(t, 0) + c1 * c2
        return _DimExpr._build(coefficients, self._scope)

    def __mul__(self, other: Any) -> Any:
        o = self._other(other, "for operation mul")
        return dimension_as_value(self) * other if o is None else self._multiply(o)

    def __rmul__(self, other: Any) -> Any:
        o = self._other(other, "for operation mul")
        return other * dimension_as_value(self) if o is None else self._multiply(o)

    def __pow__(self, power: Any) -> Any:
        if not _is_integer(power) or operator.index(power) < 0:
            return dimension_as_value(self) ** power
        result: Any = 1
        for _ in range(operator.index(power)):
            result = self * result
        return result

    def __floordiv__(self, divisor: Any) -> Any:
        d = self._other(divisor, "for operation floordiv")
        return dimension_as_value(self) // divisor if d is None else _divmod(self, d)[0]

    def __rfloordiv__(self, dividend: Any) -> Any:
        d = self._other(dividend, "for operation floordiv")
        return dividend // dimension_as_value(self) if d is None else _divmod(d, self)[0]

    def __mod__(self, divisor: Any) -> Any:
        d = self._other(divisor, "for operation mod")
        return dimension_as_value(self) % divisor if d is None else _divmod(self, d)[1]

    def __rmod__(self, dividend: Any) -> Any:
        d = self._other(dividend, "for operation mod")
        return dividend % dimension_as_value(self) if d is None else _divmod(d, self)[1]

    def __divmod__(self, divisor: Any) -> tuple:
        return self // divisor, self % divisor

    def __rdivmod__(self, dividend: Any) -> tuple:
        return dividend // self, dividend % self

    def __truediv__(self, other: Any) -> Any:
        return dimension_as_value(self) / other

    def __rtruediv__(self, other: Any) -> Any:
        return other / dimension_as_value(self)

    # --- comparisons ---
    def _compare(self, other: Any, comparison: str) -> bool:
        """Decide ``self <comparison> other`` from bounds of their difference, or raise."""
        o = self._other(other, f"when comparing '{self}' {comparison} '{other}'")
        if o is None:
            return NotImplemented
        difference = self - o  # >= 0, > 0, < 0 or <= 0 is asked
        if not isinstance(difference, int):
            lower, upper = _bounds(difference)
            if comparison in (">=", ">"):
                decided = lower >= (1 if comparison == ">" else 0) or upper < (1 if comparison == ">" else 0)
                result = lower >= (1 if comparison == ">" else 0)
            else:
                decided = upper <= (-1 if comparison == "<" else 0) or lower > (-1 if comparison == "<" else 0)
                result = upper <= (-1 if comparison == "<" else 0)
            if not decided:
                scope = f"\nUsing symbolic scope {self._scope}" if self._scope._constraints_str else ""
                raise InconclusiveDimensionOperation(
                    f"Symbolic dimension comparison '{self}' {comparison} '{other}' is inconclusive.{scope}"
                    f"{_INCONCLUSIVE_HELP}")
            return result
        return {">=": difference >= 0, ">": difference > 0, "<": difference < 0, "<=": difference <= 0}[comparison]

    def __ge__(self, other: Any) -> bool:
        return self._compare(other, ">=")

    def __gt__(self, other: Any) -> bool:
        return self._compare(other, ">")

    def __le__(self, other: Any) -> bool:
        return self._compare(other, "<=")

    def __lt__(self, other: Any) -> bool:
        return self._compare(other, "<")

    def dimension_as_value(self) -> Any:
        """This dimension as a traced int32/int64 scalar (within tracing for export)."""
        return dimension_as_value(self)


# The public name for annotations; the class keeps JAX's name, which error messages show.
DimExpr = _DimExpr


def _is_integer(x: Any) -> bool:
    if isinstance(x, (int, _DimExpr)):
        return True
    try:
        operator.index(x)
    except TypeError:
        return False
    return not hasattr(x, "aval")  # traced integers are values, not dimensions


def _exact_quotient(dividend: Any, divisor: Any) -> Any:
    """``dividend / divisor`` when the divisor, a single term, divides every non-constant term of the dividend
    (the constant floors); None otherwise."""
    divisor_terms = _terms_of(divisor)
    if len(divisor_terms) != 1:
        return None
    d_term, d_coeff = divisor_terms[0]
    d_powers = dict(d_term)
    quotient: dict = {}
    for term, coeff in _terms_of(dividend):
        powers = dict(term)
        if not term and not d_term:
            quotient[()] = quotient.get((), 0) + coeff // d_coeff
            continue
        if coeff % d_coeff or any(powers.get(f, 0) < p for f, p in d_powers.items()):
            return None
        remaining = tuple((f, p - d_powers.get(f, 0)) for f, p in term if p > d_powers.get(f, 0))
        quotient[remaining] = quotient.get(remaining, 0) + coeff // d_coeff
    return quotient


def _divmod(dividend: Any, divisor: Any) -> tuple:
    """Floor division and remainder; exact where the divisor divides the dividend, else ``floordiv``/``mod``."""
    if isinstance(divisor, int) and divisor == 0:
        raise ZeroDivisionError("integer division or modulo by zero")
    scope = (dividend if isinstance(dividend, _DimExpr) else divisor)._scope
    quotient = _exact_quotient(dividend, divisor)
    if quotient is not None:
        q = _DimExpr._build(quotient, scope)
        return q, dividend - divisor * q
    if dividend == divisor:
        return 1, 0
    operands = (dividend, divisor)
    return _DimExpr._operation("floordiv", operands, scope), _DimExpr._operation("mod", operands, scope)


def _extreme_dim(operation: str, d1: Any, d2: Any) -> Any:
    if not isinstance(d1, _DimExpr) and not isinstance(d2, _DimExpr):
        return (max if operation == "max" else min)(operator.index(d1), operator.index(d2))
    first = d1 if isinstance(d1, _DimExpr) else d2
    d1, d2 = first._other(d1, "for linear combination"), first._other(d2, "for linear combination")
    if d1 is None or d2 is None:
        raise TypeError(f"'{type(d1 if d1 is None else d2).__name__}' object cannot be interpreted as an integer")
    lower, upper = _bounds_of(d1 - d2, first._scope)
    if lower >= 0:
        return d1 if operation == "max" else d2
    if upper <= 0:
        return d2 if operation == "max" else d1
    return _DimExpr._operation(operation, (d1, d2), first._scope)


def max_dim(d1: Any, d2: Any) -> Any:
    """The larger of two dimensions: an int for ints, else a symbolic ``max`` unless bounds decide it."""
    for d in (d1, d2):
        if not isinstance(d, _DimExpr):
            operator.index(d)
    return _extreme_dim("max", d1, d2)


def min_dim(d1: Any, d2: Any) -> Any:
    """The smaller of two dimensions: an int for ints, else a symbolic ``min`` unless bounds decide it."""
    for d in (d1, d2):
        if not isinstance(d, _DimExpr):
            operator.index(d)
    return _extreme_dim("min", d1, d2)


def non_negative_dim(d: Any) -> Any:
    """``max(d, 0)``, which stays symbolic as ``non_negative(d)`` when undecided."""
    if not isinstance(d, _DimExpr):
        return max(operator.index(d), 0)
    lower, upper = _bounds(d)
    if lower >= 0:
        return d
    if upper <= 0:
        return 0
    return _DimExpr._operation("non_negative", (d,), d._scope)


def is_symbolic_dim(d: Any) -> bool:
    """Whether ``d`` is a symbolic dimension (an expression that is not a constant)."""
    return isinstance(d, _DimExpr)


def is_constant_dim(d: Any) -> bool:
    """Whether ``d`` is a known integer dimension."""
    try:
        operator.index(d)
    except TypeError:
        return False
    return not isinstance(d, _DimExpr)


# A hook the tracing layer installs: staging a dimension as a value needs the primitives, which build on this module.
_dimension_as_value_rule: list = []


def dimension_as_value(d: Any) -> Any:
    """A dimension as an integer scalar value: ``d`` itself when constant, a traced value within tracing."""
    if not isinstance(d, _DimExpr):
        return d
    if not _dimension_as_value_rule:
        raise NotImplementedError("Evaluation rule for 'dim_as_value' is not implemented. It seems that you are "
                                  "using shape polymorphism outside jax.export.")
    return _dimension_as_value_rule[0](d)


# --- bounds: the decision procedure behind comparisons ---------------------------------------------------------------

_INF = math.inf


def _mul_interval(a: tuple, b: tuple) -> tuple:
    products = [0 if x == 0 or y == 0 else x * y for x in a for y in b]
    return min(products), max(products)


def _factor_bounds(factor: _Factor, scope: SymbolicScope, var_bounds: dict) -> tuple:
    if factor.name is not None:
        return var_bounds.get(factor.name, (1, _INF))
    ranges = [_bounds_of(o, scope) if isinstance(o, _DimExpr) else (o, o) for o in factor.operands]
    if factor.operation == "max":
        return max(ranges[0][0], ranges[1][0]), max(ranges[0][1], ranges[1][1])
    if factor.operation == "min":
        return min(ranges[0][0], ranges[1][0]), min(ranges[0][1], ranges[1][1])
    if factor.operation == "non_negative":
        return max(ranges[0][0], 0), max(ranges[0][1], 0)
    (x_lo, x_hi), (d_lo, d_hi) = ranges
    if factor.operation == "floordiv":
        if d_lo == d_hi and d_lo != 0:
            ends = [math.floor(v / d_lo) if abs(v) != _INF else v * (1 if d_lo > 0 else -1) for v in (x_lo, x_hi)]
            return min(ends), max(ends)
        if d_lo >= 1 and x_lo >= 0:
            return 0, x_hi
        return -_INF, _INF
    # mod: the sign of the divisor
    if d_lo >= 1:
        return 0, min(d_hi - 1, x_hi) if x_lo >= 0 else d_hi - 1
    if d_hi <= -1:
        return d_lo + 1, 0
    return -_INF, _INF


def _term_bounds(term: Term, scope: SymbolicScope, var_bounds: dict) -> tuple:
    result = (1, 1)
    for factor, power in term:
        lo, hi = _factor_bounds(factor, scope, var_bounds)
        for _ in range(power):
            result = _mul_interval(result, (lo, hi))
    return result


def _interval(coefficients: dict, scope: SymbolicScope, var_bounds: dict) -> tuple:
    lower = upper = 0
    for term, coeff in coefficients.items():
        lo, hi = _mul_interval(_term_bounds(term, scope, var_bounds), (coeff, coeff))
        lower, upper = lower + lo, upper + hi
    return lower, upper


def _implied_facts(coefficients: dict) -> list[dict]:
    """Inequalities (``{term: coefficient} >= 0``) that the operations among the terms satisfy by definition."""
    facts = []
    for term in coefficients:
        for factor, _ in term:
            if factor.operation is None:
                continue
            itself = {((factor, 1),): Fraction(1)}
            operands = [{t: Fraction(c) for t, c in _terms_of(o)} for o in factor.operands]
            if factor.operation == "max":
                facts += [_combine(itself, o, -1) for o in operands]
            elif factor.operation == "min":
                facts += [_combine(o, itself, -1) for o in operands]
            elif factor.operation == "non_negative":
                facts += [itself, _combine(itself, operands[0], -1)]
            elif factor.operation == "floordiv" and isinstance(factor.operands[1], int) and factor.operands[1] > 0:
                d = factor.operands[1]  # 0 <= x - d*floordiv(x, d) <= d - 1
                rest = _combine(operands[0], itself, -d)
                facts += [rest, _combine({(): Fraction(d - 1)}, rest, -1)]
    return facts


def _combine(a: dict, b: dict, k: Any) -> dict:
    result = dict(a)
    for t, c in b.items():
        result[t] = result.get(t, 0) + k * c
    return {t: c for t, c in result.items() if c}


def _lower_bound(coefficients: dict, scope: SymbolicScope, facts: list, var_bounds: dict, depth: int,
                 cases: int = 3) -> Any:
    """A lower bound of the expression: its interval's, improved by subtracting positive multiples of known
    non-negative facts that cancel one of its terms (up to ``depth`` facts combined), and by splitting on a
    ``max``/``min`` term (``e - max(a, c)`` is ``min(e - a, e - c)``; up to ``cases`` splits)."""
    best = _interval(coefficients, scope, var_bounds)[0]
    if cases:
        for term, coeff in coefficients.items():
            if len(term) != 1 or term[0][1] != 1 or term[0][0].operation not in ("max", "min", "non_negative"):
                continue
            factor = term[0][0]
            operands = factor.operands if factor.operation != "non_negative" else (factor.operands[0], 0)
            rest = {t: c for t, c in coefficients.items() if t != term}
            bounds = [_lower_bound(_combine(rest, {t: Fraction(c) for t, c in _terms_of(o)}, coeff), scope, facts,
                                   var_bounds, depth, cases - 1) for o in operands]
            # the larger operand is taken by max; with a negative coefficient the smaller matters (and for min)
            take_smaller = (factor.operation == "min") == (coeff > 0)
            best = max(best, min(bounds) if take_smaller else max(bounds))
    if depth:
        for fact in facts:
            for term, coeff in coefficients.items():
                fact_coeff = fact.get(term) if term else None
                if fact_coeff and coeff / fact_coeff > 0:
                    rest = _combine(coefficients, fact, -(coeff / fact_coeff))
                    best = max(best, _lower_bound(rest, scope, facts, var_bounds, depth - 1, cases))
    return best


def _variable_bounds(scope: SymbolicScope) -> dict:
    """Ranges of single variables from constraints that involve one variable linearly (``b >= 4``)."""
    bounds: dict = {}
    for fact in scope._inequalities:
        terms = [t for t in fact if t]
        if len(terms) == 1 and len(terms[0]) == 1 and terms[0][0][1] == 1 and terms[0][0][0].name is not None:
            name, coeff, constant = terms[0][0][0].name, fact[terms[0]], fact.get((), 0)
            lo, hi = bounds.get(name, (1, _INF))
            if coeff > 0:
                lo = max(lo, math.ceil(-constant / coeff))
            else:
                hi = min(hi, math.floor(constant / -coeff))
            bounds[name] = (lo, hi)
    return bounds


def _bounds_of(e: Any, scope: SymbolicScope) -> tuple:
    if not isinstance(e, _DimExpr):
        return e, e
    return _bounds(e)


def _bounds(e: _DimExpr) -> tuple:
    """Lower and upper bounds of an expression (``-inf``/``inf`` where unbounded), cached per scope."""
    scope = e._scope
    cached = scope._bounds_cache.get(e._terms)
    if cached is not None:
        return cached
    var_bounds = _variable_bounds(scope)
    coefficients = {t: Fraction(c) for t, c in e._terms}
    facts = scope._inequalities + _implied_facts(coefficients)
    lower = _lower_bound(coefficients, scope, facts, var_bounds, 2)
    upper = -_lower_bound({t: -c for t, c in coefficients.items()}, scope, facts, var_bounds, 2)
    result = (math.ceil(lower) if abs(lower) != _INF else lower, math.floor(upper) if abs(upper) != _INF else upper)
    scope._bounds_cache[e._terms] = result
    return result


# --- parsing -------------------------------------------------------------------------------------------------------

_DIMENSION_START = (tokenize.NAME, tokenize.MINUS, tokenize.NUMBER)


class _ParseError(Exception):
    pass


class _Parser:
    """Recursive-descent parser of shape specifications (``"b, 2*b + 1, floordiv(n, 2)"``)."""

    def __init__(self, spec: str, like: Sequence | None, scope: SymbolicScope):
        self.spec, self.like, self.scope = spec, like, scope
        try:
            self.tokens = [t for t in tokenize.generate_tokens(io.StringIO(spec).readline)
                           if t.type not in (tokenize.NEWLINE, tokenize.NL)]
        except (tokenize.TokenError, SyntaxError, IndentationError) as e:
            raise ValueError(f"syntax error in symbolic shape '{spec}': {e}") from None
        self.position = 0
        self.dimensions: list = []

    @property
    def token(self) -> tokenize.TokenInfo:
        return self.tokens[self.position]

    def advance(self) -> None:
        self.position += 1

    def error(self, message: str) -> ValueError:
        token = self.token
        column = 0 if token.type == tokenize.ENDMARKER else token.start[1]
        parsed, remaining = (("", "") if token.type == tokenize.ENDMARKER else
                             (self.spec[:column], self.spec[column:]))
        return ValueError(f"syntax error in symbolic shape '{self.spec}' in dimension {len(self.dimensions)}: "
                          f"{message}. Parsed '{parsed}', remaining '{remaining}'.")

    def expect(self, *kinds: int) -> tokenize.TokenInfo:
        token = self.token
        if token.exact_type not in kinds:
            names = ", ".join(tokenize.tok_name[k] for k in kinds)
            raise self.error(f"expecting one of {{{names}}} but found {tokenize.tok_name[token.exact_type]}")
        self.advance()
        return token

    def shape(self) -> tuple:
        if self.token.exact_type == tokenize.LPAR:
            self.advance()
            self.shape()
            self.expect(tokenize.RPAR)
            return tuple(self.dimensions)
        while self.token.exact_type not in (tokenize.ENDMARKER, tokenize.RPAR):
            if self.token.exact_type == tokenize.ELLIPSIS:
                if self.like is None:
                    raise self.error("spec contains ... but no 'like' shape was given")
                self.dimensions.extend(self.like[len(self.dimensions):])
                self.advance()
                self.expect(tokenize.ENDMARKER)
                self.position -= 1
                break
            if self.token.type == tokenize.NAME and self.token.string == "_":
                if self.like is None:
                    raise self.error("spec contains ... but no 'like' shape was given")
                known = self.like[len(self.dimensions)] if len(self.dimensions) < len(self.like) else None
                self.advance()
                if known is None:
                    raise self.error(f"unexpected placeholder for unknown dimension; like={tuple(self.like)}")
                self.dimensions.append(known)
            else:
                dimension = self.expression()
                index = len(self.dimensions)
                if (isinstance(dimension, int) and self.like is not None and index < len(self.like)
                        and self.like[index] is not None and self.like[index] != dimension):
                    raise self.error(f"different size {dimension} for known dimension; like={tuple(self.like)}")
                self.dimensions.append(dimension)
            if self.token.exact_type != tokenize.COMMA:
                break
            self.advance()
        return tuple(self.dimensions)

    def expression(self) -> Any:
        negate = False
        if self.token.exact_type in (tokenize.MINUS, tokenize.PLUS):
            negate = self.token.exact_type == tokenize.MINUS
            self.advance()
        result = self.term()
        if negate:
            result = -result
        while self.token.exact_type in (tokenize.PLUS, tokenize.MINUS):
            sign = self.token.exact_type
            self.advance()
            t = self.term()
            result = result + t if sign == tokenize.PLUS else result - t
        return result

    def term(self) -> Any:
        result = self.power()
        while self.token.exact_type not in (tokenize.PLUS, tokenize.MINUS, tokenize.COMMA, tokenize.RPAR,
                                            tokenize.ENDMARKER):
            self.expect(tokenize.STAR)
            result = result * self.power()
        return result

    def power(self) -> Any:
        base = self.factor()
        if self.token.exact_type == tokenize.CIRCUMFLEX:
            self.advance()
            exponent = self.integer(self.expect(tokenize.NUMBER))
            return base ** exponent
        return base

    def integer(self, token: tokenize.TokenInfo) -> int:
        try:
            return int(token.string)
        except ValueError:
            self.position -= 1
            raise self.error(f"expecting integer, found {token.string}") from None

    def factor(self) -> Any:
        token = self.token
        if token.exact_type == tokenize.MINUS:
            self.advance()
            return -self.integer(self.expect(tokenize.NUMBER))
        token = self.expect(*_DIMENSION_START)
        if token.type == tokenize.NUMBER:
            return self.integer(token)
        if token.string in _OPERATIONS and token.string != "non_negative":
            self.expect(tokenize.LPAR)
            first = self.expression()
            self.expect(tokenize.COMMA)
            second = self.expression()
            self.expect(tokenize.RPAR)
            if token.string in ("max", "min"):
                return (max_dim if token.string == "max" else min_dim)(first, second)
            return _DimExpr._operation(token.string, (first, second), self.scope)
        return _DimExpr._variable(token.string, self.scope)


def _parse_expression(text: str, scope: SymbolicScope) -> Any:
    parser = _Parser(text.strip(), None, scope)
    result = parser.expression()
    parser.expect(tokenize.ENDMARKER)
    return result


def symbolic_shape(shape_spec: str | None, *, constraints: Sequence[str] = (), scope: SymbolicScope | None = None,
                   like: Sequence[int | None] | None = None) -> tuple:
    """The dimensions a shape specification (``"b, 2*b + 1"``) names: ints and symbolic expressions, in ``scope``
    (a new one holding ``constraints`` when not given); ``_`` and ``...`` take sizes from ``like``."""
    if scope is not None and constraints:
        raise ValueError("Cannot specify both a `scope` and `constraints`.")
    if shape_spec is None:
        shape_spec = "..."
    elif not isinstance(shape_spec, str):
        raise ValueError(f"polymorphic shape spec should be None or a string. Found {shape_spec}.")
    scope = SymbolicScope(constraints) if scope is None else scope
    parser = _Parser(shape_spec, like, scope)
    dimensions = parser.shape()
    parser.expect(tokenize.ENDMARKER)
    return dimensions


def symbolic_args_specs(args: Any, shapes_specs: Any, constraints: Sequence[str] = (),
                        scope: SymbolicScope | None = None) -> Any:
    """``ShapeDtypeStruct``s for ``args`` (a pytree of arrays or shape-and-dtype objects) with symbolic shapes from
    ``shapes_specs``, a prefix of ``args`` whose strings (or None: the concrete shape) are parsed ``like`` each
    argument's shape, all in one scope."""
    from jaxle_core.avals import ShapeDtypeStruct, abstract_argument_aval  # local: avals build on this module
    from jaxle_tree import tree_flatten, tree_structure
    from jaxle_tree.prefix_errors import prefix_errors

    if scope is not None and constraints:
        raise ValueError("Cannot use both `scope` and `constraints`")
    scope = SymbolicScope(constraints) if scope is None else scope
    specs, specs_def = tree_flatten(shapes_specs, is_leaf=lambda s: s is None)
    try:
        subtrees = specs_def.flatten_up_to(args)
    except ValueError as error:
        make = next(prefix_errors((), shapes_specs, args, lambda s: s is None), None)
        if make is None:
            raise
        raise make("export.symbolic_args_specs shapes_specs") from error.__cause__
    structs = []
    for spec, subtree in zip(specs, subtrees):
        for arg in tree_flatten(subtree)[0]:
            aval = abstract_argument_aval(arg)
            structs.append(ShapeDtypeStruct(symbolic_shape(spec, scope=scope, like=aval.shape), aval.dtype))
    return tree_structure(args).unflatten(structs)


# --- evaluation: the values of dimensions once their variables' values are known ------------------------------------


class _IntegerOps:
    """Arithmetic on Python ints (or on dimension expressions, which support the same operators)."""

    constant = staticmethod(lambda c: c)
    add = staticmethod(operator.add)
    mul = staticmethod(operator.mul)
    floordiv = staticmethod(operator.floordiv)
    mod = staticmethod(operator.mod)
    max = staticmethod(lambda a, b: max_dim(a, b))
    min = staticmethod(lambda a, b: min_dim(a, b))


def evaluate(d: Any, env: dict[str, Any], ops: Any = _IntegerOps) -> Any:
    """The value of dimension ``d`` given the values of its variables (``env``: name -> value). ``ops`` computes:
    ints by default; a lowering passes ops that emit code (``constant``, ``add``, ``mul``, ``floordiv``, ``mod``,
    ``max``, ``min``)."""
    if not isinstance(d, _DimExpr):
        return ops.constant(d)
    total = None
    for term, coeff in d._terms:
        value = None if coeff == 1 and term else ops.constant(coeff)
        for factor, power in term:
            factor_value = _evaluate_factor(factor, env, ops)
            for _ in range(power):
                value = factor_value if value is None else ops.mul(value, factor_value)
        total = value if total is None else ops.add(total, value)
    return total


def _evaluate_factor(factor: _Factor, env: dict[str, Any], ops: Any) -> Any:
    if factor.name is not None:
        if factor.name not in env:
            raise KeyError(factor.name)
        return env[factor.name]
    operands = [evaluate(o, env, ops) for o in factor.operands]
    if factor.operation == "non_negative":
        return ops.max(operands[0], ops.constant(0))
    return getattr(ops, factor.operation)(*operands)


def variable_name(d: Any) -> str | None:
    """The variable's name when ``d`` is exactly one variable (``b``), else None."""
    if isinstance(d, _DimExpr) and len(d._terms) == 1:
        term, coeff = d._terms[0]
        if coeff == 1 and len(term) == 1 and term[0][1] == 1 and term[0][0].name is not None:
            return term[0][0].name
    return None


def linear_in_one_variable(d: Any, known: dict[str, Any]) -> tuple[str, int, Any] | None:
    """``(name, coefficient, rest)`` when ``d`` is ``coefficient * name + rest`` with ``rest`` computable from the
    ``known`` variables and ``name`` unknown; None otherwise."""
    if not isinstance(d, _DimExpr):
        return None
    unknown = [(term, coeff) for term, coeff in d._terms if term and any(
        f.name is None or f.name not in known for f, _ in term)]
    if len(unknown) != 1:
        return None
    term, coeff = unknown[0]
    if len(term) != 1 or term[0][1] != 1 or term[0][0].name is None:
        return None
    rest = _DimExpr._build({t: c for t, c in d._terms if t != term}, d._scope)
    return term[0][0].name, coeff, rest


def solve_dimension_variables(expected: Sequence[tuple[str, tuple]], actual: Sequence[tuple]) -> dict[str, Any]:
    """The values of the variables in the ``expected`` shapes (``(path, shape)`` pairs: ``args[0]``) that the
    ``actual`` shapes give them, with JAX's ValueErrors for shapes that do not match the specification."""
    specs = ",".join(f"{path}.shape = ({', '.join(map(str, shape))}{',' if len(shape) == 1 else ''})"
                      for path, shape in expected if any(isinstance(d, _DimExpr) for d in shape))
    env: dict[str, Any] = {}
    found: list[str] = []

    def mismatch(reason: str, what: str = "the polymorphic shapes specification") -> ValueError:
        return ValueError(f"Input shapes do not match {what}. {reason} Using the following polymorphic shapes "
                          f"specifications: {specs}. Obtained dimension variables: "
                          f"{''.join(found)}. Please see https://docs.jax.dev/en/latest/export/shape_poly.html"
                          "#shape-assertion-errors for more details.")

    pending = [(path, i, d, size) for (path, shape), sizes in zip(expected, actual)
               for i, (d, size) in enumerate(zip(shape, sizes)) if isinstance(d, _DimExpr)]
    progress = True
    while progress:
        progress = False
        for path, i, d, size in pending:
            solvable = linear_in_one_variable(d, env)
            if solvable is None:
                continue
            name, coeff, rest = solvable
            value, remainder = divmod(size - evaluate(rest, env), coeff)
            if remainder:
                raise mismatch(f"Division had remainder {remainder} when computing the value of '{name}'.")
            env[name] = value
            found.append(f"'{name}' = {value} from specification '{d}' for dimension {path}.shape[{i}] "
                         f"(= {size}), ")
            if value < 1:
                raise mismatch(f"Expected value >= 1 for dimension variable '{name}'.")
            progress = True
    for path, i, d, size in pending:
        try:
            value = evaluate(d, env)
        except KeyError as e:
            raise mismatch(f"Cannot solve for the value of '{e.args[0]}' from the input shapes.") from None
        if value != size:
            raise mismatch(f"Found inconsistency between dimension size {path}.shape[{i}] (= {size}) and the "
                           f"specification '{d}' (= {value}).")
    scopes = {id(d.scope): d.scope for _, _, d, _ in pending}
    for scope in scopes.values():
        for constraint, difference in scope._checks:
            value = evaluate(difference, env)
            if value < 0:
                raise mismatch(f"Expected '{difference}' to be greater or equal to 0, but found {value}. ",
                               f"the symbolic shape constraint {constraint}")
    return env
