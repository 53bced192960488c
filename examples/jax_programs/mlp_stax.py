"""A program written for JAX: the MLP classifier of mlp_from_scratch.py built with ``jax.example_libraries.stax``
and trained with ``jax.example_libraries.optimizers`` (Adam with a decaying step size). Run it on jaxle unchanged:

    python -m jaxle.compat run examples/jax_programs/mlp_stax.py

It prints the training loss of every step and the final accuracy, the same numbers JAX 0.10.2 prints.
"""

import importlib

from mlp_from_scratch import CLASSES, STEPS, make_data

# A user's script says `import jax`; this repository imports no module named jax by name, so the names
# come through importlib (under `python -m jaxle.compat run` they are jaxle's).
jax = importlib.import_module("jax")
jnp = importlib.import_module("jax.numpy")
optimizers = importlib.import_module("jax.example_libraries.optimizers")
stax = importlib.import_module("jax.example_libraries.stax")

init_network, predict = stax.serial(stax.Flatten, stax.Dense(32), stax.Relu, stax.Dropout(0.9),
                                    stax.Dense(CLASSES), stax.LogSoftmax)
opt_init, opt_update, get_params = optimizers.adam(optimizers.exponential_decay(0.01, 5, 0.5))


def loss(params, images, labels, key):
    log_probs = predict(params, images, rng=key)
    return -jnp.mean(jnp.sum(log_probs * jax.nn.one_hot(labels, CLASSES), axis=1))


@jax.jit
def update(step, state, images, labels, key):
    value, grads = jax.value_and_grad(loss)(get_params(state), images, labels, key)
    return value, opt_update(step, optimizers.clip_grads(grads, 5.0), state)


def main():
    data_key, params_key, dropout_key = jax.random.split(jax.random.key(0), 3)
    images, labels = make_data(data_key)
    _, params = init_network(params_key, (-1,) + images.shape[1:])
    state = opt_init(params)
    for step in range(STEPS):
        value, state = update(step, state, images, labels, jax.random.fold_in(dropout_key, step))
        print(f"step {step} loss {float(value):.6f}")
    accuracy = jnp.mean(jnp.argmax(predict(get_params(state), images, rng=dropout_key), axis=1) == labels)
    print(f"accuracy {float(accuracy):.6f}")


if __name__ == "__main__":
    main()
