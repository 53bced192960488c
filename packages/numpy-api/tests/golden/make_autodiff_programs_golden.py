"""Golden records of common autodiff programs written with jnp (grad, value_and_grad, vjp, jvp and linearize of
small models, indexing, control flow, custom derivatives, checkpoint and jit) from JAX 0.10.2.

Run with JAX's environment:
/work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_autodiff_programs_golden.py jax
"""

import numpy as np
from jnp_golden import write

f32 = np.float32
X3 = np.arange(1, 4, dtype=f32)
M33 = (np.arange(9, dtype=f32).reshape(3, 3) + np.eye(3, dtype=f32) * 5) / 10
M34 = np.arange(12, dtype=f32).reshape(3, 4) / 10
S = f32(0.7)
PARAMS = {"w1": np.ones((4, 5), f32) / 5, "b1": np.zeros(5, f32), "w2": np.ones((5, 2), f32)}
BATCH = np.ones((3, 4), f32)


def _case(make, *args):
    """A case tracing ``make(m)`` (a function of ``args``)."""
    return lambda m: (make(m), list(args))


def _dict_values(fn):
    """``fn`` with any dict in its result replaced by the tuple of its values in key order (records take arrays)."""
    def flat(out):
        if isinstance(out, dict):
            return tuple(flat(out[k]) for k in sorted(out))
        if isinstance(out, tuple):
            return tuple(flat(o) for o in out)
        return out

    return lambda *args: flat(fn(*args))


def _mlp(m):
    jnp = m.numpy

    def loss(p, x):
        hidden = jnp.tanh(x @ p["w1"] + p["b1"])
        return jnp.mean((hidden @ p["w2"]) ** 2)

    return loss


def _log_softmax_loss(m):
    jnp = m.numpy

    def loss(w, x):
        logits = x @ w
        shifted = logits - m.lax.stop_gradient(logits.max(-1, keepdims=True))
        return -jnp.mean((shifted - jnp.log(jnp.exp(shifted).sum(-1, keepdims=True)))[:, 0])

    return loss


def _rnn(m):
    jnp = m.numpy

    def loss(w, xs):
        def body(h, x):
            h = jnp.tanh(w * h + x)
            return h, h * 2

        h, ys = m.lax.scan(body, 0.0, xs)
        return h + ys.sum()

    return loss


def _layernorm(m):
    def norm(x):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * m.lax.rsqrt(var + 1e-5)

    return lambda x: norm(x).sum() + norm(x)[0, 0]


def _softplus(m):
    jnp = m.numpy

    @m.custom_jvp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

    softplus.defjvp(lambda p, t: (softplus(p[0]), t[0] / (1 + jnp.exp(-p[0]))))
    return lambda x: softplus(x).sum()


def _clipped_gradient(m):
    jnp = m.numpy

    @m.custom_vjp
    def clip_gradient(x):
        return x

    clip_gradient.defvjp(lambda x: (x, None), lambda _, g: (jnp.clip(g, -1, 1),))
    return lambda x: (clip_gradient(x) ** 2).sum()


def _sin_scale(m):
    """``a * sin(b)`` of a dict, with a hand-written vjp whose residuals are a tuple."""
    jnp = m.numpy

    @m.custom_vjp
    def sin_scale(d):
        return d["a"] * jnp.sin(d["b"])

    sin_scale.defvjp(lambda d: (sin_scale(d), (d["a"], jnp.cos(d["b"]), jnp.sin(d["b"]))),
                     lambda r, g: ({"a": g * r[2], "b": g * r[0] * r[1]},))
    return lambda a, b: sin_scale({"a": a, "b": b}).sum()


def _jvp_rule_of(m, fn):
    """``fn`` as a custom_jvp function whose rule is the JVP of ``fn`` itself (as ``jax.scipy.special.zeta``'s)."""
    custom = m.custom_jvp(fn)
    custom.defjvp(lambda primals, tangents: m.jvp(fn, primals, tangents))
    return custom


def _padded_square(m):
    """A jitted function whose JVP pads a tangent (the zero padding value a rule instantiates)."""
    square = m.jit(lambda x: m.lax.pad(x * x, 0.0, ((1, 0, 0),)))
    return lambda x: square(x)[1:] + x


