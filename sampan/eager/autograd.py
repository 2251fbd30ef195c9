"""Eager autograd: GradNodes recorded by the eager mode and an iterative backward walk.

Nodes never hold user Tensor objects: they keep the arrays the backward op needs and,
for each differentiable input, an *edge* (None, a leaf Tensor, or (node, output index)),
so in-place rebinding of a Tensor cannot corrupt a recorded graph and no reference cycle
ties outputs to their node. The walk takes nodes from a heap, newest first by creation
number, so graph depth is bounded by memory, not by the Python stack.
"""
import collections
import heapq
import itertools

import numpy as np

from ..core.compiled_source import define
from ..core.errors import OpShapeError
from .grad_mode import STATE
from .node_source import recorder_source, runner_source
from .tensor import Tensor, wrap

__all__ = ["NodeBase", "GradNode", "RECORD_SINGLE", "edge_of", "run_backward",
           "tensor_backward", "grad", "register_hook", "BACKWARD_OBSERVERS"]

# Objects told how a `.grad`-filling backward walk progresses (DataParallel's gradient
# reducers): `progress(seq)` before the walk runs the node numbered `seq` (every newer
# node has run and its gradients reached their leaves), `finished()` at the end.
BACKWARD_OBSERVERS = []

_RELEASED = "released"
_SEQUENCE = itertools.count()
_SINGLE = ((0, -1),)


def _edge(t):
    """Where the gradient of input tensor `t` goes."""
    if t is None or t.stop_gradient:
        return None
    node = t._node
    return t if node is None else (node, t._index)


class NodeBase:
    """What the backward walk needs from a node; subclasses compute input gradients.

    `seq`: creation order (the walk runs newer nodes first). `edges`: per forward input,
    None, a leaf Tensor, (node, output index), or a list of these for list inputs.
    `out_meta`: (shape, dtype) per flat output, used to make zero gradients. `hooks`:
    {output index: [hook]} or None. `apply(grads, create_graph)` returns the gradients
    aligned with `edges` (arrays, or Tensors under create_graph).
    PyLayer and run_program nodes implement the same protocol.
    """

    __slots__ = ("edges", "out_meta", "hooks", "seq", "__weakref__")

    def __init__(self):
        self.seq = next(_SEQUENCE)

    def children(self):
        """Nodes this node sends gradients to."""
        if self.edges is _RELEASED:
            return
        for e in self.edges:
            for item in (e if e.__class__ is list else (e,)):
                if item.__class__ is tuple:
                    yield item[0]

    def release(self):
        """Free saved values after a backward pass without retain_graph."""
        self.edges = _RELEASED

    def apply(self, grads, create_graph):
        raise NotImplementedError

    def apply_once(self, grads, create_graph):
        """apply, in a backward pass that releases the node right after it: a node may let
        go of each saved value as soon as it has used it (by default, plain apply)."""
        return self.apply(grads, create_graph)

    def link_outputs(self, tensors):
        """Make `tensors` (the node's flat outputs) the node's differentiable results."""
        for k, t in enumerate(tensors):
            t._node = self
            t._index = k
            t.stop_gradient = False


class _NoDoubleGradNode(NodeBase):
    """Producer of create_graph gradients of an op whose backward op has no backward:
    first-order results stay usable, differentiating them again raises a clear error."""

    __slots__ = ("op", "bw")

    @classmethod
    def mark(cls, node, bw, result):
        """The backward op's float results, linked to an error node over node's inputs."""
        if not any(e is not None for e in node.edges):
            return result
        err = cls()
        err.op, err.bw, err.hooks = node.op, bw, None
        err.edges = list(node.edges)
        outs = [result] if bw.single_output else result
        flat = [t for out in outs for t in (out if isinstance(out, list) else (out,))
                if isinstance(t, Tensor) and t._data.dtype.kind in "fc"]
        err.out_meta = [(t._data.shape, t._data.dtype) for t in flat]
        err.link_outputs(flat)
        return result

    def __repr__(self):
        return f"<no double backward for {self.op.name}>"

    def apply(self, grads, create_graph):
        """Differentiating these gradients needs a backward of the backward op: refuse."""
        raise RuntimeError(
            f"double backward through op {self.op.name!r} is not supported: its backward op "
            f"{self.bw.name!r} has no backward of its own (see backward.yaml)")


