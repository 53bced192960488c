"""The two paths (pure Python, jaxlib's C++ registry) agree, and jaxle_tree works with jaxlib refused."""

import collections
import dataclasses
import os
import pickle
import re
import subprocess
import sys

import pytest

import jaxle_tree as tu
import jaxle_tree.treedef
from jaxle_tree import accelerator
from jaxle_tree.registry import jaxlib_registry

Pair = collections.namedtuple("Pair", "left right")


@tu.register_dataclass
@dataclasses.dataclass
class Layer:
    w: object
    b: object
    act: str = dataclasses.field(default="relu", metadata=dict(static=True))


class Box:
    def __init__(self, *items):
        self.items = items

    def __eq__(self, other):
        return type(other) is Box and other.items == self.items


tu.register_pytree_node(Box, lambda box: (box.items, len(box.items)), lambda n, items: Box(*items))


def sample():
    return {
        "layers": [Layer(1.0, 2.0), Layer(3.0, (4.0, None), "tanh")],
        "pair": Pair(Box(5, [6]), collections.OrderedDict(b=7, a=8)),
        "counts": collections.defaultdict(int, {"z": 9}),
    }


def test_path_in_use(tree_path):
    assert accelerator.uses_jaxlib() == (tree_path == "jaxlib")
    treedef = tu.tree_structure(sample())
    assert isinstance(treedef, tu.PyTreeDef)
    assert (type(treedef) is jaxle_tree.treedef.PythonTreeDef) == (tree_path == "pure")


def test_round_trip_and_structure_queries():
    leaves, treedef = tu.tree_flatten(sample())
    assert leaves == [9, 1.0, 2.0, 3.0, 4.0, 5, 6, 7, 8]
    assert treedef.unflatten(leaves) == sample()
    assert treedef.num_leaves == 9 and treedef.num_nodes == 20
    assert [child.num_leaves for child in treedef.children()] == [1, 4, 4]
    assert treedef.node_data() == (dict, ["counts", "layers", "pair"])
    assert tu.treedef_tuple([treedef, treedef]) == tu.tree_structure((sample(), sample()))
    assert treedef.compose(tu.tree_structure((0, 0))).num_leaves == 18
    assert tu.tree_map(lambda x, y: (x, y), sample(), sample())["pair"].left == Box((5, 5), [(6, 6)])


def test_path_keys_are_jaxle_keys():
    if accelerator.pytree is not None:  # jaxlib's key classes, the ones JAX uses
        assert (tu.DictKey, tu.SequenceKey) == (accelerator.pytree.DictKey, accelerator.pytree.SequenceKey)
    paths = [path for path, _ in tu.tree_leaves_with_path(sample())]
    assert tu.keystr(paths[4]) == "['layers'][1].b[0]"
    assert [type(key) for key in paths[5]] == [tu.DictKey, tu.GetAttrKey, tu.FlattenedIndexKey]
    assert [type(key) for key in paths[6]] == [tu.DictKey, tu.GetAttrKey, tu.FlattenedIndexKey, tu.SequenceKey]
    seen = []
    tu.tree_flatten_with_path([Pair(1, 2)], is_leaf=lambda path, x: seen.append(path) or False, is_leaf_takes_path=True)
    assert seen[2] == (tu.SequenceKey(0), tu.GetAttrKey("left"))


def test_pickles_load_on_either_path(tree_path):
    data = pickle.dumps(tu.tree_structure(sample()))
    try:
        for load_on_jaxlib in {False, accelerator.mirror is not None}:
            accelerator.use_jaxlib(load_on_jaxlib)
            loaded = pickle.loads(data)
            assert loaded == tu.tree_structure(sample()) and hash(loaded) == hash(tu.tree_structure(sample()))
            assert repr(loaded) == repr(tu.tree_structure(sample()))
    finally:
        accelerator.use_jaxlib(tree_path == "jaxlib")


def test_treedefs_of_either_path_compare_by_structure(tree_path):
    made = []
    try:
        for on_jaxlib in {False, accelerator.mirror is not None}:
            accelerator.use_jaxlib(on_jaxlib)
            made.append((tu.tree_structure(sample()), tu.tree_structure([sample(), 1])))
    finally:
        accelerator.use_jaxlib(tree_path == "jaxlib")
    for one, other in made:
        for same, larger in made:
            assert one == same and other == larger and one != larger and not (one != same)


def test_treedefs_are_jaxlibs_where_jaxlib_is_installed():
    # As JAX's: the class of every treedef is jaxlib's, and the pure path's treedefs are instances of it too.
    if accelerator.pytree is None:
        assert tu.PyTreeDef is jaxle_tree.treedef.PythonTreeDef
        return
    assert tu.PyTreeDef is accelerator.pytree.PyTreeDef
    assert issubclass(jaxle_tree.treedef.PythonTreeDef, tu.PyTreeDef)


