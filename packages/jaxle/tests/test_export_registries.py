"""``jax.export``'s safety checks and pytree-serialization registries: ``DisabledSafetyCheck`` in
``export(..., disabled_checks=...)`` (user custom calls refused unless allowed, the platform check of a call),
and custom nodes and namedtuples round-tripping through ``serialize``/``deserialize`` with JAX 0.10.2's errors for
unregistered ones (messages as JAX 0.10.2 gives them)."""

import collections
import dataclasses
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from jaxlib.cpu import _lapack

import jaxle as jax
import jaxle.numpy as jnp
from jaxle import export

Check = export.DisabledSafetyCheck


def test_disabled_safety_check_values():
    assert str(Check.platform()) == repr(Check.platform()) == "platform"
    assert str(Check.custom_call("foo")) == "custom_call:foo"
    assert Check.custom_call("foo").is_custom_call() == "foo" and Check.platform().is_custom_call() is None
    assert Check.platform() == Check.platform() and hash(Check.custom_call("a")) == hash(Check.custom_call("a"))
    assert Check.custom_call("a") != Check.custom_call("b")


jax.ffi.register_ffi_target("jaxle_export_test_spotrf", _lapack.registrations()["lapack_spotrf_ffi"], platform="cpu")
SPD = np.array([[4.0, 2.0], [2.0, 3.0]], np.float32)


@jax.jit
def cholesky_of_user_target(x):
    factor, _ = jax.ffi.ffi_call("jaxle_export_test_spotrf", (jax.ShapeDtypeStruct((2, 2), jnp.float32),
                                                              jax.ShapeDtypeStruct((), jnp.int32)),
                                 input_layouts=[(1, 0)], output_layouts=[(1, 0), None])(x, uplo=np.uint8(ord("L")))
    return factor


def test_a_user_custom_call_is_refused_unless_allowed():
    with pytest.raises(ValueError, match="Cannot serialize code with custom calls whose targets have no "
                                         "compatibility guarantees. .* Examples are:\n.*stablehlo.custom_call "
                                         "@jaxle_export_test_spotrf"):
        export.export(cholesky_of_user_target)(SPD)
    with pytest.raises(ValueError, match="Cannot serialize code with custom calls"):
        export.export(cholesky_of_user_target, disabled_checks=[Check.custom_call("other")])(SPD)
    allowed = export.export(cholesky_of_user_target,
                            disabled_checks=[Check.custom_call("jaxle_export_test_spotrf")])(SPD)
    assert allowed.disabled_safety_checks == (Check.custom_call("jaxle_export_test_spotrf"),)
    restored = export.deserialize(allowed.serialize())
    assert restored.disabled_safety_checks == allowed.disabled_safety_checks
    np.testing.assert_allclose(np.tril(np.asarray(restored.call(SPD))), np.linalg.cholesky(SPD), rtol=1e-6)


def test_jaxlibs_own_kernels_export_without_permission():
    exported = export.export(jax.jit(jnp.linalg.inv))(SPD)
    assert "lapack_" in exported.mlir_module()
    np.testing.assert_allclose(np.asarray(exported.call(SPD)), np.linalg.inv(SPD), rtol=1e-5)


def test_disabled_checks_must_be_safety_checks():
    with pytest.raises(AttributeError, match="'str' object has no attribute 'is_custom_call'"):
        export.export(jax.jit(jnp.sin), disabled_checks=["platform"])


def test_platform_check_of_a_call_can_be_disabled():
    exported = export.export(jax.jit(jnp.sin))(SPD)
    elsewhere = dataclasses.replace(exported, platforms=("tpu",))
    with pytest.raises(ValueError, match=r"Function 'sin' was exported for platforms '\('tpu',\)' but it is used "
                                         r"on '\('cpu',\)'."):
        elsewhere.call(SPD)
    allowed = dataclasses.replace(elsewhere, disabled_safety_checks=(Check.platform(),))
    np.testing.assert_allclose(np.asarray(allowed.call(SPD)), np.sin(SPD), rtol=1e-6)


Pair = collections.namedtuple("Pair", ["a", "b"])
Unregistered = collections.namedtuple("Unregistered", ["a"])


@jax.tree_util.register_pytree_node_class
class Scaled:
    """A custom node whose aux data (an int) must survive the round trip."""

    def __init__(self, x, scale):
        self.x, self.scale = x, scale

    def tree_flatten(self):
        return (self.x,), self.scale

    @classmethod
    def tree_unflatten(cls, scale, children):
        return cls(children[0], scale)


export.register_namedtuple_serialization(Pair, serialized_name="jaxle_tests.Pair")
export.register_pytree_node_serialization(Scaled, serialized_name="jaxle_tests.Scaled",
                                          serialize_auxdata=lambda scale: str(scale).encode(),
                                          deserialize_auxdata=lambda data: int(data.decode()))