edge_of = _edge  # the public name custom nodes (PyLayer, run_program) use; no extra call


class GradNode(NodeBase):
    """One recorded op: what its backward op needs and where input gradients go."""

    __slots__ = ("op", "saved", "out_layout")

    @classmethod
    def record(cls, op, tensors, arrays, attrs, flat_outputs, outs):
        """Create the node for a multi-output eager op call and link its outputs to it."""
        node = _new(cls)
        node.seq = next(_SEQUENCE)
        node.op = op
        node.edges = _edges(op, tensors)
        layout = node.out_layout = cls._layout(op, outs)
        node.saved = cls._save(op, arrays, attrs, flat_outputs, layout)
        node.out_meta = [(t._data.shape, t._data.dtype) for t in flat_outputs]
        node.hooks = None
        for pos in op.grad_outputs:
            start, count = layout[pos]
            for k in range(start, start + max(count, 1)):
                t = flat_outputs[k]
                t._node = node
                t._index = k
                t.stop_gradient = False
        return node

    @staticmethod
    def _layout(op, outs):
        """(start, count) per output position in the flat output list; count -1 = single."""
        layout, start = [], 0
        for kind, value in zip(op.output_kinds, outs):
            count = len(value) if kind == "Tensor[]" else -1
            layout.append((start, count))
            start += max(count, 1)
        return tuple(layout)

    @staticmethod
    def _save(op, arrays, attrs, flat_outputs, layout):
        """The backward op's arguments in order; gradient slots stay None until it runs."""
        saved = []
        for kind, i in op.backward.bw_sources:
            if kind == "in":
                saved.append(arrays[i])
            elif kind == "out":
                start, count = layout[i]
                saved.append(flat_outputs[start]._data if count < 0 else
                             [t._data for t in flat_outputs[start:start + count]])
            elif kind == "attr":
                saved.append(attrs[i])
            else:
                saved.append(None)
        return saved

    def __repr__(self):
        return f"<GradNode {self.op.name}>"

    def release(self):
        """Free saved values after a backward pass without retain_graph."""
        self.saved = _RELEASED
        self.edges = _RELEASED

    def apply(self, grads, create_graph):
        """Run the op's backward op; gradients aligned with the forward inputs."""
        if create_graph:
            return self._apply_graph(grads)
        bw = self.op.backward
        args = self.saved.copy()
        for pos, i in bw.bw_grad_slots:
            args[pos] = _grad_arg(self, grads, i, False)
        if bw.kernel_takes_need:
            result = bw.kernel(*args, need=tuple(self.edges[t] is not None
                                                 for t in bw.bw_grad_targets))
        else:
            result = bw.kernel(*args)
        # a kernel returns a one-output value bare
        return _by_input(bw, (result,) if len(bw.output_names) == 1 else result,
                         len(self.edges))

    def _apply_graph(self, grads):
        """`apply` under create_graph: the backward op runs as a recorded eager op on
        Tensors connected to the graph, so its results are differentiable again."""
        from .mode import EAGER
        bw = self.op.backward
        tensors, attrs = _graph_args(self, grads)
        with _grad_enabled(True):
            result = EAGER.run_op(bw, tensors, attrs)
        if bw.backward is None:
            result = _NoDoubleGradNode.mark(self, bw, result)
        # run_op returns one Tensor, else a list per output
        return _by_input(bw, (result,) if bw.single_output else result, len(self.edges))


def _by_input(bw, result, n_inputs):
    """Backward-op results (one per backward output) placed at their forward inputs."""
    if bw.bw_aligned:
        return result
    by_input = [None] * n_inputs
    for target, g in zip(bw.bw_grad_targets, result):
        by_input[target] = g
    return by_input


_new = object.__new__


def _edges(op, tensors):
    """Per forward input, where its gradient goes (None for inputs without one)."""
    if op.all_inputs_differentiable:  # _edge inlined: every recorded op comes here
        return [None if t is None or t.stop_gradient else
                t if t._node is None else (t._node, t._index) for t in tensors]
    edges = [None] * len(tensors)
    for i in op.grad_inputs:
        t = tensors[i]
        edges[i] = [_edge(x) for x in t] if t.__class__ is list else _edge(t)
    return edges


