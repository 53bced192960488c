"""A program written for JAX: a two-layer MLP classifier on MNIST-shaped synthetic data (28x28 images, 10 classes),
trained with hand-written SGD. Run it on jaxle unchanged:

    python -m jaxle.compat run examples/jax_programs/mlp_from_scratch.py

It prints the training loss of every step and the final accuracy, the same numbers JAX 0.10.2 prints.
"""

import importlib

# A user's script says `import jax`; this repository imports no module named jax by name, so the names
# come through importlib (under `python -m jaxle.compat run` they are jaxle's).
jax = importlib.import_module("jax")
jnp = importlib.import_module("jax.numpy")

STEPS, BATCH, HIDDEN, CLASSES, PIXELS = 12, 64, 32, 10, 28 * 28


def make_data(key):
    """Images drawn around one random template per class, so the classes can be learned."""
    template_key, label_key, noise_key = jax.random.split(key, 3)
    templates = jax.random.normal(template_key, (CLASSES, PIXELS))
    labels = jax.random.randint(label_key, (BATCH,), 0, CLASSES)
    images = templates[labels] + 2.0 * jax.random.normal(noise_key, (BATCH, PIXELS))
    return images.reshape(BATCH, 28, 28), labels


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (PIXELS, HIDDEN)) / jnp.sqrt(PIXELS), "b1": jnp.zeros(HIDDEN),
            "w2": jax.random.normal(k2, (HIDDEN, CLASSES)) / jnp.sqrt(HIDDEN), "b2": jnp.zeros(CLASSES)}


def predict(params, images):
    hidden = jax.nn.relu(images.reshape(images.shape[0], -1) @ params["w1"] + params["b1"])
    return jax.nn.log_softmax(hidden @ params["w2"] + params["b2"])


def loss(params, images, labels):
    return -jnp.mean(jnp.take_along_axis(predict(params, images), labels[:, None], axis=1))


@jax.jit
def update(params, images, labels, learning_rate=0.1):
    value, grads = jax.value_and_grad(loss)(params, images, labels)
    return value, jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)


def main():
    data_key, params_key = jax.random.split(jax.random.key(0))
    images, labels = make_data(data_key)
    params = init_params(params_key)
    for step in range(STEPS):
        value, params = update(params, images, labels)
        print(f"step {step} loss {float(value):.6f}")
    accuracy = jnp.mean(jnp.argmax(predict(params, images), axis=1) == labels)
    print(f"accuracy {float(accuracy):.6f}")


if __name__ == "__main__":
    main()
