"""Layer traversals are iterative: repr, parameters, state_dict, sublayers,
set_state_dict, apply, train/eval work on a tree 2,500 layers deep (they used to hit the
recursion limit at depth 250 for repr, 2,000 for the rest), with unchanged results."""
import sys

import numpy as np
import pytest

import sampan.nn as nn

DEPTH = 2500


def _chain(depth):
    """Sequential(Sequential(... Linear(2, 2) ...)), `depth` Sequentials deep."""
    layer = nn.Linear(2, 2)
    for _ in range(depth):
        layer = nn.Sequential(layer)
    return layer


@pytest.fixture(scope="module")
def deep():
    assert DEPTH > sys.getrecursionlimit() // 2
    return _chain(DEPTH)


def test_traversals_of_a_deep_tree(deep):
    prefix = ".".join(["0"] * DEPTH)
    assert [name for name, _ in deep.named_parameters()] == [f"{prefix}.weight",
                                                              f"{prefix}.bias"]
    assert list(deep.state_dict()) == [f"{prefix}.weight", f"{prefix}.bias"]
    assert len(deep.sublayers()) == DEPTH and len(list(deep.named_sublayers())) == DEPTH
    values = {k: np.full(v.shape, 3.0, "float32") for k, v in deep.state_dict().items()}
    assert deep.set_state_dict(values) == ([], [])
    np.testing.assert_array_equal(deep.parameters()[0].numpy(), np.full((2, 2), 3.0))
    seen = []
    deep.apply(seen.append)
    assert len(seen) == DEPTH + 1 and seen[-1] is deep
    deep.eval()
    assert not any(layer.training for layer in deep.sublayers())


def test_repr_of_a_deep_tree(deep):
    text = repr(deep)
    lines = text.split("\n")
    assert len(lines) == 2 * DEPTH + 1
    assert lines[DEPTH].strip().startswith("(0): Linear(in_features=2")
    assert lines[-1] == ")" and lines[-2] == "  )"


def test_repr_matches_the_nested_format():
    class Two(nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = nn.ReLU()

        def extra_repr(self):
            return "first\nsecond"

    shared = nn.Tanh()
    text = repr(nn.Sequential(Two(), shared, nn.Sequential(shared)))
    assert text == ("Sequential(\n  (0): Two(\n    first\n    second\n  \n    (a): ReLU()\n  )\n"
                    "  (1): Tanh()\n  (2): Sequential(\n    (0): Tanh()\n  )\n)")


def test_a_layer_that_contains_itself_is_refused_not_looped_over():
    loop = nn.Sequential(nn.Linear(2, 2))
    loop.add_sublayer("again", loop)
    for walk in (loop.parameters, loop.state_dict, repr, loop.sublayers):
        with pytest.raises(ValueError, match="contains itself"):
            walk() if walk is not repr else repr(loop)


def test_a_shared_sublayer_is_listed_once_and_its_state_under_both_names():
    shared = nn.Linear(2, 2)
    net = nn.Sequential(shared, nn.Sequential(shared))
    assert len(net.parameters()) == 2 and len(net.sublayers()) == 2
    assert list(net.state_dict()) == ["0.weight", "0.bias", "1.0.weight", "1.0.bias"]