class _PerOp(dict):
    """op -> the function `source(op)` defines, compiled on first use in a namespace holding
    the op, its backward kernel and what GradNode's compiled functions refer to (the source
    is registered with linecache, so tracebacks through it show its lines)."""

    def __init__(self, source, name):
        super().__init__()
        self.source, self.name = source, name

    def __missing__(self, op):
        namespace = {"op": op, "kernel": op.backward.kernel, "GradNode": GradNode,
                     "_new": _new, "_next": next, "_SEQUENCE": _SEQUENCE, "_SINGLE": _SINGLE,
                     "_edges": _edges}
        function = self[op] = define(self.source(op), f"<eager autograd: {self.name} of "
                                     f"{op.name}>", namespace, self.name)
        return function


RECORD_SINGLE = _PerOp(recorder_source, "record")
"""op -> record(tensors, arrays, attrs, out): the GradNode of a one-output call of op."""
_RUNNERS = _PerOp(runner_source, "run")


# -- running one node -------------------------------------------------------------------

def _zeros(meta):
    shape, dtype = meta
    return np.zeros(shape, dtype)


def _grad_arg(node, grads, i, create_graph):
    """The gradient(s) of forward output i, zeros where none arrived."""
    start, count = node.out_layout[i]
    idxs = [start] if count < 0 else range(start, start + count)
    values = []
    for k in idxs:
        g = grads[k]
        if g is None:
            g = _zeros(node.out_meta[k])
            g = wrap(g) if create_graph else g
        values.append(g)
    return values[0] if count < 0 else values


def _as_input_tensor(array, edge):
    """Rebuild a forward input as a Tensor connected to its producer (create_graph)."""
    if edge is None:
        return wrap(array)
    if edge.__class__ is list:
        return [_as_input_tensor(a, e) for a, e in zip(array, edge)]
    if edge.__class__ is tuple:
        t = wrap(array, stop_gradient=False)
        t._node, t._index = edge
        return t
    return edge


def _as_output_tensor(node, array, index):
    t = wrap(array, stop_gradient=False)
    t._node, t._index = node, index
    return t


def _graph_args(node, grads):
    """Backward-op arguments as Tensors connected to the graph (create_graph)."""
    bw = node.op.backward
    tensors, attrs = [], []
    for (kind, i), saved in zip(bw.bw_sources, node.saved):
        if kind == "attr":
            attrs.append(saved)
        elif kind == "grad":
            tensors.append(_grad_arg(node, grads, i, True))
        elif kind == "in":
            tensors.append(_as_input_tensor(saved, node.edges[i]))
        else:
            start, count = node.out_layout[i]
            tensors.append(_as_output_tensor(node, saved, start) if count < 0 else
                           [_as_output_tensor(node, a, start + k) for k, a in enumerate(saved)])
    return tuple(tensors), tuple(attrs)


class _grad_enabled:
    """Set grad recording for a block (used by create_graph)."""

    def __init__(self, value):
        self.value = value

    def __enter__(self):
        self.saved = STATE.enabled
        STATE.enabled = self.value

    def __exit__(self, *exc):
        STATE.enabled = self.saved


# -- the walk ----------------------------------------------------------------------------

def _apply_hooks(hooks, g, create_graph):
    """Run tensor hooks on a gradient; a non-None return value replaces it. Ops in a hook
    record gradients only under create_graph."""
    with _grad_enabled(create_graph):
        for hook in hooks:
            t = g if isinstance(g, Tensor) else wrap(g)
            new = hook(t)
            if new is not None:
                g = new if create_graph else np.asarray(new._data if isinstance(new, Tensor)
                                                        else new)
    return g


def _released_error(node):
    """The error for walking a node whose saved values a previous backward freed."""
    return RuntimeError(
        f"trying to run backward through the graph a second time ({node!r}): its saved "
        f"values were freed by the first backward; pass retain_graph=True to the first "
        f"backward() if you need this")


def _discover(roots):
    """Dependency count of every node reachable from the root nodes (iteratively)."""
    deps = dict.fromkeys(roots, 0)
    stack = list(roots)
    while stack:
        node = stack.pop()
        edges = node.edges
        if edges is _RELEASED:
            raise _released_error(node)
        for e in edges:
            for item in (e if e.__class__ is list else (e,)):
                if item.__class__ is tuple:
                    _count_child(item[0], deps, stack)
    return deps


