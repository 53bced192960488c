"""Behaviour beyond the golden cases: repeated rebuilds, big and deep trees, registration, is_leaf."""

import dataclasses
from collections import OrderedDict

import pytest

import jaxle_tree as tu


def rebuild_many(treedef, leaves, times=4):
    return [treedef.unflatten(leaves) for _ in range(times)]


def test_version():
    assert tu.__version__ == "0.1.0"


def test_repeated_unflatten_uses_current_dict_keys():
    # {1: x} and {True: x} have equal treedefs; each must rebuild with its own key object.
    one = tu.tree_structure({1: "a"})
    true = tu.tree_structure({True: "a"})
    for got in rebuild_many(one, [5]):
        assert list(got) == [1] and type(next(iter(got))) is int
    for got in rebuild_many(true, [5]):
        assert type(next(iter(got))) is bool


def test_repeated_unflatten_uses_current_aux_object():
    class Aux:
        def __eq__(self, other):
            return isinstance(other, Aux)

        def __hash__(self):
            return 0

    @tu.register_pytree_node_class
    class Node:
        def __init__(self, aux, child):
            self.aux, self.child = aux, child

        def tree_flatten(self):
            return (self.child,), self.aux

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(aux, *children)

    first, second = Aux(), Aux()
    def_first = tu.tree_structure([Node(first, 1)])
    def_second = tu.tree_structure([Node(second, 1)])
    for got in rebuild_many(def_first, [2]):
        assert got[0].aux is first and got[0].child == 2
    for got in rebuild_many(def_second, [3]):
        assert got[0].aux is second and got[0].child == 3


def test_large_and_deep_trees_round_trip():
    big = {f"k{i:05d}": [i, (i + 0.5,)] for i in range(5000)}
    leaves, treedef = tu.tree_flatten(big)
    assert len(leaves) == 10000 and leaves[:4] == [0, 0.5, 1, 1.5]
    assert rebuild_many(treedef, leaves, 3) == [big] * 3
    deep = 0
    for _ in range(300):
        deep = [deep]
    leaves, treedef = tu.tree_flatten(deep)
    assert leaves == [0] and treedef.num_nodes == 301
    assert rebuild_many(treedef, leaves, 3) == [deep] * 3


def test_unflatten_accepts_any_iterable():
    treedef = tu.tree_structure((1, {"a": 2}))
    assert treedef.unflatten(iter([7, 8])) == (7, {"a": 8})
    assert treedef.unflatten(x for x in (7, 8)) == (7, {"a": 8})


def test_is_leaf_sees_every_node_including_root_and_none():
    seen = []
    tu.tree_flatten({"a": [1, None]}, is_leaf=lambda x: seen.append(x) or False)
    assert seen == [{"a": [1, None]}, [1, None], 1, None]


def test_register_dataclass_static_fields_and_rebuild():
    @dataclasses.dataclass
    class Layer:
        weight: object
        bias: object
        activation: str = dataclasses.field(default="relu", metadata={"static": True})

    tu.register_dataclass(Layer)
    layer = Layer([1.0, 2.0], 3.0, "tanh")
    leaves, treedef = tu.tree_flatten(layer)
    assert leaves == [1.0, 2.0, 3.0]
    assert treedef.node_data() == (Layer, ("tanh",))
    assert tu.tree_map(lambda x: -x, layer) == Layer([-1.0, -2.0], -3.0, "tanh")
    assert tu.tree_structure(Layer(1, 2, "relu")) != tu.tree_structure(Layer(1, 2, "tanh"))


def test_register_pytree_with_keys_class_paths():
    @tu.register_pytree_with_keys_class
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def tree_flatten_with_keys(self):
            return ((tu.GetAttrKey("a"), self.a), (tu.GetAttrKey("b"), self.b)), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    paths = [tu.keystr(p) for p, _ in tu.tree_leaves_with_path({"p": Pair(1, [2])})]
    assert paths == ["['p'].a", "['p'].b[0]"]
    assert tu.tree_leaves(Pair(1, [2])) == [1, 2]


