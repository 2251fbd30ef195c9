"""Recurrent layers exported to ONNX compute in onnxruntime what they compute eagerly in
sampan: LSTM, GRU and SimpleRNN, one or two layers, one or both directions, batch-major or
time-major, with padded sequences (`sequence_length`) and initial states given, at two batch
sizes from one file (the batch dim is symbolic), over a fixed time length (unrolled) and an
unknown one (an ONNX Loop)."""
import itertools

import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.static import InputSpec

from ..nn.test_beam_search import H0, PADDLE as PADDLE_BEAMS, _model as beam_search_model
from .harness import assert_same, export, node_types

FEATURES, HIDDEN, STEPS = 3, 4, 5
CELLS = {"lstm": nn.LSTM, "gru": nn.GRU, "simple_rnn": nn.SimpleRNN}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}


def _pairwise_settings():
    """(num_layers, direction, time_major, lengths given, states given) in 8 runs where
    every pair of values of any two settings appears (a two-level orthogonal array: the
    last two columns are XORs of the first three)."""
    return [(1 + a, ("forward", "bidirect")[b], bool(c), bool(a ^ b), bool(a ^ c))
            for a, b, c in itertools.product((0, 1), repeat=3)]


class Recurrent(nn.Layer):
    """A recurrent layer called with its initial states and/or sequence lengths taken from
    the inputs; returns the outputs and the final states, flattened."""

    def __init__(self, rnn, states_given, lengths_given):
        super().__init__()
        self.rnn, self.states_given, self.lengths_given = rnn, states_given, lengths_given

    def forward(self, x, *rest):
        rest = list(rest)
        states = None
        if self.states_given:
            states = (rest.pop(0), rest.pop(0)) if isinstance(self.rnn, nn.LSTM) \
                else rest.pop(0)
        lengths = rest.pop(0) if self.lengths_given else None
        out, finals = self.rnn(x, states, lengths)
        return [out] + paddle.utils.flatten(finals)


class Inputs:
    """InputSpecs of a recurrent layer's inputs (None for the batch, and for the time when
    `steps` is None) and arrays for them at a batch size and time length."""

    def __init__(self, cell, rnn, time_major, states_given, lengths_given, steps=STEPS):
        self.time_major, self.states = time_major, 0
        x = [steps, None, FEATURES] if time_major else [None, steps, FEATURES]
        self.specs = [InputSpec(x, "float32", "x")]
        if states_given:
            self.states = 2 if cell == "lstm" else 1
            count = rnn.num_layers * rnn.num_directions
            self.specs += [InputSpec([count, None, HIDDEN], "float32", f"state{k}")
                           for k in range(self.states)]
        self.lengths = lengths_given
        if lengths_given:
            self.specs.append(InputSpec([None], "int64", "lengths"))

    def arrays(self, batch, steps, seed=0):
        """x, the states and the lengths (one sequence full, the others shorter)."""
        rng = np.random.RandomState(seed)
        x = rng.randn(steps, batch, FEATURES) if self.time_major else \
            rng.randn(batch, steps, FEATURES)
        count = self.specs[1].shape[0] if self.states else 0
        arrays = [x] + [rng.randn(count, batch, HIDDEN) for _ in range(self.states)]
        arrays = [a.astype("float32") for a in arrays]
        if self.lengths:
            arrays.append(np.array([steps, 1, 3][:batch], "int64"))
        return arrays


def _check(layer, inputs, tmp_path, sizes=((2, STEPS), (3, STEPS))):
    """Export `layer` with `inputs.specs`; onnxruntime agrees with eager sampan at each
    (batch, time length) of `sizes` from the one file. Returns the ONNX model."""
    layer.eval()
    model, session = export(layer, inputs.specs, tmp_path)
    assert model.graph.input[0].type.tensor_type.shape.dim[
        1 if inputs.time_major else 0].dim_param    # a symbolic batch dim
    for batch, steps in sizes:
        assert_same(layer, session, inputs.arrays(batch, steps), **TOLERANCE)
    return model


@pytest.mark.parametrize("cell", sorted(CELLS))
@pytest.mark.parametrize("layers,direction,time_major,lengths,states", _pairwise_settings())
def test_recurrent_layer_agrees_with_sampan(tmp_path, cell, layers, direction, time_major,
                                            lengths, states):
    paddle.seed(1)
    rnn = CELLS[cell](FEATURES, HIDDEN, layers, direction, time_major)
    _check(Recurrent(rnn, states, lengths), Inputs(cell, rnn, time_major, states, lengths),
           tmp_path)