def test_treedefs_of_either_path_combine(tree_path):
    made = []
    try:
        for on_jaxlib in {False, accelerator.mirror is not None}:
            accelerator.use_jaxlib(on_jaxlib)
            made.append((tu.tree_structure([0, {"a": 0}]), tu.tree_structure((0, None))))
    finally:
        accelerator.use_jaxlib(tree_path == "jaxlib")
    pure = jaxle_tree.treedef.PythonTreeDef
    for outer, _ in made:
        for _, inner in made:
            assert isinstance(outer, tu.PyTreeDef) and isinstance(inner, tu.PyTreeDef)
            assert tu.treedef_tuple([outer, inner]) == tu.tree_structure(([0, {"a": 0}], (0, None)))
            composings = [jaxle_tree.treedef.compose(outer, inner)]
            if type(outer) is pure or type(inner) is not pure:  # jaxlib's own compose takes jaxlib's treedefs
                composings.append(outer.compose(inner))
            for composed in composings:
                assert repr(composed) == "PyTreeDef([(*, None), {'a': (*, None)}])" and composed.num_leaves == 2
            composed_text = re.escape("PyTreeDef([(*, None), {'a': (*, None)}])")
            with pytest.raises(TypeError, match=rf"Mismatch\n.*\n != \n{composed_text}"):
                tu.tree_transpose(outer, inner, [[1, 2, 3], {"a": (4, None)}])
    if accelerator.mirror is not None:  # jaxlib's methods that only jaxlib implements, on a pure-path treedef
        def walked(treedef):
            seen: list = []
            result = treedef.walk(lambda children, data: seen.append((children, data)) or len(seen),
                                  lambda leaf: leaf * 10, [1, 2])
            return result, seen

        assert walked(made[0][0]) == walked(made[-1][0]) == (2, [((20,), ["a"]), ((10, 1), None)])


def test_jaxlib_registry_mirrors_registrations():
    registry = jaxlib_registry()
    if registry is None:  # jaxlib is not installed in this environment
        assert accelerator.pytree is None
        return
    leaves, jaxlib_def = registry.flatten(sample())
    assert leaves == tu.tree_leaves(sample())
    assert repr(jaxlib_def) == repr(tu.tree_structure(sample()))
    assert jaxlib_def.unflatten(leaves) == sample()


class Wrapped:
    """A leaf of every pytree that jit dispatch takes apart (as core does with key arrays)."""

    def __init__(self, data, tag):
        self.data, self.tag = data, tag


accelerator.register_dispatch_node(Wrapped, lambda w: ((w.data,), w.tag), lambda tag, children: Wrapped(*children, tag))


def test_dispatch_registry_mirrors_registrations_and_takes_dispatch_nodes_apart():
    registry = accelerator.dispatch_registry()
    if registry is None:  # jaxlib is not installed in this environment
        assert accelerator.pytree is None
        return
    leaves, jaxlib_def = registry.flatten(sample())
    assert leaves == tu.tree_leaves(sample()) and repr(jaxlib_def) == repr(tu.tree_structure(sample()))
    tree = {"w": Wrapped(3, "a"), "b": Box(4)}
    assert tu.tree_leaves(tree) == [4, tree["w"]]  # pytrees keep it a leaf
    leaves, jaxlib_def = registry.flatten(tree)
    assert leaves == [4, 3]
    rebuilt = jaxlib_def.unflatten([5, 6])
    assert rebuilt["b"] == Box(5) and (rebuilt["w"].data, rebuilt["w"].tag) == (6, "a")
    assert registry.flatten({"w": Wrapped(3, "b")})[1] != registry.flatten({"w": Wrapped(3, "a")})[1]


def test_jaxlib_treedef_of_either_path():
    treedef = tu.tree_structure(sample())
    jaxlib_def = jaxle_tree.treedef.jaxlib_treedef(treedef)
    if accelerator.mirror is None:
        assert jaxlib_def is None
        return
    assert type(jaxlib_def) is accelerator.pytree.PyTreeDef and repr(jaxlib_def) == repr(treedef)
    assert jaxlib_def == treedef and treedef == jaxlib_def
    assert jaxlib_def.unflatten(tu.tree_leaves(sample())) == sample()


def test_pure_python_when_jaxlib_is_refused():
    program = (
        "import sys, jaxle_tree as tu\n"
        "from jaxle_tree import accelerator\n"
        "assert tu.registry.jaxlib_registry() is None and not accelerator.uses_jaxlib()\n"
        "assert tu.DictKey.__module__ == 'jaxle_tree.keys' and tu.keystr((tu.DictKey(key='a'),)) == \"['a']\"\n"
        "assert tu.tree_structure({'a': [1, None]}).unflatten([2]) == {'a': [2, None]}\n"
        "try:\n"
        "    accelerator.use_jaxlib(True)\n"
        "except RuntimeError as error:\n"
        "    print(error)\n"
        "print(sorted(name for name in sys.modules if name.startswith('jaxlib')))\n"
    )
    env = {**os.environ, "JAXLE_TREE_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "jaxlib's pytree registry is not available (jaxlib missing or JAXLE_TREE_PURE=1).",
        "[]",
    ]


def test_no_pytree_operation_tries_to_import_jax():
    # jaxlib's C++ imports jax modules by name on some paths; none of the pytree operations may reach one.
    program = (
        "import sys\n"
        "attempts = []\n"
        "class Watch:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'jax' or name.startswith('jax.'):\n"
        "            attempts.append(name)\n"
        "sys.meta_path.insert(0, Watch())\n"
        "import pickle, test_accelerator as t, jaxle_tree as tu\n"
        "leaves, treedef = tu.tree_flatten(t.sample())\n"
        "assert pickle.loads(pickle.dumps(treedef)) == treedef and treedef.unflatten(leaves) == t.sample()\n"
        "tu.tree_map(lambda a, b: a, t.sample(), t.sample()); tu.tree_leaves_with_path(t.sample())\n"
        "repr(treedef); hash(treedef); treedef.children(); treedef.node_data(); tu.treedef_tuple([treedef])\n"
        "for bad in (lambda: treedef.unflatten([1]), lambda: tu.tree_map(lambda a, b: a, t.sample(), [1])):\n"
        "    try:\n"
        "        bad()\n"
        "    except ValueError:\n"
        "        pass\n"
        "print(tu.accelerator.uses_jaxlib() == (tu.registry.jaxlib_registry() is not None), attempts)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.path.dirname(__file__), *sys.path])}
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["True []"]
