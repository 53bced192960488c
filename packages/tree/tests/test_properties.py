"""Round-trip properties on random nested containers, checked against a naive reference walk."""

import pickle
from collections import OrderedDict, namedtuple

from hypothesis import given, settings
from hypothesis import strategies as st

import jaxle_tree as tu
from jaxle_tree import accelerator

Pair = namedtuple("Pair", "first second")

leaves = st.one_of(st.integers(), st.floats(allow_nan=False), st.text(max_size=3), st.booleans())
keys = st.text(min_size=1, max_size=4)


def _extend(children):
    return st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(keys, children, max_size=4),
        st.dictionaries(keys, children, max_size=4).map(lambda d: OrderedDict(sorted(d.items(), reverse=True))),
        st.tuples(children, children).map(lambda t: Pair(*t)),
    )


trees = st.recursive(st.one_of(leaves, st.none()), _extend, max_leaves=30)


def reference_leaves(tree):
    """Leaves in JAX's order, written independently of the library: dicts sorted, OrderedDict as inserted."""
    if tree is None:
        return []
    if type(tree) is dict:
        return [x for k in sorted(tree) for x in reference_leaves(tree[k])]
    if type(tree) is OrderedDict:
        return [x for v in tree.values() for x in reference_leaves(v)]
    if isinstance(tree, (list, tuple)):
        return [x for child in tree for x in reference_leaves(child)]
    return [tree]


def follow(tree, path):
    for entry in path:
        if isinstance(entry, tu.DictKey):
            tree = tree[entry.key]
        elif isinstance(entry, tu.SequenceKey):
            tree = tree[entry.idx]
        else:
            tree = getattr(tree, entry.name)
    return tree


@settings(max_examples=200, deadline=None)
@given(trees)
def test_flatten_matches_reference_and_round_trips(tree):
    leaves_, treedef = tu.tree_flatten(tree)
    assert leaves_ == reference_leaves(tree)
    assert treedef.num_leaves == len(leaves_)
    # Unflatten several times: later calls go through the compiled rebuilder.
    for _ in range(3):
        assert tu.tree_unflatten(treedef, leaves_) == tree
        assert tu.tree_structure(tu.tree_unflatten(treedef, leaves_)) == treedef


@settings(max_examples=200, deadline=None)
@given(trees)
def test_map_up_to_and_pickle(tree):
    leaves_, treedef = tu.tree_flatten(tree)
    marked = tu.tree_map(lambda x: ("leaf", x), tree)
    assert tu.tree_leaves(marked, is_leaf=lambda x: isinstance(x, tuple) and x[:1] == ("leaf",)) == [
        ("leaf", x) for x in leaves_
    ]
    assert treedef.flatten_up_to(tree) == leaves_
    assert pickle.loads(pickle.dumps(treedef)) == treedef
    assert hash(pickle.loads(pickle.dumps(treedef))) == hash(treedef)
    assert treedef.unflatten(treedef.flatten_up_to(tree)) == tree


@settings(max_examples=200, deadline=None)
@given(trees)
def test_paths_lead_to_their_leaves(tree):
    with_paths, treedef = tu.tree_flatten_with_path(tree)
    assert treedef == tu.tree_structure(tree)
    assert [x for _, x in with_paths] == tu.tree_leaves(tree)
    for path, leaf in with_paths:
        assert follow(tree, path) == leaf


@settings(max_examples=100, deadline=None)
@given(trees)
def test_children_and_node_counts_agree(tree):
    treedef = tu.tree_structure(tree)
    children = treedef.children()
    if treedef.num_nodes == 1:
        assert children == []
    else:
        assert treedef.num_nodes == 1 + sum(c.num_nodes for c in children)
        assert treedef.num_leaves == sum(c.num_leaves for c in children)
        assert tu.treedef_tuple(children).num_leaves == treedef.num_leaves


def _observed(tree, other):
    """What a user sees of ``tree`` on the path in use: leaves, structure, key paths, pickles and a two-tree map."""
    leaves_, treedef = tu.tree_flatten(tree)
    paths = tu.tree_flatten_with_path(tree, is_leaf=lambda x: type(x) is tuple)
    try:
        mapped = repr(tu.tree_map(lambda x, y: (x, y), tree, other))
    except ValueError as error:
        mapped = str(error)
    return (repr(leaves_), repr(treedef), treedef.num_nodes, [repr(c) for c in treedef.children()],
            repr(treedef.node_data()), repr(treedef.unflatten(leaves_)), repr(paths),
            repr(pickle.loads(pickle.dumps(treedef))), mapped)


@settings(max_examples=60, deadline=None)
@given(trees, trees)
def test_both_paths_agree(tree, other):
    in_use = accelerator.uses_jaxlib()
    try:
        seen = []
        for on_jaxlib in {False, accelerator.mirror is not None}:
            accelerator.use_jaxlib(on_jaxlib)
            seen.append(_observed(tree, other))
    finally:
        accelerator.use_jaxlib(in_use)
    assert seen[0] == seen[-1]
