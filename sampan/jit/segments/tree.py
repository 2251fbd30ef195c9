"""The cache of a function with graph breaks: a tree of segments whose branches are keyed by
the values Python read at the cuts (the guards), walked by later calls without tracing."""
import operator

import numpy as np

from ...static.framework import Variable
from ..partial_program import leaves, map_tensors, returned, write_back

__all__ = ["Cut", "EagerCall", "End", "Values", "Node", "Miss", "MissingValue", "path_to_tree",
           "merge", "walk", "resume_at"]


class Values(dict):
    """{name: eager Tensor} of one call: inputs, then segment outputs; state tensors (the
    parameters and captured tensors the Programs read) are found by name when asked."""

    __slots__ = ("state",)

    def __init__(self, initial, state):
        super().__init__(initial)
        self.state = state

    def __missing__(self, name):
        for state_name, tensor in self.state:
            if state_name == name:
                return tensor
        raise MissingValue(f"no value for Variable {name!r} at this graph break: a tensor "
                           f"array whose items need gradients cannot pass one")


class MissingValue(KeyError):
    """A piece after a graph break reads a value no piece before it could hand over."""


_SCALAR_READS = {"bool": bool, "float": float, "int": int, "complex": complex,
                 "index": int, "item": np.ndarray.item}


_CASTS = {"float": float, "int": int, "complex": complex, "index": operator.index}


class Cut:
    """A read of Variable `var` (`kind`: bool, float, int, complex, index, numpy, item,
    tolist) at a graph break; its guard is the read value (NumPy bytes, or the Python
    scalar)."""

    __slots__ = ("var", "kind", "args", "where", "traced_key", "resume", "resumed")

    def __init__(self, var, kind, args, where, resume=None):
        self.var, self.kind, self.args, self.where = var, kind, args, where
        self.traced_key = None
        # a ResumePoint where the function can go on as Python after this read; `resumed`
        # once it does (the read's value kept changing): the walk then ends in its tail
        self.resume, self.resumed = resume, False

    def read(self, tensor):
        """The Python value eager code gets from `tensor`."""
        if self.kind == "bool":
            return bool(tensor)
        scalar = _CASTS.get(self.kind)
        if scalar is not None:
            return scalar(tensor)
        return getattr(tensor, self.kind)(*self.args)

    def key(self, values):
        """The guard value of this read of its Variable in `values`: the Python scalar read
        (NaN as the string "nan", so it equals itself), or an array's shape, dtype and bytes."""
        array = values[self.var]._data
        scalar = _SCALAR_READS.get(self.kind)
        if scalar is None:
            return array.shape, array.dtype.str, array.tobytes()
        value = scalar(array, *self.args)
        return value if value == value else "nan"

    @staticmethod
    def describe(key):
        """A guard value as a user reads it."""
        if not isinstance(key, tuple):
            return str(key)
        shape, dtype, data = key
        value = np.frombuffer(data, dtype).reshape(shape)
        return str(value.item() if value.size == 1 else value.tolist())


class EagerCall:
    """A call run eagerly between segments (a PyLayer whose forward breaks the graph): its
    Variable arguments are read from the table, its Tensor results enter it as `outputs`."""

    __slots__ = ("fn", "args", "kwargs", "outputs", "where", "traced_key")

    def __init__(self, fn, args, kwargs, outputs, where):
        self.fn, self.args, self.kwargs, self.outputs, self.where = fn, args, kwargs, outputs, where
        self.traced_key = None

    @property
    def reads(self):
        """Names of the Variables among the arguments."""
        return [v.name for v in leaves((self.args, self.kwargs)) if isinstance(v, Variable)]

    def run(self, values):
        """Call `fn` on this call's tensors; returns its result, its Tensors added to values."""
        def value(v):
            return values[v.name] if isinstance(v, Variable) else v
        result = self.fn(*map_tensors(value, self.args), **map_tensors(value, self.kwargs))
        values.update(zip(self.outputs, (t for t in leaves(result) if hasattr(t, "_data"))))
        return result

    def key(self, values):
        """An eager call has one way on: it runs and the walk continues."""
        self.run(values)


