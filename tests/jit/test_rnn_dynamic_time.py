"""SimpleRNN / LSTM / GRU under to_static with a time length unknown while the Program is
built (`InputSpec([None, None, F])`): the recurrence is one `while` op over time, and its
outputs, final states, gradients, training steps and saved models match eager runs."""
import copy

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
from sampan.jit import to_static
from sampan.static import InputSpec

FEATURES, HIDDEN, CLASSES = 3, 4, 2
KINDS = {"SimpleRNN": nn.SimpleRNN, "LSTM": nn.LSTM, "GRU": nn.GRU}
# (num_layers, direction, time_major)
CONFIGS = [(1, "forward", False), (1, "bidirect", True), (2, "bidirect", False),
           (2, "forward", True)]
SHAPES = [(2, 5), (3, 1), (4, 7)]  # (batch, time): one compiled Program serves them all


class Recurrent(nn.Layer):
    """A recurrent layer returning its outputs and final states as a flat tuple."""

    def __init__(self, kind, num_layers=1, direction="forward", time_major=False):
        super().__init__()
        self.rnn = KINDS[kind](FEATURES, HIDDEN, num_layers, direction, time_major)

    def forward(self, x, lengths=None):
        out, state = self.rnn(x, sequence_length=lengths)
        return (out, *state) if isinstance(state, tuple) else (out, state)


class Classifier(nn.Layer):
    """Padded sequences -> class scores from the last layer's final states."""

    def __init__(self, kind):
        super().__init__()
        self.rnn = KINDS[kind](FEATURES, HIDDEN, 2, "bidirect")
        self.fc = nn.Linear(2 * HIDDEN, CLASSES)

    def forward(self, x, lengths):
        out, state = self.rnn(x, sequence_length=lengths)
        h = state[0] if isinstance(state, tuple) else state
        return self.fc(paddle.concat([h[-2], h[-1]], -1)) + out.mean(1)[:, :CLASSES]


def specs(lengths=True):
    """Inputs with unknown batch and time (time-major or not), and optionally lengths."""
    x = InputSpec([None, None, FEATURES], "float32", "x")
    return [x, InputSpec([None], "int64", "lengths")] if lengths else [x]


def sample(batch, time, time_major=False, seed=0):
    """Random inputs [batch, time, F] (or time-major) and lengths in [1, time]."""
    rng = np.random.default_rng(seed + 10 * batch + time)
    shape = (time, batch, FEATURES) if time_major else (batch, time, FEATURES)
    x = paddle.to_tensor(rng.standard_normal(shape).astype("float32"))
    return x, paddle.to_tensor(rng.integers(1, time + 1, batch).astype("int64"))


def converted(layer, input_spec):
    """A deep copy of `layer` whose forward runs through to_static with `input_spec`."""
    static = copy.deepcopy(layer)
    static.forward = to_static(static.forward, input_spec=input_spec)
    return static


def assert_close(got, want, rtol=1e-5, atol=1e-6):
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=rtol, atol=atol)


@pytest.mark.parametrize("with_lengths", [False, True])
@pytest.mark.parametrize("num_layers,direction,time_major", CONFIGS)
@pytest.mark.parametrize("kind", KINDS)
def test_outputs_and_final_states_match_eager(kind, num_layers, direction, time_major,
                                              with_lengths):
    paddle.seed(0)
    eager = Recurrent(kind, num_layers, direction, time_major)
    static = converted(eager, specs(with_lengths))
    for batch, time in SHAPES:
        x, lengths = sample(batch, time, time_major)
        args = (x, lengths) if with_lengths else (x,)
        assert_close(static(*args), eager(*args))
    program = static.forward.concrete_program.main_program
    program.verify()
    loops = [op for op in program.global_block().ops if op.type == "while"]
    assert len(loops) == num_layers * (2 if direction == "bidirect" else 1)