def test_duplicate_registration_is_a_value_error():
    with pytest.raises(ValueError, match="Duplicate custom PyTreeDef type registration"):
        tu.register_pytree_node(OrderedDict, lambda x: ((), None), lambda a, c: None)


def test_tree_module_mirrors_tree_util():
    tree = {"b": (1, 2), "a": [3]}
    assert tu.tree.leaves(tree) == [3, 1, 2]
    assert tu.tree.map(lambda x: x * 10, tree) == {"a": [30], "b": (10, 20)}
    assert tu.tree.structure(tree) == tu.tree_structure(tree)
    assert tu.tree.reduce(lambda a, b: a + b, tree) == 6
    assert tu.tree.reduce_associative(lambda a, b: a + b, [1, 2, 3, 4, 5]) == 15
    with pytest.raises(TypeError, match="Must specify identity"):
        tu.tree.reduce_associative(lambda a, b: a + b, [])
    assert tu.tree.reduce_associative(lambda a, b: a + b, [], identity=0) == 0


def test_partial_is_a_pytree_and_callable():
    add = tu.Partial(lambda x, y, scale=1: (x + y) * scale, 1, scale=3)
    doubled = tu.tree_map(lambda v: v * 2, add)
    assert isinstance(doubled, tu.Partial)
    assert add(2) == 9 and doubled(2) == 24


def test_static_field_stays_in_the_treedef():
    @tu.register_dataclass
    @dataclasses.dataclass
    class Op:
        x: float
        name: str = tu.tree.static(default="add", metadata={"doc": "kept"})

    leaves, treedef = tu.tree.flatten(Op(1.0))
    assert leaves == [1.0] and tu.tree.unflatten(treedef, [2.0]) == Op(2.0, "add")
    assert dataclasses.fields(Op)[1].metadata == {"doc": "kept", "static": True}


def test_flatten_one_level_as_jax():
    assert tu.flatten_one_level({"b": [1, 2], "a": (3,)}) == (((3,), [1, 2]), ("a", "b"))
    assert tu.flatten_one_level((1, None)) == ((1, None), None) and tu.flatten_one_level(None) == ((), None)
    assert tu.flatten_one_level(OrderedDict(b=1, a=2)) == ([1, 2], ("b", "a"))
    assert tu.flatten_one_level_with_keys([1, 2]) == (((tu.SequenceKey(0), 1), (tu.SequenceKey(1), 2)), None)
    assert tu.flatten_one_level_with_keys({"a": 1}) == (((tu.DictKey("a"), 1),), ("a",))
    with pytest.raises(ValueError, match="can't tree-flatten type: <class 'float'>"):
        tu.flatten_one_level(1.0)

    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

    tu.default_registry.register_node(Pair, lambda p: ((p.a, p.b), "aux"), lambda aux, children: Pair(*children))
    assert tu.flatten_one_level(Pair(1, 2)) == ((1, 2), "aux")
    assert tu.flatten_one_level_with_keys(Pair(1, 2)) == ([(tu.FlattenedIndexKey(0), 1),
                                                           (tu.FlattenedIndexKey(1), 2)], "aux")
    assert tu.default_registry.flatten_one_level(3) is None
    assert tu.default_registry.flatten({"a": 1, "b": None})[0] == [1]
    assert tu.is_tree_node(list) and tu.is_tree_node(type(None)) and tu.is_tree_node(Pair)
    assert not tu.is_tree_node(int) and tu.default_registry.is_node(OrderedDict)


def test_key_entries_take_their_value_by_position_or_field_name():
    for cls, field, value in ((tu.DictKey, "key", "a"), (tu.SequenceKey, "idx", 1), (tu.GetAttrKey, "name", "x"),
                              (tu.FlattenedIndexKey, "key", 2)):
        by_name = cls(**{field: value})
        assert by_name == cls(value) and getattr(by_name, field) == value
        with pytest.raises(TypeError):
            cls(value, **{field: value})
        with pytest.raises(TypeError):
            cls(other=value)
    assert str(tu.DictKey(key="a")) + str(tu.SequenceKey(idx=1)) + str(tu.GetAttrKey(name="x")) == "['a'][1].x"