def _count_child(child, deps, stack):
    """One more edge into `child`; queue it the first time it is seen."""
    if child in deps:
        deps[child] += 1
    else:
        deps[child] = 1
        stack.append(child)


def _topological(roots, deps):
    """Nodes in an order where every node comes before the nodes it sends gradients to."""
    remaining = collections.Counter(deps)
    order = []
    ready = collections.deque(n for n in roots if remaining[n] == 0)
    while ready:
        node = ready.popleft()
        order.append(node)
        for child in node.children():
            remaining[child] -= 1
            if remaining[child] == 0:
                ready.append(child)
    return order


def _edge_hits(edge, useful, captured_leaves):
    """True when an edge leads to a useful node or a captured leaf."""
    for item in (edge if edge.__class__ is list else (edge,)):
        if item.__class__ is tuple:
            if item[0] in useful:
                return True
        elif item is not None and id(item) in captured_leaves:
            return True
    return False


def _useful(roots, deps, captured_nodes, captured_leaves):
    """Nodes from which a captured gradient is reachable (for `grad` with inputs)."""
    useful = set(captured_nodes)
    for node in reversed(_topological(roots, deps)):
        if node not in useful and any(_edge_hits(e, useful, captured_leaves)
                                      for e in node.edges):
            useful.add(node)
    return useful


def _sum(a, b):
    """a + b for two gradients (arrays or Tensors); 0-d arrays stay arrays (NumPy's own
    sum of two 0-d arrays is a scalar)."""
    total = a + b
    return np.array(total) if isinstance(total, np.generic) else total


class _Fanout(NodeBase):
    """Gradients for the items of list edges (list inputs of a node): the walk sends them
    on as if a node produced them, right after the node that did, so delivering a
    gradient is written once, for single edges."""

    __slots__ = ("grads",)

    def __init__(self, seq):
        self.seq, self.edges, self.grads = seq, [], []
        self.out_meta, self.hooks = (), None

    def add(self, edges, grads):
        """Queue gradients `grads` (None: no gradient) for the items `edges`."""
        self.edges.extend(edges)
        self.grads.extend([None] * len(edges) if grads is None else grads)

    def apply(self, grads, create_graph):
        return self.grads


_heappush, _heappop = heapq.heappush, heapq.heappop


def _engine(seed_edges, seeds, retain_graph, create_graph, capture=None, blocked=None):
    """Propagate the gradients `seeds` arriving along `seed_edges`.

    Nodes run newest first (by creation sequence number): every node that sends a gradient
    to a node was created after it, so a node runs only once all of its gradients arrived,
    without counting dependencies in a separate pass. A gradient goes into the output
    buffer of the node it reaches (queueing the node the first time; a node whose
    gradients are all missing runs on zeros) or to a leaf.

    Without `capture`, gradients reaching leaves accumulate into `.grad` as they arrive
    (a leaf with hooks gets its total at the end, through the hooks). With `capture`
    ({key: None}, key = id(leaf) or (node, index)), the gradients of those keys are stored
    in it and no `.grad` is touched. Gradients never pass through the tensors in `blocked`
    (a set of the same keys: grad's `no_grad_vars`).
    """
    buffers, leaf_grads, pending = {}, {}, []
    direct = capture is None
    observers = BACKWARD_OBSERVERS[:] if direct else None
    screen = None if direct else _Screen(seed_edges, capture, blocked)
    fast = not create_graph
    edges, by_input, seq = seed_edges, seeds, 0
    while True:
        fanout = None
        for e, g in zip(edges, by_input):
            if e.__class__ is tuple:
                child = e[0]
                buf = buffers.get(child)
                if buf is None:
                    buf = buffers[child] = [None] * len(child.out_meta)
                    _heappush(pending, (-child.seq, child))
                if g is not None:
                    prev = buf[e[1]]
                    buf[e[1]] = g if prev is None else _sum(prev, g)
            elif e is None:
                continue
            elif e.__class__ is list:
                if fanout is None:
                    fanout = _Fanout(seq - 0.5)
                    buffers[fanout] = ()
                    _heappush(pending, (-fanout.seq, fanout))
                fanout.add(e, g)
            elif g is None:
                continue
            elif direct and not e._hooks:
                _accumulate_into_leaf(e, g)
            else:
                prev = leaf_grads.get(id(e))
                leaf_grads[id(e)] = (e, g if prev is None else _sum(prev[1], g))
        if not pending:
            break
        if observers:
            for observer in observers:
                observer.progress(-pending[0][0])
        node = _heappop(pending)[1]
        grads = buffers.pop(node)
        seq = node.seq
        edges = node.edges
        if edges is _RELEASED:
            raise _released_error(node)
        if node.hooks:
            _run_output_hooks(node, grads, create_graph)
        if screen is not None and not screen.admit(node, grads):
            by_input = [None] * len(edges)
        elif fast and node.__class__ is GradNode and node.out_layout is _SINGLE:
            g = grads[0]
            by_input = _RUNNERS[node.op](node.saved, _zeros(node.out_meta[0]) if g is None
                                        else g, edges)
            if not retain_graph:  # GradNode.release, inlined
                node.saved = node.edges = _RELEASED
            continue
        elif retain_graph:
            by_input = node.apply(grads, create_graph)
        else:
            by_input = node.apply_once(grads, create_graph)
            node.release()
    if leaf_grads:
        _finish_leaves(leaf_grads, create_graph, capture, blocked)
    if observers:
        for observer in observers:
            observer.finished()


