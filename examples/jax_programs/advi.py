"""A program written for JAX: automatic differentiation variational inference (ADVI) for Bayesian linear
regression. A mean-field Gaussian over the weights is fitted by maximizing a Monte Carlo estimate of the ELBO
(reparameterized samples, ``vmap`` over them, ``grad`` of the estimate). Run it on jaxle unchanged:

    python -m jaxle.compat run examples/jax_programs/advi.py

It prints the negative ELBO every few steps and the fitted posterior means, the same numbers JAX 0.10.2 prints.
"""

import importlib

# A user's script says `import jax`; this repository imports no module named jax by name, so the names
# come through importlib (under `python -m jaxle.compat run` they are jaxle's).
jax = importlib.import_module("jax")
jnp = importlib.import_module("jax.numpy")
norm = importlib.import_module("jax.scipy.stats.norm")

STEPS, SAMPLES, POINTS, FEATURES, NOISE = 60, 16, 40, 3, 0.5


def make_data(key):
    x_key, noise_key = jax.random.split(key)
    x = jax.random.normal(x_key, (POINTS, FEATURES))
    true_w = jnp.array([1.5, -2.0, 0.5])
    return x, x @ true_w + NOISE * jax.random.normal(noise_key, (POINTS,))


def log_joint(w, x, y):
    return jnp.sum(norm.logpdf(w, 0.0, 1.0)) + jnp.sum(norm.logpdf(y, x @ w, NOISE))


def negative_elbo(variational, key, x, y):
    mean, log_std = variational
    eps = jax.random.normal(key, (SAMPLES, FEATURES))
    samples = mean + jnp.exp(log_std) * eps
    entropy = jnp.sum(log_std) + 0.5 * FEATURES * (1.0 + jnp.log(2 * jnp.pi))
    return -(jnp.mean(jax.vmap(log_joint, in_axes=(0, None, None))(samples, x, y)) + entropy)


@jax.jit
def step(variational, key, x, y, learning_rate=0.01):
    value, grads = jax.value_and_grad(negative_elbo)(variational, key, x, y)
    return value, jax.tree.map(lambda v, g: v - learning_rate * g, variational, grads)


def main():
    data_key, sample_key = jax.random.split(jax.random.key(42))
    x, y = make_data(data_key)
    variational = (jnp.zeros(FEATURES), jnp.full(FEATURES, -1.0))
    for i in range(STEPS):
        value, variational = step(variational, jax.random.fold_in(sample_key, i), x, y)
        if i % 10 == 0 or i == STEPS - 1:
            print(f"step {i} negative elbo {float(value):.6f}")
    print("posterior mean", " ".join(f"{float(m):.6f}" for m in variational[0]))
    print("posterior std", " ".join(f"{float(s):.6f}" for s in jnp.exp(variational[1])))


if __name__ == "__main__":
    main()
