"""A first tour of optax, written for JAX (runs unchanged on jaxle with ``python -m jaxle.compat run``).

It follows the path of optax's getting-started guide: fit a linear model with ``optax.adam``, build the same
optimizer by hand from ``optax.chain`` (with gradient clipping in front), train with a learning-rate schedule whose
current value is read back from the optimizer state (``optax.inject_hyperparams``), and train a small MLP
classifier with ``optax.adamw``. Every run is deterministic; the printed losses are those of JAX 0.10.2.
"""

import functools
import importlib

import optax

# A user's script says `import jax`; this repository imports no module named jax by name, so the names
# come through importlib (under `python -m jaxle.compat run` they are jaxle's).
jax = importlib.import_module("jax")
jnp = importlib.import_module("jax.numpy")

# ---------------------------------------------------------------- data: a noisy linear target

data_key, noise_key, init_key, class_key = jax.random.split(jax.random.key(7), 4)
inputs = jax.random.normal(data_key, (32, 3))
true_weights = jnp.array([0.5, -1.5, 2.0])
targets = inputs @ true_weights + 0.05 * jax.random.normal(noise_key, (32,))


@functools.partial(jax.vmap, in_axes=(None, 0))
def linear_model(weights, x):
    return jnp.dot(weights, x)


def squared_loss(weights, x, y):
    return jnp.mean(optax.l2_loss(linear_model(weights, x), y))


def fit(optimizer, weights, steps, report_every, loss_fn=squared_loss, data=(inputs, targets)):
    """Train ``weights`` with ``optimizer`` for ``steps`` jitted steps; prints the loss now and then."""
    state = optimizer.init(weights)

    @jax.jit
    def step(weights, state):
        loss, grads = jax.value_and_grad(loss_fn)(weights, *data)
        updates, state = optimizer.update(grads, state, weights)
        return optax.apply_updates(weights, updates), state, loss

    for i in range(steps):
        weights, state, loss = step(weights, state)
        if i % report_every == 0 or i == steps - 1:
            print(f"  step {i:3d} loss {float(loss):.6f}")
    return weights, state


# ---------------------------------------------------------------- 1. plain Adam

print("adam on a linear model")
start = jnp.zeros(3)
weights, _ = fit(optax.adam(learning_rate=0.1), start, 60, 20)
print("  weights", " ".join(f"{w:.6f}" for w in weights.tolist()))

# ---------------------------------------------------------------- 2. the same optimizer from parts, clipped

print("chain: clip_by_global_norm, scale_by_adam, scale")
by_hand = optax.chain(optax.clip_by_global_norm(1.0), optax.scale_by_adam(b1=0.9, b2=0.999), optax.scale(-0.1))
weights, _ = fit(by_hand, start, 60, 20)
print("  weights", " ".join(f"{w:.6f}" for w in weights.tolist()))

# ---------------------------------------------------------------- 3. a schedule, read back from the state

print("sgd with momentum on a warmup-cosine schedule")
schedule = optax.warmup_cosine_decay_schedule(init_value=0.0, peak_value=0.2, warmup_steps=10, decay_steps=50,
                                              end_value=0.01)
print("  schedule", " ".join(f"{float(schedule(i)):.6f}" for i in (0, 5, 10, 30, 50)))
scheduled = optax.inject_hyperparams(optax.sgd)(learning_rate=schedule, momentum=0.9)
weights, state = fit(scheduled, start, 50, 10)
print(f"  learning rate after 50 steps {float(state.hyperparams['learning_rate']):.6f}")

# ---------------------------------------------------------------- 4. an MLP classifier with AdamW

print("adamw on an MLP classifier")
points = jax.random.normal(class_key, (64, 2))
labels = (points[:, 0] * points[:, 1] > 0).astype(jnp.int32)  # the quadrants: an XOR-like task


def init_mlp(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)}
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def mlp(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def classification_loss(params, x, y):
    return jnp.mean(optax.softmax_cross_entropy_with_integer_labels(mlp(params, x), y))


params = init_mlp(init_key, [2, 16, 16, 2])
optimizer = optax.chain(optax.clip(1.0), optax.adamw(learning_rate=0.03, weight_decay=1e-3))
params, _ = fit(optimizer, params, 80, 20, classification_loss, (points, labels))
accuracy = jnp.mean(jnp.argmax(mlp(params, points), axis=-1) == labels)
print(f"  accuracy {float(accuracy):.6f}")
print(f"  global norm of the parameters {float(optax.global_norm(params)):.6f}")