class _Screen:
    """What `grad` adds to the walk: blocking gradients at `no_grad_vars`, capturing those
    of the requested inputs, and skipping nodes that lead to no captured gradient."""

    def __init__(self, seed_edges, capture, blocked):
        self.capture, self.blocked = capture, blocked
        roots = list(dict.fromkeys(e[0] for e in seed_edges if e.__class__ is tuple))
        captured_nodes = {k[0] for k in capture if k.__class__ is tuple}
        captured_leaves = {k for k in capture if k.__class__ is not tuple}
        self.useful = _useful(roots, _discover(roots), captured_nodes, captured_leaves)

    def admit(self, node, grads):
        """Block and capture node's output gradients (in place); True when node must run."""
        if self.blocked:
            for idx in range(len(grads)):
                if (node, idx) in self.blocked:
                    grads[idx] = None
        for idx, g in enumerate(grads):
            if (node, idx) in self.capture:
                self.capture[(node, idx)] = g
        return node in self.useful or node.__class__ is _Fanout


def _run_output_hooks(node, grads, create_graph):
    """Run the hooks registered on node's outputs over their gradients (in place)."""
    for idx, hooks in node.hooks.items():
        if grads[idx] is not None:
            grads[idx] = _apply_hooks(hooks, grads[idx], create_graph)


def _finish_leaves(leaf_grads, create_graph, capture, blocked):
    """Run leaf hooks on the gradients collected for leaves, then capture them or
    accumulate them into `.grad` (leaves in `blocked` get nothing)."""
    for key, (leaf, g) in leaf_grads.items():
        if blocked and key in blocked:
            continue
        if leaf._hooks:
            g = _apply_hooks(leaf._hooks, g, create_graph)
        if capture is not None:
            if key in capture:
                capture[key] = g
        else:
            _accumulate_into_leaf(leaf, g)


def _accumulate_into_leaf(leaf, g):
    """Add a gradient (array, or Tensor under create_graph) to `leaf.grad`: the first one
    becomes the grad tensor (after clear_grad, the cleared tensor takes it), later ones are
    added into that same tensor, so a reference to `leaf.grad` taken earlier sees the total
    (as Paddle's in-place accumulation does)."""
    data = g._data if isinstance(g, Tensor) else g
    current = leaf._grad
    if current is None or leaf._grad_zero:
        if data.dtype != leaf._data.dtype:
            data = data.astype(leaf._data.dtype)
        elif not data.flags.writeable:  # a read-only (broadcast) view: own a copy
            data = data.copy()
        if current is None:
            leaf._grad = wrap(data)
        else:
            current._set_data(data)
            leaf._grad_zero = False
    else:
        current._set_data(_sum(current._data, data))


def _seed_grad(tensor, grad_tensor):
    """The starting gradient for `tensor`: `grad_tensor`, or ones of its shape, as Paddle
    seeds any tensor (a non-scalar's backward is the backward of its sum)."""
    data = tensor._data
    if grad_tensor is None:
        return np.array(1, data.dtype) if data.ndim == 0 else np.ones(data.shape, data.dtype)
    g = grad_tensor._data if isinstance(grad_tensor, Tensor) else np.asarray(grad_tensor)
    if g.shape != data.shape:
        raise OpShapeError(f"backward(): grad_tensor has shape {list(g.shape)} but the tensor "
                           f"has shape {tensor.shape}")
    return g.astype(data.dtype, copy=False)