@pytest.mark.parametrize("cell", sorted(CELLS))
@pytest.mark.parametrize("layers,direction,time_major,lengths,states", [
    (2, "bidirect", False, True, True), (1, "forward", True, False, True)])
def test_unknown_time_length_becomes_a_loop(tmp_path, cell, layers, direction, time_major,
                                            lengths, states):
    """With the time dim None the recurrence is one Loop; the file serves every batch size
    and time length."""
    paddle.seed(2)
    rnn = CELLS[cell](FEATURES, HIDDEN, layers, direction, time_major)
    inputs = Inputs(cell, rnn, time_major, states, lengths, steps=None)
    model = _check(Recurrent(rnn, states, lengths), inputs, tmp_path,
                   sizes=((2, STEPS), (3, STEPS + 2)))
    assert "Loop" in node_types(model.graph)


def test_layer_exported_itself_with_nested_state_specs(tmp_path):
    """nn.LSTM is the exported layer (its own forward converted by to_static): states as a
    (h, c) pair of InputSpecs, lengths as the third argument."""
    paddle.seed(3)
    rnn = nn.LSTM(FEATURES, HIDDEN, 2, "bidirect")
    rnn.eval()
    inputs = Inputs("lstm", rnn, False, True, True)
    x, h, c, lengths = inputs.specs
    _, session = export(rnn, [x, (h, c), lengths], tmp_path)
    for batch in (2, 3):
        arrays = inputs.arrays(batch, STEPS)
        got = session.run(None, dict(zip([s.name for s in inputs.specs], arrays)))
        x, h, c, lengths = [paddle.to_tensor(a) for a in arrays]
        out, (h, c) = rnn(x, (h, c), lengths)
        for g, w in zip(got, (out, h, c)):
            np.testing.assert_allclose(g, w.numpy(), **TOLERANCE)


class Decorated(nn.Layer):
    """A GRU under a forward decorated with to_static and its InputSpecs."""

    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(FEATURES, HIDDEN, 2, "bidirect")

    @paddle.jit.to_static(input_spec=[InputSpec([None, STEPS, FEATURES], "float32", "x"),
                                      InputSpec([None], "int64", "lengths")])
    def forward(self, x, lengths):
        out, h = self.gru(x, sequence_length=lengths)
        return out, h


OTHER_LAYERS = {
    "lstm_projection": lambda: nn.LSTM(FEATURES, HIDDEN, 2, "bidirect", proj_size=2),
    "relu_rnn": lambda: nn.SimpleRNN(FEATURES, HIDDEN, 2, "bidirect", activation="relu"),
    "rnn_of_cell": lambda: nn.RNN(nn.LSTMCell(FEATURES, HIDDEN), is_reverse=True),
    "birnn": lambda: nn.BiRNN(nn.GRUCell(FEATURES, HIDDEN), nn.SimpleRNNCell(FEATURES, HIDDEN)),
}


@pytest.mark.parametrize("kind", sorted(OTHER_LAYERS))
def test_other_recurrent_layers_over_padded_sequences(tmp_path, kind):
    """LSTM's projection, a relu SimpleRNN, and the RNN / BiRNN wrappers of cells."""
    paddle.seed(4)
    _check(Recurrent(OTHER_LAYERS[kind](), False, True), Inputs("gru", None, False, False, True),
           tmp_path)


def test_decorated_forward_exports_with_its_own_specs(tmp_path):
    paddle.seed(5)
    layer = Decorated()
    layer.eval()
    _, session = export(layer, None, tmp_path)
    for batch in (2, 3):
        assert_same(layer, session, Inputs("gru", None, False, False, True).arrays(batch, STEPS),
                    **TOLERANCE)


def test_beam_search_decoder_over_a_dynamic_batch(tmp_path):
    """nn.dynamic_decode of a BeamSearchDecoder over a GRUCell (unrolled max_step_num + 1
    steps) from one file at two batch sizes: Paddle's recorded ids, log-probabilities and
    lengths, and eager sampan's."""
    net = beam_search_model(0.0, 4)
    net.eval()
    _, session = export(net, [InputSpec([None, 8], "float32", "h0")], tmp_path)
    ids, log_probs, lengths = session.run(None, {"h0": H0})
    expected_ids, expected_log_probs, expected_lengths = PADDLE_BEAMS[(0.0, 4)]
    np.testing.assert_array_equal(ids, expected_ids)
    np.testing.assert_allclose(log_probs, expected_log_probs, atol=2e-4)
    np.testing.assert_array_equal(lengths, expected_lengths)
    more = np.concatenate([H0, H0[:1] * -0.5])
    assert_same(net, session, [more], **TOLERANCE)