def _jitted_sin_cos(m):
    """A jitted function whose JVP reads several residuals (sin, cos, the argument) in its tangent part."""
    jnp = m.numpy
    return m.jit(lambda a: jnp.sin(a) * a + jnp.cos(a) ** 2)


def _closing_over_array(m):
    """A jitted function closing over an array its derivative reads."""
    jnp = m.numpy
    weights = jnp.array([0.5, 1.5, 2.5])
    return m.jit(lambda x: jnp.tanh(weights * x) * weights)


def _scan_sin(m):
    def loop(x):
        c, ys = m.lax.scan(lambda c, y: (m.numpy.sin(c) * y, m.numpy.sin(c) * y), x, m.numpy.arange(1.0, 4.0))
        return c + ys.sum()

    return loop


CASES = {
    "grad_mlp": _case(lambda m: _dict_values(m.grad(_mlp(m))), PARAMS, BATCH),
    "value_and_grad_mlp": _case(lambda m: _dict_values(m.value_and_grad(_mlp(m))), PARAMS, BATCH),
    "grad_log_softmax_loss": _case(lambda m: m.grad(_log_softmax_loss(m)), M34, BATCH[:, :3]),
    "grad_rnn": _case(lambda m: m.grad(_rnn(m), argnums=(0, 1)), S, X3),
    "grad_layernorm": _case(lambda m: m.grad(_layernorm(m)), M33),
    "grad_norm": _case(lambda m: m.grad(lambda x: m.numpy.linalg.norm(x)), X3),
    "grad_where": _case(lambda m: m.grad(lambda x: m.numpy.where(x > 2, x ** 2, m.numpy.sin(x)).sum()), X3),
    "grad_shifted_products": _case(lambda m: m.grad(lambda x: (x[1:] * x[:-1]).sum() + x[0]), X3),
    "grad_take": _case(lambda m: m.grad(lambda x: x[np.array([0, 2, 2])].sum()), X3),
    "grad_traced_index": _case(lambda m: m.grad(lambda x, i: x[i] * x[0]), X3, np.int32(1)),
    "grad_at_set": _case(lambda m: m.grad(lambda x: x.at[1].set(x[0] * 3).prod()), X3),
    "grad_at_add": _case(lambda m: m.grad(lambda x: x.at[np.array([0, 0, 2])].add(x).sum()), X3),
    "grad_max": _case(lambda m: m.grad(lambda x: m.numpy.max(x * 2)), X3),
    "grad_var": _case(lambda m: m.grad(lambda x: m.numpy.var(x)), X3),
    "grad_logaddexp": _case(lambda m: m.grad(lambda x: m.numpy.logaddexp(x, 1.0).sum()), X3),
    "grad_logaddexp2": _case(lambda m: m.grad(lambda x, y: m.numpy.logaddexp2(x, y).sum(), argnums=(0, 1)), X3,
                             X3[::-1].copy()),
    "jvp_logaddexp_complex": _case(lambda m: lambda z: m.jvp(lambda a: m.numpy.logaddexp(a, a * 1j), (z,), (z,)),
                                   np.array([1 + 1j, -2j, 0.5], np.complex64)),
    "jvp_logaddexp_infinite": _case(lambda m: lambda x: m.jvp(lambda a: m.numpy.logaddexp(a, np.inf), (x,), (x,)),
                                    X3),
    "grad_logaddexp_accumulate": _case(lambda m: m.grad(lambda x: m.numpy.logaddexp.accumulate(x).sum()), X3),
    "grad_of_grad_scan_where": _case(lambda m: m.grad(m.grad(lambda c: m.lax.scan(
        lambda k, x: (m.numpy.where(k > 0.3, k * x, 0.0), k), c, X3)[0])), S),
    "grad_of_grad_scan_clip": _case(lambda m: m.grad(m.grad(lambda c: m.lax.scan(
        lambda k, x: (m.numpy.clip(k * x, -1.0, 1.0), k), c, X3)[0])), S),
    "grad_of_grad_scan_square": _case(lambda m: m.grad(m.grad(lambda c: m.lax.scan(
        lambda k, x: (m.numpy.square(k) * x, k), c, X3)[0])), S),
    "grad_cumprod": _case(lambda m: m.grad(lambda x: m.numpy.cumprod(x).sum()), X3),
    "grad_solve": _case(lambda m: m.grad(lambda a: m.numpy.linalg.solve(a, X3).sum()), M33),
    "grad_einsum": _case(lambda m: m.grad(lambda a, b: m.numpy.einsum("ij,j->i", a, b).sum(), argnums=(0, 1)),
                         M33, X3),
    "grad_sort": _case(lambda m: m.grad(lambda x: m.numpy.sort(x)[0]), X3),
    "grad_clip_abs": _case(lambda m: m.grad(lambda x: m.numpy.clip(m.numpy.abs(x - 2), 0.1, 0.9).sum()), X3),
    "grad_of_grad": _case(lambda m: m.grad(m.grad(lambda x: m.numpy.tanh(x) * x)), S),
    "grad_cond": _case(lambda m: m.grad(lambda x: m.lax.cond(x > 0, m.numpy.sin, m.numpy.cos, x)), S),
    "grad_fori_loop": _case(lambda m: m.grad(lambda x: m.lax.fori_loop(0, 3, lambda i, c: c + m.numpy.sin(c) * i,
                                                                       x)), S),
    "grad_custom_jvp": _case(lambda m: m.grad(_softplus(m)), X3),
    "grad_custom_vjp": _case(lambda m: m.grad(_clipped_gradient(m)), X3),
    "grad_custom_vjp_pytree": _case(lambda m: m.grad(_sin_scale(m), argnums=(0, 1)), X3, X3),
    "grad_checkpoint": _case(lambda m: m.grad(lambda x: m.checkpoint(lambda a: m.numpy.sin(m.numpy.sin(a)))(x).sum()),
                             X3),
    "grad_checkpointed_scan": _case(lambda m: m.grad(lambda c, xs: m.lax.scan(
        m.checkpoint(lambda c, x: (m.numpy.sin(c) * x, c)), c, xs)[0]), S, X3),
    "grad_of_jit": _case(lambda m: m.grad(m.jit(lambda x: (m.numpy.exp(x) * x).sum())), X3),
    "jit_of_grad": _case(lambda m: m.jit(m.grad(lambda x: (m.numpy.exp(x) * x).sum())), X3),
    "grad_of_vmap": _case(lambda m: m.grad(lambda x: m.vmap(lambda a: m.numpy.dot(a, a))(x).sum()), M34),
    "vmap_of_grad": _case(lambda m: m.vmap(m.grad(lambda a: m.numpy.sin(a).sum())), M34),
    "jvp": _case(lambda m: lambda x: m.jvp(lambda a: m.numpy.exp(a) / a.sum(), (x,), (x,)), X3),
    "linearize_apply": _case(lambda m: lambda x: m.linearize(lambda a: m.numpy.cumsum(a ** 2), x)[1](x), X3),
    "vjp_apply": _case(lambda m: lambda x: m.vjp(lambda a: m.numpy.outer(a, m.numpy.cos(a)), x)[1](
        np.ones((3, 3), f32)), X3),
    "grad_custom_jvp_rule_cumprod": _case(lambda m: m.grad(lambda x: _jvp_rule_of(m, m.numpy.cumprod)(x).sum()), X3),
    "grad_custom_jvp_rule_jit": _case(lambda m: m.grad(lambda x: _jvp_rule_of(m, _padded_square(m))(x).sum()), X3),
    "grad_jit_custom_jvp_rule_jit": _case(
        lambda m: m.grad(lambda x: m.jit(_jvp_rule_of(m, _padded_square(m)))(x).sum()), X3),
    "grad_of_grad_scan_sin": _case(lambda m: m.grad(m.grad(_scan_sin(m))), S),
    "grad_of_grad_jit_scan_sin": _case(lambda m: m.grad(m.grad(m.jit(_scan_sin(m)))), S),
    "grad_of_jvp_fori_loop": _case(lambda m: m.grad(lambda x: m.jvp(
        lambda y: m.lax.fori_loop(0, 2, lambda i, c: c * y, 1.0), (x,), (x,))[1]), S),
    "grad_of_jvp_jit_pad": _case(lambda m: m.grad(lambda x: m.jvp(
        m.jit(lambda a: m.lax.pad(a * a, 0.0, ((1, 0, 0),))), (x,), (x,))[1].sum()), X3),
    "grad_jit_rnn": _case(lambda m: m.grad(m.jit(lambda w: m.lax.scan(
        lambda h, x: (m.numpy.tanh(w @ h + x), h), m.numpy.zeros(3), m.numpy.ones((4, 3)))[0].sum())), M33),
    "vjp_vmap_jit_scan_apply": _case(lambda m: lambda x: m.vjp(m.vmap(m.jit(
        lambda a: m.lax.scan(lambda c, y: (c * y, c), 1.0, a)[1])), x)[1](x), M33),
    "grad_jit_checkpoint_scan": _case(lambda m: m.grad(m.jit(m.checkpoint(lambda a: m.lax.scan(
        lambda c, y: (m.numpy.sin(c) * y, c), m.numpy.ones(3), a)[0].sum()))), M33),
    "grad_of_grad_jit_fori_loop": _case(lambda m: m.grad(lambda b: m.grad(m.jit(lambda a: m.lax.fori_loop(
        0, 2, lambda i, c: m.numpy.sin(c) * a, a).sum()))(b).sum()), X3),
    "jacfwd_has_aux_one_array": _case(lambda m: m.jacfwd(m.numpy.sin, has_aux=True), X3),
    "jacfwd_has_aux_two_rows": _case(lambda m: m.jacfwd(m.numpy.sin, has_aux=True), X3[:2]),
    "jvp_has_aux_scalar": _case(lambda m: lambda x: m.jvp(m.numpy.sin, (x,), (x,), has_aux=True), S),
    "jacfwd_has_aux_pair": _case(lambda m: m.jacfwd(lambda x: (m.numpy.sin(x), x * 2), has_aux=True), X3),
    "vjp_of_scan_apply": _case(lambda m: lambda x: m.vjp(lambda a: m.lax.scan(
        lambda c, y: (c * m.numpy.sin(y), c), 1.0, a)[1], x)[1](x), X3),
    "linearize_custom_jvp_rule_jit_apply": _case(lambda m: lambda x: m.linearize(
        lambda a: _jvp_rule_of(m, _padded_square(m))(a).sum(), x)[1](x), X3),
    "linearize_custom_jvp_rule_jit_residuals_apply": _case(lambda m: lambda x: m.linearize(
        lambda a: _jvp_rule_of(m, _jitted_sin_cos(m))(a).sum(), x)[1](x), X3),
    "linearize_jit_custom_jvp_rule_jit_apply": _case(lambda m: lambda x: m.linearize(
        m.jit(lambda a: _jvp_rule_of(m, _jitted_sin_cos(m))(a).sum()), x)[1](x), X3),
    "vjp_jit_custom_jvp_rule_jit_apply": _case(lambda m: lambda x: m.vjp(
        m.jit(lambda a: _jvp_rule_of(m, _jitted_sin_cos(m))(a).sum()), x)[1](f32(1.0)), X3),
    "grad_jit_closing_over_array": _case(lambda m: m.grad(lambda x: _closing_over_array(m)(x).sum()), X3),
    "jit_grad_jit_closing_over_array": _case(lambda m: m.jit(m.grad(lambda x: _closing_over_array(m)(x).sum())),
                                             X3),
    "grad_jit_scan_stacked_outputs": _case(lambda m: m.grad(lambda xs: m.jit(lambda v: m.lax.scan(
        lambda c, y: (m.numpy.sin(c) * y, (c * y, m.numpy.exp(c))), 1.0, v))(xs)[1][1].sum()), X3),
    "jit_grad_scan_stacked_outputs": _case(lambda m: m.jit(m.grad(lambda c0: m.lax.scan(
        lambda c, y: (m.numpy.sin(c) * y, (c * y, m.numpy.cos(c))), c0, X3)[1][0].sum())), S),
    "grad_betainc_numpy_scalars": _case(lambda m: m.grad(lambda x: m.lax.betainc(
        np.array(2.0, f32), f32(3.0), x)), S),
    "jvp_betainc_numpy_and_array": _case(lambda m: lambda x: m.jvp(lambda y: m.lax.betainc(
        m.numpy.array(2.0, f32), np.array(3.0, f32), y), (x,), (x,)), S),
    "grad_betainc_numpy_rows": _case(lambda m: m.grad(lambda x: m.lax.betainc(
        np.full(3, 2.0, f32), np.array(3.0, f32), x).sum()), X3 / 4),
}

if __name__ == "__main__":
    write(CASES, "autodiff_programs_golden.json")
