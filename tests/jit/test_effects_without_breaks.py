"""to_static(full_graph=False) keeps eager's Python effects also in a function that never
breaks the graph: a signature whose Python changes something outside the call (an
attribute, a global list, a Layer container) runs eagerly, and the traced first call leaves
eager Tensors where it stored values. Writes to objects the trace itself made (local lists
and dicts, helper objects), Tensors stored as attributes and item writes on Tensors are no
effect: such a function stays one cached Program."""
import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn

SEEN = []


class Helper:
    """An object a forward builds and drops (its __init__ writes attributes)."""

    def __init__(self, scale):
        self.scale = scale
        self.items = []


def extend_all(items, value):
    """A helper changing the list it is given."""
    items.append(value)
    items.append(value * 2)


class Net(nn.Layer):
    def __init__(self, mode):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.mode, self.count, self.history = mode, 0, []
        self.extra = nn.LayerList()

    def forward(self, x):
        y = self.fc(x)
        if self.mode == "counter":
            self.count += 1
        elif self.mode == "global list":
            SEEN.append(y * 1)
        elif self.mode == "attribute list":
            self.history.append(y.shape[0])
        elif self.mode == "container attribute":
            self.cache = [y]
        elif self.mode == "object.__setattr__":
            object.__setattr__(self, "flag", self.count + len(SEEN) + 1)
        elif self.mode == "layer container":
            self.extra.append(nn.ReLU())
        elif self.mode == "helper on a global":
            extend_all(SEEN, y)
        # what follows is no effect: the trace made these objects
        parts, named = [], {}
        for i in range(2):
            parts.append(y * i)
            named[f"p{i}"] = y + i
        named["p0"] += 1
        helper = Helper(2.0)
        helper.items.append(y)
        extend_all(parts, y)
        self.last = y * 2  # a Tensor attribute: refreshed by each run
        return paddle.concat(parts, -1).sum(-1) + named["p0"].sum(-1) + helper.items[0].sum(-1) * helper.scale


EFFECTS = ["counter", "global list", "attribute list", "container attribute",
           "object.__setattr__", "layer container", "helper on a global"]


def _state(net):
    """What a forward changed outside itself, comparable between two models."""
    cache = getattr(net, "cache", None)
    return (net.count, list(net.history), len(net.extra), getattr(net, "flag", None),
            None if cache is None else [c.numpy().tolist() for c in cache],
            [type(v).__name__ for v in SEEN])


def _pair(mode):
    paddle.seed(0)
    eager = Net(mode)
    static = Net(mode)
    static.set_state_dict(eager.state_dict())
    return eager, paddle.jit.to_static(static, full_graph=False)


def _inputs():
    return [paddle.to_tensor(np.full((2, 3), v, "float32")) for v in (1.0, -2.0, 0.5)]


@pytest.mark.parametrize("mode", EFFECTS)
def test_effects_of_a_function_without_breaks_happen_at_every_call(mode):
    eager, static = _pair(mode)
    SEEN.clear()
    want = [eager(x).numpy() for x in _inputs()]
    want_state, want_seen = _state(eager), len(SEEN)
    SEEN.clear()
    got = [static(x).numpy() for x in _inputs()]
    for a, b in zip(want, got):
        np.testing.assert_allclose(b, a, rtol=1e-6)
    assert _state(static) == want_state
    assert len(SEEN) == want_seen
    assert all(type(v).__name__ == "Tensor" for v in SEEN), "eager Tensors, not Variables"
    last = static.forward.last_call
    assert last.eager and "its Python has effects" in last.eager and __file__ in last.eager


def test_writes_to_objects_the_trace_made_keep_one_cached_program():
    eager, static = _pair("none")
    for x in _inputs():
        np.testing.assert_allclose(static(x).numpy(), eager(x).numpy(), rtol=1e-6)
        np.testing.assert_allclose(static.last.numpy(), eager.last.numpy(), rtol=1e-6)
        assert static.last.__class__ is paddle.Tensor
    last = static.forward.last_call
    assert last.eager is None and last.segments == 1 and not last.traced


def writes_an_input_tensor_item(x, buffer):
    buffer[0] = x.sum()
    return x + buffer


def test_an_item_written_on_an_input_tensor_is_an_op_not_an_effect():
    static = paddle.jit.to_static(writes_an_input_tensor_item, full_graph=False)
    for v in (1.0, 2.0):
        x = paddle.to_tensor(np.full(3, v, "float32"))
        a, b = paddle.zeros([3]), paddle.zeros([3])
        np.testing.assert_allclose(static(x, a).numpy(), writes_an_input_tensor_item(x, b)
                                   .numpy())
        np.testing.assert_allclose(a.numpy(), b.numpy())
    assert static.last_call.eager is None


def appends_to_an_argument(x, items):
    items.append(x * 2)
    return x + 1


def test_a_list_argument_appended_to_runs_eagerly_and_is_changed_for_the_caller():
    static = paddle.jit.to_static(appends_to_an_argument, full_graph=False)
    items = []
    for v in (1.0, 2.0):
        static(paddle.to_tensor([v]), items)
    assert [float(t) for t in items] == [2.0, 4.0]
    assert static.last_call.eager
