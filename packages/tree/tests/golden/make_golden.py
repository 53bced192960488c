"""Golden pytree behaviour, computed by an implementation named on the command line.

    /work/jaxpeer/bin/python make_golden.py jax      # rewrite golden.json from JAX 0.10.2
    python make_golden.py jaxle                      # print jaxle's results, for a diff

The test suite calls ``compute`` with ``jaxle_tree`` and compares with golden.json.
Every case result is plain JSON: reprs, leaf lists, counts, or ``["error", type, message]``.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import pickle
import re
import sys
from collections import OrderedDict, defaultdict, namedtuple
from pathlib import Path

GOLDEN = Path(__file__).with_name("golden.json")
MODULES = {"jax": "jax.tree_util", "jaxle": "jaxle_tree", "jaxle_tree": "jaxle_tree"}

Point = namedtuple("Point", "x y")
Other = namedtuple("Other", "x y")


def _clean(text: str) -> str:
    """Drop what legitimately differs between implementations: addresses and module paths."""
    text = re.sub(r" at 0x[0-9a-f]+", " at 0x?", text).replace("__main__.", "make_golden.")
    return re.sub(r"<class '[\w.]*\.Partial'>", "<class 'Partial'>", text)


def _run(thunk):
    try:
        value = thunk()
    except Exception as error:  # noqa: BLE001 - the error itself is the golden value
        return ["error", type(error).__name__, _clean(str(error))]
    return _clean(repr(value))


def _classes(tu):
    """Fresh user classes registered with ``tu`` (fresh per call, so registering never repeats)."""

    class Box:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def __repr__(self):
            return f"Box({self.a!r}, {self.b!r})"

    tu.register_pytree_node(Box, lambda box: ((box.a, box.b), "box-aux"), lambda aux, ch: Box(*ch))

    class Keyed:
        def __init__(self, left, right):
            self.left, self.right = left, right

        def __repr__(self):
            return f"Keyed({self.left!r}, {self.right!r})"

    tu.register_pytree_with_keys(
        Keyed,
        lambda k: (((tu.GetAttrKey("left"), k.left), (tu.DictKey("r"), k.right)), None),
        lambda aux, ch: Keyed(*ch),
    )

    class Tagged:
        def __init__(self, tag, value):
            self.tag, self.value = tag, value

        def tree_flatten(self):
            return (self.value,), self.tag

        @classmethod
        def tree_unflatten(cls, tag, children):
            return cls(tag, *children)

        def __repr__(self):
            return f"Tagged({self.tag!r}, {self.value!r})"

    tu.register_pytree_node_class(Tagged)

    @dataclasses.dataclass
    class Params:
        w: object
        b: object
        name: str = dataclasses.field(default="p", metadata=dict(static=True))

    tu.register_dataclass(Params)

    @dataclasses.dataclass
    class Explicit:
        x: object
        y: object
        mode: str

    tu.register_dataclass(Explicit, data_fields=["y", "x"], meta_fields=["mode"])

    class Marker:
        def __init__(self, v):
            self.v = v

        def __eq__(self, other):
            return isinstance(other, Marker) and other.v == self.v

        def __hash__(self):
            return hash(self.v)

        def __repr__(self):
            return f"Marker({self.v})"

    tu.register_static(Marker)
    return Box, Keyed, Tagged, Params, Explicit, Marker


def _bad_node(tu, result, with_keys=False):
    """An instance of a fresh class whose registered flatten function (or key flatten function) returns
    ``result``, however malformed."""

    class Bad:
        def __repr__(self):
            return "Bad()"

    if with_keys:
        tu.register_pytree_with_keys(Bad, lambda node: result, lambda aux, ch: Bad(), lambda node: ([1], None))
    else:
        tu.register_pytree_node(Bad, lambda node: result, lambda aux, ch: Bad())
    return Bad()


def _trees(tu, classes):
    Box, Keyed, Tagged, Params, Explicit, Marker = classes
    return {
        "leaf": 1,
        "none": None,
        "empty_tuple": (),
        "empty_list": [],
        "empty_dict": {},
        "single_tuple": (1,),
        "nested": [1, {"k1": 2, "k2": (3, 4)}, 5],
        "dict_sorted": {"b": 1, "a": 2, "c": {"z": 3, "y": 4}},
        "dict_int_keys": {3: "c", 1: "a", 2: "b"},
        "dict_mixed_numbers": {2: "a", 1.5: "b", True: "c"},
        "dict_tuple_keys": {(2, 1): "x", (1, 2): "y"},
        "nones": [None, {"a": None, "b": 1}, (None,)],
        "namedtuple": Point(1, (2, 3)),
        "ordered_dict": OrderedDict([("b", 1), ("a", 2)]),
        "defaultdict": defaultdict(list, {"b": 1, "a": [2, 3]}),
        "defaultdict_none": defaultdict(None, {"y": 1}),
        "custom": Box(1, [2, 3]),
        "custom_none_child": [Box(1, None)],
        "keyed": Keyed(1, (2, 3)),
        "node_class": Tagged("t", {"v": 1}),
        "dataclass": Params([1, 2], 3),
        "dataclass_explicit": Explicit(1, 2, "train"),
        "static": [Marker(1), 2],
        "partial": tu.Partial(max, 1, key=2),
        "partial_empty": tu.Partial(max),
        "mixed": {"p": [Point(None, 1), OrderedDict(z=2)], "q": (Box((3,), {}), defaultdict(int, k=4))},
        "deep": [[[[[1]]]], ((2,),)],
    }


def _describe(tu, tree) -> dict:
    """Everything observable about one tree: structure, paths, round trips."""
    leaves, treedef = tu.tree_flatten(tree)
    paths = tu.tree_flatten_with_path(tree)[0]
    return {
        "flatten": [_clean(repr(leaves)), repr(treedef), treedef.num_leaves, treedef.num_nodes],
        "children": [repr(c) for c in treedef.children()],
        "node_data": _run(treedef.node_data),
        "roundtrip": _run(lambda: tu.tree_unflatten(treedef, leaves)),
        "pickle": _run(lambda: pickle.loads(pickle.dumps(treedef)) == treedef),
        "is_leaf": tu.treedef_is_leaf(treedef),
        "paths": [[repr(p), _clean(repr(x))] for p, x in paths],
        "keystr": [tu.keystr(p) for p, _ in paths],
        "keystr_simple": [tu.keystr(p, simple=True, separator="/") for p, _ in paths],
        "map": _run(lambda: tu.tree_map(lambda x: ("f", x), tree)),
        "map_none_leaf": _run(lambda: tu.tree_map(lambda x: 0, tree, is_leaf=lambda x: x is None)),
    }


def compute(tu) -> dict:
    """Every golden case, evaluated with tree_util-like module ``tu``."""
    classes = _classes(tu)
    Box, Keyed, Tagged, Params, Explicit, Marker = classes
    trees = _trees(tu, classes)
    out: dict = {}
    s = tu.tree_structure
    for name, tree in trees.items():
        out.update({f"{aspect}/{name}": value for aspect, value in _describe(tu, tree).items()})
    errors = {
        "unsortable_keys": lambda: tu.tree_flatten({1: "a", "b": "c"}),
        "none_key": lambda: tu.tree_flatten({None: 1, 2: 3}),
        "register_twice": lambda: tu.register_pytree_node(Box, lambda b: ((), None), lambda a, c: None),
        "register_builtin": lambda: tu.register_pytree_node(list, lambda b: ((), None), lambda a, c: None),
        "unflatten_few": lambda: tu.tree_unflatten(tu.tree_structure([1, 2]), [1]),
        "unflatten_many": lambda: tu.tree_unflatten(tu.tree_structure([1, 2]), [1, 2, 3]),
        "map_list_length": lambda: tu.tree_map(lambda a, b: a, [1, 2], [1, 2, 3]),
        "map_dict_keys": lambda: tu.tree_map(lambda a, b: a, {"a": 1}, {"b": 1}),
        "map_types": lambda: tu.tree_map(lambda a, b: a, [1, (2, 3)], [1, [2, 3]]),
        "map_none_vs_leaf": lambda: tu.tree_map(lambda a, b: a, [1, None], [1, 2]),
        "map_leaf_for_node": lambda: tu.tree_map(lambda a, b: a, [1, 2], 3),
        "map_custom_aux": lambda: tu.tree_map(lambda a, b: a, Tagged("x", 1), Tagged("y", 1)),
        "map_dict_count": lambda: tu.tree_map(lambda a, b: a, {"a": 1}, {"a": 1, "c": 2}),
        "map_deep_path": lambda: tu.tree_map(lambda a, b: a, {"a": [1, {"b": (1, 2)}]}, {"a": [1, {"b": (1, 2, 3)}]}),
        "map_with_path_mismatch": lambda: tu.tree_map_with_path(lambda p, a, b: a, [1], [1, 2]),
        "up_to_tuple_arity": lambda: tu.tree_structure([1, (2, 3)]).flatten_up_to([9, (1, 2, 3)]),
        "up_to_expected_tuple": lambda: tu.tree_structure([1, (2, 3)]).flatten_up_to([9, [1, 2]]),
        "up_to_list_arity": lambda: tu.tree_structure([1, 2]).flatten_up_to([1]),
        "up_to_expected_list": lambda: tu.tree_structure([1, 2]).flatten_up_to(3),
        "up_to_dict_keys": lambda: tu.tree_structure({"a": 1, "b": 2}).flatten_up_to({"a": 1}),
        "up_to_expected_dict": lambda: tu.tree_structure({"a": 1}).flatten_up_to([1]),
        "up_to_expected_none": lambda: tu.tree_structure([None, 1]).flatten_up_to([3, 2]),
        "up_to_namedtuple": lambda: tu.tree_structure(Point(1, 2)).flatten_up_to((1, 2)),
        "up_to_namedtuple_type": lambda: tu.tree_structure(Point(1, 2)).flatten_up_to(Other(1, 2)),
        "up_to_custom_type": lambda: tu.tree_structure(Tagged("t", 1)).flatten_up_to([2]),
        "up_to_custom_aux": lambda: tu.tree_structure(Tagged("t", 1)).flatten_up_to(Tagged("u", 1)),
        "up_to_ordered_dict": lambda: tu.tree_structure(OrderedDict(a=1, b=2)).flatten_up_to(OrderedDict(b=1, a=2)),
        "up_to_ordered_vs_dict": lambda: tu.tree_structure(OrderedDict(a=1)).flatten_up_to({"a": 1}),
        "transpose_mismatch": lambda: tu.tree_transpose(
            tu.tree_structure([0, 0]), tu.tree_structure((0, 0)), [(1, 2, 3), (4, 5, 6)]
        ),
        "broadcast_mismatch": lambda: tu.tree_broadcast([1, 2], [1, 2, 3]),
        "broadcast_none": lambda: tu.tree_broadcast([1, None], [(3, 4), 5]),
        "reduce_empty": lambda: tu.tree_reduce(lambda a, b: a + b, []),
        "dataclass_missing": lambda: tu.register_dataclass(
            dataclasses.make_dataclass("D1", ["x", "y"]), data_fields=["x"], meta_fields=[]
        ),
        "dataclass_one_of": lambda: tu.register_dataclass(dataclasses.make_dataclass("D2", ["x"]), data_fields=["x"]),
        "dataclass_not": lambda: tu.register_dataclass(type("NotDataclass", (), {})),
        "flatten_result_list": lambda: tu.tree_flatten([_bad_node(tu, [[1], None])]),
        "flatten_result_three": lambda: tu.tree_flatten_with_path([_bad_node(tu, ([1], None, 3))]),
        "flatten_children_int": lambda: tu.tree_flatten(_bad_node(tu, (5, None))),
        "one_level_result_list": lambda: tu.flatten_one_level(_bad_node(tu, [[1], None])),
        "keys_result_list": lambda: tu.tree_flatten_with_path([_bad_node(tu, [[("k", 1)], None], True)]),
        "keys_children_int": lambda: tu.tree_leaves_with_path(_bad_node(tu, (5, None), True)),
        "keys_pair_int": lambda: tu.tree_flatten_with_path(_bad_node(tu, ([3], None), True)),
        "keys_pair_str": lambda: tu.tree_flatten_with_path(_bad_node(tu, (["ab"], None), True)),
        "keys_pair_list": lambda: tu.tree_flatten_with_path(_bad_node(tu, ([["k", 1]], None), True)),
        "one_level_keys_pair": lambda: tu.flatten_one_level_with_keys(_bad_node(tu, ([(1,)], None), True)),
        "is_leaf_int": lambda: tu.tree_flatten([1, (2,)], is_leaf=lambda x: 0),
        "is_leaf_str": lambda: tu.tree_map(lambda x: x, [1, (2,)], is_leaf=lambda x: "x"),
        "is_leaf_path_int": lambda: tu.tree_flatten_with_path([1], is_leaf=lambda p, x: 1, is_leaf_takes_path=True),
        "unflatten_not_iterable": lambda: s([1]).unflatten(5),
        "compose_not_treedef": lambda: s([1]).compose([1]),
    }
    for name, thunk in errors.items():
        out[f"error/{name}"] = _run(thunk)
    misc = {
        "up_to_prefix": lambda: s([1, (2, 3)]).flatten_up_to([[9], ({"a": 1}, None)]),
        "up_to_dict_order": lambda: s({"a": 1, "b": 2}).flatten_up_to({"b": [3], "a": 4}),
        "up_to_none": lambda: s([None, 1]).flatten_up_to([None, 2]),
        "up_to_custom": lambda: s(Tagged("t", 1)).flatten_up_to(Tagged("t", [1, 2])),
        "compose": lambda: s([1, 2]).compose(s((1, {"a": 2}))),
        "compose_none": lambda: s([None, 1]).compose(s([1, 2])),
        "compose_counts": lambda: (lambda t: (t.num_leaves, t.num_nodes))(s([None, 1]).compose(s([1, 2]))),
        "treedef_tuple": lambda: tu.treedef_tuple([s(1), s([1, 2]), s(None)]),
        "treedef_tuple_empty": lambda: tu.treedef_tuple([]),
        "treedef_children": lambda: tu.treedef_children(s([1, (2, 3)])),
        "eq_same_shape": lambda: s([1, 2]) == s([3, 4]),
        "eq_list_tuple": lambda: s([1, 2]) == s((3, 4)),
        "eq_dict_keys": lambda: s({"a": 1}) == s({"b": 1}),
        "eq_custom_aux": lambda: s(Tagged("x", 1)) == s(Tagged("y", 1)),
        "eq_ordered": lambda: s(OrderedDict(a=1, b=2)) == s(OrderedDict(b=1, a=2)),
        "eq_defaultdict": lambda: s(defaultdict(list, a=1)) == s(defaultdict(dict, a=1)),
        "eq_leaf_int": lambda: s(1) == 1,
        "hash_equal": lambda: hash(s([1, {"a": 2}])) == hash(s([3, {"a": 4}])),
        "str": lambda: str(s([1, (2,)])),
        "leaf_node_data": lambda: s(1).node_data(),
        "leaf_children": lambda: s(1).children(),
        "all_leaves": lambda: [tu.all_leaves(x) for x in ([1, 2], [None], [[1]], [(), 1], [], ["a", 1.5])],
        "all_leaves_is_leaf": lambda: [
            tu.all_leaves([[1]], is_leaf=lambda x: isinstance(x, list)),
            tu.all_leaves([1, [2]], is_leaf=lambda x: x == [2]),
            tu.all_leaves([None, 1], is_leaf=lambda x: x is None),
        ],
        "is_leaf_none": lambda: tu.tree_flatten([None, 1], is_leaf=lambda x: x is None),
        "is_leaf_list": lambda: tu.tree_flatten([1, [2, (3,)]], is_leaf=lambda x: isinstance(x, tuple)),
        "is_leaf_returns_none": lambda: tu.tree_flatten([1, (2,)], is_leaf=lambda x: None),
        "flatten_result_namedtuple": lambda: tu.tree_flatten([_bad_node(tu, Point([1, 2], "aux"))]),
        "keys_result_namedtuple": lambda: tu.tree_flatten_with_path([_bad_node(tu, Point([("k", 1)], "aux"), True)]),
        "is_leaf_root": lambda: tu.tree_structure([1, [2]], is_leaf=lambda x: isinstance(x, list)),
        "map_prefix": lambda: tu.tree_map(lambda a, b: (a, b), [1, 2], [[3, 4], 5]),
        "map_three": lambda: tu.tree_map(lambda a, b, c: a + b + c, {"x": 1, "y": (2,)}, {"x": 10, "y": (20,)},
                                         {"y": (200,), "x": 100}),
        "map_sorts_dict": lambda: tu.tree_map(lambda x: x, {"b": 1, "a": 2}),
        "map_ordered": lambda: tu.tree_map(lambda x: x, OrderedDict(b=1, a=2)),
        "map_none": lambda: tu.tree_map(lambda x: x + 1, [1, None, 2]),
        "map_is_leaf_pairs": lambda: tu.tree_map(lambda x, y: (x, y), [None, 1], [2, 3], is_leaf=lambda x: x is None),
        "map_with_path": lambda: tu.tree_map_with_path(lambda p, x: (tu.keystr(p), x), {"a": [1, 2], "b": Point(3, 4)}),
        "map_with_path_rest": lambda: tu.tree_map_with_path(lambda p, x, y: x + y, [1, 2], [10, 20]),
        "leaves_with_path": lambda: tu.tree_leaves_with_path({"a": [1, None, 2]}),
        "paths_is_leaf": lambda: tu.tree_flatten_with_path({"a": [1, 2], "b": [3]}, is_leaf=lambda x: x == [1, 2]),
        "paths_is_leaf_takes_path": lambda: tu.tree_flatten_with_path(
            {"a": [1, 2], "b": [3]}, is_leaf=lambda p, x: len(p) == 1 and p[0].key == "a", is_leaf_takes_path=True
        ),
        "reduce": lambda: tu.tree_reduce(lambda a, b: a + b, [1, (2, 3)]),
        "reduce_init": lambda: tu.tree_reduce(lambda a, b: a + b, [1, (2, 3)], 10),
        "reduce_is_leaf": lambda: tu.tree_reduce(lambda a, b: a + b, [[1], [2]], is_leaf=lambda x: isinstance(x, list)),
        "all": lambda: (tu.tree_all([1, True, (0,)]), tu.tree_all([]), tu.tree_all([1, [2]]), tu.tree_all({"a": None})),
        "all_is_leaf": lambda: tu.tree_all([[], 1], is_leaf=lambda x: isinstance(x, list)),
        "transpose": lambda: tu.tree_transpose(s([0, 0]), s((0, 0, 0)), [(1, 2, 3), (4, 5, 6)]),
        "transpose_infer": lambda: tu.tree_transpose(s([0, 0]), None, [{"a": 1, "b": 2}, {"a": 3, "b": 4}]),
        "broadcast": lambda: tu.tree_broadcast([1, {"a": 2}], [(3, 4), {"a": [5, 6]}]),
        "broadcast_leaf": lambda: tu.tree_broadcast(7, {"a": [1, 2], "b": None}),
        "keystr_custom_entries": lambda: tu.keystr((tu.DictKey("a"), "weird", 3)),
        "keystr_simple_custom": lambda: tu.keystr((tu.DictKey("a"), "weird", 3), simple=True, separator="."),
        "keystr_separator": lambda: tu.keystr((tu.SequenceKey(0), tu.DictKey("k"), tu.GetAttrKey("x")), separator="/"),
        "keystr_simple_plain": lambda: tu.keystr((tu.SequenceKey(0), tu.DictKey("k"), tu.FlattenedIndexKey(2)),
                                                 simple=True),
        "keystr_empty": lambda: tu.keystr(()),
        "key_reprs": lambda: (tu.DictKey("a"), tu.SequenceKey(1), tu.GetAttrKey("x"), tu.FlattenedIndexKey(2)),
        "key_strs": lambda: [str(k) for k in (tu.DictKey(1), tu.SequenceKey(1), tu.GetAttrKey("x"),
                                              tu.FlattenedIndexKey(2))],
        "key_eq": lambda: (tu.DictKey("a") == tu.DictKey("a"), tu.SequenceKey(1) == tu.FlattenedIndexKey(1),
                           hash(tu.GetAttrKey("x")) == hash(tu.GetAttrKey("x"))),
        "key_attrs": lambda: (tu.DictKey("a").key, tu.SequenceKey(1).idx, tu.GetAttrKey("x").name,
                              tu.FlattenedIndexKey(2).key),
        "key_pickle": lambda: pickle.loads(pickle.dumps(tu.DictKey("a"))),
        "key_immutable": lambda: setattr(tu.SequenceKey(1), "idx", 2),
        "partial_call": lambda: tu.Partial(max, 1)(5),
        "partial_repr": lambda: tu.Partial(max, 1),
        "partial_nested": lambda: tu.tree_flatten(tu.Partial(tu.Partial(max, 1), 2)),
        "partial_map": lambda: tu.tree_map(lambda x: x * 10, tu.Partial(max, 1, key=2)).args,
        "dataclass_roundtrip": lambda: tu.tree_map(lambda x: x * 2, Params(1, 2, "q")),
        "dataclass_explicit_leaves": lambda: tu.tree_leaves(Explicit(1, 2, "m")),
    }
    for name, thunk in misc.items():
        out[f"misc/{name}"] = _run(thunk)
    return out


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "jax"
    results = compute(importlib.import_module(MODULES.get(name, name)))
    if name == "jax":
        GOLDEN.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(results)} cases to {GOLDEN}")
    else:
        print(json.dumps(results, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
