"""Seed 003 ("Understanding Jaxprs", JAX's jaxpr documentation): each example's jaxpr text as ``make_jaxpr`` prints
it and the function's value, run with the module named on the command line.

``/work/jaxpeer/bin/python integration-tests/golden/make_seed_003_golden.py jax`` writes seed_003_golden.json.
The page's ``func13`` (``pmap`` with ``lax.psum``, the ``xla_pmap`` primitive) is recorded by
multidevice-tests/golden/make_pmap_golden.py.
"""

from __future__ import annotations

import numpy as np
import seed_golden


def jaxpr_and_value(jax, fun, *args):
    return str(jax.make_jaxpr(fun)(*args)), fun(*args)


def func1_of(jnp):
    def func1(first, second):
        temp = first + jnp.sin(second) * 3.
        return jnp.sum(temp)
    return func1


def func1(jax):
    jnp = jax.numpy
    return jaxpr_and_value(jax, func1_of(jnp), jnp.zeros(8), jnp.ones(8))


def func3_inlines_python_control_flow(jax):
    jnp = jax.numpy

    def func2(inner, first, second):
        temp = first + inner(second) * 3.
        return jnp.sum(temp)

    def inner(second):
        if second.shape[0] > 4:
            return jnp.sin(second)
        else:
            raise AssertionError

    def func3(first, second):
        return func2(inner, first, second)

    return jaxpr_and_value(jax, func3, jnp.zeros(8), jnp.ones(8))


def func4_flattens_pytrees(jax):
    jnp = jax.numpy

    def func4(arg):  # Arg is a pair
        temp = arg[0] + jnp.sin(arg[1]) * 3.
        return jnp.sum(temp)

    return jaxpr_and_value(jax, func4, (jnp.zeros(8), jnp.ones(8)))


def one_of_three_by_switch(jax):
    lax = jax.lax

    def one_of_three(index, arg):
        return lax.switch(index, [lambda x: x + 1.,
                                  lambda x: x - 2.,
                                  lambda x: x + 3.],
                          arg)

    return (*jaxpr_and_value(jax, one_of_three, 1, 5.), one_of_three(0, 5.), one_of_three(7, 5.),
            one_of_three(-1, 5.))


def func7_by_cond(jax):
    lax = jax.lax

    def func7(arg):
        return lax.cond(arg >= 0.,
                        lambda xtrue: xtrue + 3.,
                        lambda xfalse: xfalse - 3.,
                        arg)

    return (*jaxpr_and_value(jax, func7, 5.), func7(-5.))


def func8_cond_with_constants(jax):
    jnp, lax = jax.numpy, jax.lax

    def func8(arg1, arg2):  # arg2 is a pair
        return lax.cond(arg1 >= 0.,
                        lambda xtrue: xtrue[0],
                        lambda xfalse: jnp.array([1]) + xfalse[1],
                        arg2)

    return (*jaxpr_and_value(jax, func8, 5., (jnp.zeros(1), 2.)), func8(-5., (jnp.zeros(1), 2.)))


def func10_fori_loop(jax):
    jnp, lax = jax.numpy, jax.lax

    def func10(arg, n):
        ones = jnp.ones(arg.shape)  # A constant
        return lax.fori_loop(0, n,
                             lambda i, carry: carry + ones * 3. + arg,
                             arg + ones)

    return jaxpr_and_value(jax, func10, np.ones(16), 5)


def func11_scan(jax):
    jnp, lax = jax.numpy, jax.lax

    def func11(arr, extra):
        ones = jnp.ones(arr.shape)  # A constant

        def body(carry, aelems):
            # carry: running dot-product of the two arrays
            # aelems: a pair with corresponding elements from the two arrays
            ae1, ae2 = aelems
            return (carry + ae1 * ae2 + extra, carry)

        return lax.scan(body, 0., (arr, ones))

    return jaxpr_and_value(jax, func11, np.ones(16), 5.)


def func12_inner_jit(jax):
    jnp, jit = jax.numpy, jax.jit

    def func12(arg):
        @jit
        def inner(x):
            return x + arg * jnp.ones(1)  # Include a constant in the inner function
        return arg + inner(arg - 2.)

    return jaxpr_and_value(jax, func12, 1.)


EXAMPLES = {name: example for name, example in list(globals().items())
            if callable(example) and getattr(example, "__module__", None) == __name__
            and name not in {"jaxpr_and_value", "func1_of"}}

if __name__ == "__main__":
    seed_golden.write(EXAMPLES, "003")