def run_backward(tensors, grad_tensors, retain_graph=False):
    """Accumulate gradients of `tensors` into the `.grad` of the leaves they depend on.

    A tensor with stop_gradient=True depends on nothing that needs a gradient: it
    contributes nothing, as in Paddle 3.3.1 (a loss computed under no_grad is a no-op)."""
    edges, seeds = [], []
    for t, g in zip(tensors, grad_tensors):
        if t.stop_gradient:
            continue
        seeds.append(_seed_grad(t, g))
        edges.append(_edge(t))
    _engine(edges, seeds, retain_graph, create_graph=False)


def tensor_backward(tensor, grad_tensor, retain_graph):
    """`run_backward` of one tensor (Tensor.backward, the most frequent entry)."""
    if tensor.stop_gradient:
        return
    seed = _seed_grad(tensor, grad_tensor)
    node = tensor._node
    _engine((tensor if node is None else (node, tensor._index),), (seed,), retain_graph, False)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, no_grad_vars=None):
    """Gradients of `outputs` with respect to `inputs`, without touching `.grad`.

    With `create_graph=True` the returned gradients are themselves differentiable
    (double backward). `retain_graph` defaults to `create_graph`. No gradient flows
    through the tensors in `no_grad_vars`.
    """
    single = isinstance(inputs, Tensor)
    outputs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    inputs = [inputs] if single else list(inputs)
    if grad_outputs is None or isinstance(grad_outputs, Tensor):
        grad_outputs = [grad_outputs] * len(outputs) if grad_outputs is None else [grad_outputs]
    if len(grad_outputs) != len(outputs):
        raise ValueError(f"grad(): {len(outputs)} outputs but {len(grad_outputs)} "
                         f"grad_outputs")
    retain_graph = create_graph if retain_graph is None else retain_graph
    keys = []
    for t in inputs:
        if t.stop_gradient:
            raise RuntimeError("grad(): an input has stop_gradient=True, so it has no gradient")
        keys.append(_edge(t) if t._node is not None else id(t))
    capture = dict.fromkeys(keys)
    edges, seeds = [], []
    for t, g in zip(outputs, grad_outputs):
        if t.stop_gradient:
            raise RuntimeError("grad(): an output has stop_gradient=True and does not depend "
                               "on any input that needs a gradient")
        seed = _seed_grad(t, g)
        if create_graph:
            seed = g if isinstance(g, Tensor) and not g.stop_gradient else wrap(seed)
        edges.append(_edge(t))
        seeds.append(seed)
    if isinstance(no_grad_vars, Tensor):
        no_grad_vars = [no_grad_vars]
    blocked = {(_edge(t) if t._node is not None else id(t)) for t in (no_grad_vars or ())
               if not t.stop_gradient}
    with _grad_enabled(create_graph):
        _engine(edges, seeds, retain_graph, create_graph, capture, blocked)
    results = []
    for key in keys:
        g = capture[key]
        if g is None and not allow_unused:
            raise RuntimeError("grad(): one of the inputs was not used to compute the "
                               "outputs; pass allow_unused=True to get None for it")
        if g is not None and not isinstance(g, Tensor):
            g = wrap(g if g.flags.writeable else g.copy())
        results.append(g)
    return results


class _HookHandle:
    """Handle returned by register_hook; `remove()` unregisters the hook."""

    def __init__(self, hooks, hook):
        self._hooks, self._hook = hooks, hook

    def remove(self):
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


def register_hook(tensor, hook):
    """Attach a gradient hook to a tensor (leaf: on the tensor; else: on its node)."""
    if tensor.stop_gradient:
        raise RuntimeError("cannot register a hook on a tensor with stop_gradient=True")
    if tensor._node is None:
        if tensor._hooks is None:
            tensor._hooks = []
        hooks = tensor._hooks
    else:
        node = tensor._node
        if node.hooks is None:
            node.hooks = {}
        hooks = node.hooks.setdefault(tensor._index, [])
    hooks.append(hook)
    return _HookHandle(hooks, hook)