def test_known_time_with_unknown_batch_stays_unrolled():
    """The unrolled Program: zero states sized by a run-time batch, weights as parameters."""
    paddle.seed(5)
    eager = Recurrent("GRU", 2, "bidirect")
    static = converted(eager, [InputSpec([None, 5, FEATURES], "float32"),
                               InputSpec([None], "int64")])
    for batch in (2, 3):
        x, lengths = sample(batch, 5)
        for model in (eager, static):
            sum(o.sum() for o in model(x, lengths)).backward()
        assert_close(static(x, lengths), eager(x, lengths))
    assert_close([p.grad for p in static.parameters()], [p.grad for p in eager.parameters()])
    ops = [op.type for op in static.forward.concrete_program.main_program.global_block().ops]
    assert "while" not in ops


def test_initial_states_with_unknown_batch_and_time():
    paddle.seed(1)
    lstm = nn.LSTM(FEATURES, HIDDEN, 2, "bidirect")
    state_spec = InputSpec([4, None, HIDDEN], "float32")
    fn = to_static(lambda x, h, c: lstm(x, (h, c)),
                   input_spec=[specs(lengths=False)[0], state_spec, state_spec])
    for batch, time in SHAPES[:2]:
        x, _ = sample(batch, time)
        h, c = paddle.randn([4, batch, HIDDEN]), paddle.randn([4, batch, HIDDEN])
        (out, (h1, c1)), (want, (wh, wc)) = fn(x, h, c), lstm(x, (h, c))
        assert_close([out, h1, c1], [want, wh, wc])


@pytest.mark.parametrize("with_lengths", [False, True])
@pytest.mark.parametrize("kind", KINDS)
def test_gradients_match_eager(kind, with_lengths):
    """Gradients of a weighted sum of every output w.r.t. the input and the parameters."""
    paddle.seed(2)
    eager = Recurrent(kind, 2, "bidirect")
    static = converted(eager, specs(lengths=with_lengths))
    for model in (eager, static):
        x, lengths = sample(3, 6)
        x.stop_gradient = False
        outs = model(*((x, lengths) if with_lengths else (x,)))
        loss = sum((o * paddle.cos(paddle.arange(o.size, dtype="float32").reshape(o.shape))
                    ).sum() for o in outs)
        loss.backward()
        model.grads = [x.grad] + [p.grad for p in model.parameters()]
    assert_close(static.grads, eager.grads, rtol=1e-4, atol=1e-6)


def fit(model, steps=5):
    """Adam steps on a fixed batch; returns (losses, final parameters)."""
    x, lengths = sample(4, 6)
    labels = paddle.to_tensor(np.array([0, 1, 1, 0], "int64"))
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
    losses = []
    for _ in range(steps):
        loss = nn.functional.cross_entropy(model(x, lengths), labels)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses, [p.numpy() for p in model.parameters()]


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_training_matches_eager(kind):
    paddle.seed(3)
    eager = Classifier(kind)
    static = converted(eager, specs())
    (l1, p1), (l2, p2) = fit(eager), fit(static)
    np.testing.assert_allclose(l2, l1, rtol=1e-5)
    assert l1[-1] < l1[0]
    for a, b in zip(p2, p1):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_save_and_load_serve_other_batch_sizes_and_lengths(kind, tmp_path):
    paddle.seed(4)
    model = Classifier(kind)
    model.eval()
    paddle.jit.save(model, str(tmp_path / "clf"), input_spec=specs())
    loaded = paddle.jit.load(str(tmp_path / "clf"))
    for batch, time in [(2, 3), (5, 9)]:
        x, lengths = sample(batch, time, seed=5)
        np.testing.assert_allclose(loaded(x, lengths).numpy(), model(x, lengths).numpy(),
                                   rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("full_graph", [True, False])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_recurrent_layer_converted_itself_matches_eager(kind, full_graph):
    """to_static of the recurrent layer itself converts its own forward (nested per-layer
    and per-direction loops appending final states)."""
    paddle.seed(3)
    eager = KINDS[kind](FEATURES, HIDDEN, 2, "bidirect")
    static = to_static(copy.deepcopy(eager), full_graph=full_graph)
    x, _ = sample(3, 4)
    for got, want in zip(paddle.utils.flatten(static(x)), paddle.utils.flatten(eager(x))):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