class End:
    """The end of a path: the function's output structure (Variables stand for tensors),
    and `written`, (input name, name of its final value) of the inputs changed in place."""

    __slots__ = ("outputs", "written")

    def __init__(self, outputs, written=()):
        self.outputs, self.written = outputs, written

    @property
    def reads(self):
        """Names of the values the end reads."""
        return [v.name for v in leaves(self.outputs) if isinstance(v, Variable)] + \
            [name for pair in self.written for name in pair]

    def finish(self, values):
        """The call's outputs; the inputs an in-place op changed take their final values,
        as eagerly (the caller's Tensor objects). A Variable is also renamed when a Tensor
        `if` merely might change it (its value passes through the cond op), so an input
        whose final value equals its own is left as it is."""
        for name, final in self.written:
            write_back(values[name], values[final])
        return map_tensors(lambda v: returned(v, values) if isinstance(v, Variable) else v,
                           self.outputs)


class Node:
    """One segment (or none) followed by a cut with children by guard value, or an end."""

    __slots__ = ("segment", "cut", "children", "end")

    def __init__(self, segment, cut, end):
        self.segment, self.cut, self.end, self.children = segment, cut, end, {}


class Miss:
    """A walk that found no branch for a guard value: the node of the cut, the value seen,
    and how many values the cut has branches for."""

    __slots__ = ("node", "key", "seen")

    def __init__(self, node, key, seen):
        self.node, self.key, self.seen = node, key, seen

    @property
    def cut(self):
        return self.node.cut


def path_to_tree(steps):
    """The chain of Nodes of one traced path ([Segment?, Cut, Segment?, ..., End])."""
    nodes, segment = [], None
    for step in steps:
        if isinstance(step, (Cut, EagerCall, End)):
            nodes.append(Node(segment, None if isinstance(step, End) else step,
                              step if isinstance(step, End) else None))
            segment = None
        else:
            segment = step
    for parent, child in zip(nodes, nodes[1:]):
        parent.children[parent.cut.traced_key] = child
    return nodes[0]


def _same(a, b):
    """True when two nodes record the same segment ops and the same read."""
    ops_a = a.segment.op_types if a.segment else []
    ops_b = b.segment.op_types if b.segment else []
    if ops_a != ops_b or type(a.cut) is not type(b.cut):
        return False
    if isinstance(a.cut, EagerCall):
        return a.cut.fn == b.cut.fn
    return a.cut is None or (a.cut.var, a.cut.kind, a.cut.args) == (b.cut.var, b.cut.kind,
                                                                    b.cut.args)


def merge(root, new):
    """`root` with the path `new` (a chain from path_to_tree) grafted where it leaves the
    tree; a path that disagrees with the tree before leaving it (Python that is not a
    function of the guarded values) replaces the tree."""
    if root is None:
        return _pruned(new)
    node, other = root, new
    while True:
        if not _same(node, other):
            return _pruned(new)
        if other.cut is None:
            return _pruned(root)
        key = other.cut.traced_key
        (child,) = other.children.values()
        if key not in node.children:
            node.children[key] = child
            return _pruned(root)
        node, other = node.children[key], child


def resume_at(root, node):
    """Make the walks of `root` stop at `node`'s cut and go on as Python (its ResumePoint):
    the branches after the cut are dropped and the segments keep what the tail reads."""
    node.cut.resumed = True
    node.children.clear()
    return _pruned(root)


def _pruned(root):
    """`root` after narrowing each segment's outputs to what some later piece reads."""
    _needed(root)
    return root


def _needed(node):
    """Names a node's pieces read from before it (narrowing its segment's outputs)."""
    if node.cut is None:
        needed = set(node.end.reads)
    elif isinstance(node.cut, Cut) and node.cut.resumed:
        needed = set(node.cut.resume.reads)
    else:
        cut = node.cut
        reads = cut.reads if isinstance(cut, EagerCall) else [cut.var]
        needed = set(reads).union(*map(_needed, node.children.values()))
        if isinstance(cut, EagerCall):
            needed -= set(cut.outputs)
    segment = node.segment
    if segment is not None:
        segment.keep_only(needed)
        needed = (needed - set(segment.produced)) | set(segment.feeds)
    return needed


def walk(root, values):
    """Run a call down the tree: (eager outputs, segments run, cuts passed, the cut after
    which it went on as Python or None) or a Miss."""
    node, segments, cuts = root, 0, []
    while True:
        segment = node.segment
        if segment is not None:
            segment.run(values)
            segments += 1
        cut = node.cut
        if cut is None:
            return node.end.finish(values), segments, [c.where for c in cuts], None
        cuts.append(cut)
        if cut.__class__ is Cut and cut.resumed:
            return cut.resume.run(values), segments, [c.where for c in cuts], cut.where
        key = cut.key(values)
        child = node.children.get(key)
        if child is None:
            return Miss(node, key, len(node.children))
        node = child