def test_registered_nodes_round_trip():
    @jax.jit
    def step(pair, scaled, extra):
        return Scaled(pair.a * scaled.scale + scaled.x, scaled.scale + 1), {"b": pair.b, "n": [None, extra]}

    args = (Pair(jnp.ones(2), jnp.arange(3.0)), Scaled(jnp.full(2, 2.0), 3),
            collections.OrderedDict(z=jnp.ones(()), y=jnp.zeros(())))
    exported = export.export(step)(*args)
    restored = export.deserialize(exported.serialize())
    assert restored.in_tree == exported.in_tree and restored.out_tree == exported.out_tree
    scaled, rest = restored.call(*args)
    assert isinstance(scaled, Scaled) and scaled.scale == 4
    np.testing.assert_array_equal(np.asarray(scaled.x), [5.0, 5.0])
    np.testing.assert_array_equal(np.asarray(rest["b"]), [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="with pytree metadata 4 in the invocation and a <class "
                                         ".*Scaled'> with pytree metadata 3 when exported"):
        restored.call(args[0], Scaled(jnp.full(2, 2.0), 4), args[2])


@pytest.mark.parametrize("arg,error,message", [
    (Unregistered(jnp.ones(2)), ValueError,
     "Cannot serialize PyTreeDef containing an unregistered type `<class '{}.Unregistered'>`. Use "
     "`export.register_pytree_node_serialization` or `export.register_namedtuple_serialization`."),
    (collections.defaultdict(list, a=jnp.ones(2)), ValueError,
     "Cannot serialize PyTreeDef containing an unregistered type `<class 'collections.defaultdict'>`."),
    ({1: jnp.ones(2)}, TypeError,
     "Serialization is supported only for dictionaries with string keys. Found key 1 of type <class 'int'>."),
], ids=["namedtuple", "defaultdict", "int_key"])
def test_unserializable_trees(arg, error, message):
    exported = export.export(jax.jit(lambda t: 0.0))(arg)
    with pytest.raises(error) as raised:
        exported.serialize()
    assert str(raised.value).startswith(message.format(__name__))


def test_registration_errors():
    with pytest.raises(ValueError, match="Duplicate serialization registration for type `<class '.*Pair'>`. "
                                         "Previous registration was with serialized_name `jaxle_tests.Pair`."):
        export.register_namedtuple_serialization(Pair, serialized_name="other")
    with pytest.raises(ValueError, match="Duplicate serialization registration for serialized_name "
                                         "`jaxle_tests.Pair`. Previous registration was for type"):
        export.register_namedtuple_serialization(Unregistered, serialized_name="jaxle_tests.Pair")
    with pytest.raises(ValueError, match="Use `jax.export.register_pytree_node_serialization` for types other "
                                         "than `collections.namedtuple`."):
        export.register_namedtuple_serialization(Scaled, serialized_name="x")
    with pytest.raises(ValueError, match="If `from_children` is not present, you must call first"
                                         "`jax.tree_util.register_pytree_node` for `<class 'object'>`"):
        export.register_pytree_node_serialization(object, serialized_name="o", serialize_auxdata=bytes,
                                                  deserialize_auxdata=bytes)

    class Returns7:
        pass

    jax.tree_util.register_pytree_node(Returns7, lambda n: ((), 7), lambda aux, children: Returns7())
    export.register_pytree_node_serialization(Returns7, serialized_name="jaxle_tests.Returns7",
                                              serialize_auxdata=lambda aux: aux, deserialize_auxdata=int)
    with pytest.raises(ValueError, match="The custom serialization function for `node_type` must return a `bytes` "
                                         "object. It returned a <class 'int'>."):
        export.export(jax.jit(lambda t: 0.0))(Returns7()).serialize()


def test_deserializing_needs_the_registration(tmp_path):
    exported = export.export(jax.jit(lambda p: p.a + p.b))(Pair(jnp.ones(2), jnp.ones(2)))
    (tmp_path / "blob").write_bytes(exported.serialize())
    program = textwrap.dedent(f"""
        import collections, pathlib
        from jaxle import export
        blob = pathlib.Path({str(tmp_path / "blob")!r}).read_bytes()
        try:
            export.deserialize(blob)
        except ValueError as e:
            print(e)
        Pair = collections.namedtuple("Pair", ["a", "c"])
        export.register_namedtuple_serialization(Pair, serialized_name="jaxle_tests.Pair")
        try:
            export.deserialize(blob)
        except TypeError as e:
            print(e)
    """)
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "Cannot deserialize a PyTreeDef containing an unregistered type `jaxle_tests.Pair`. Use "
        "`export.register_pytree_node_serialization` or `export.register_namedtuple_serialization`.",
        "Pair.__new__() got an unexpected keyword argument 'b'"]
