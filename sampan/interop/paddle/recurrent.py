"""Paddle's fused `rnn` op (nn.LSTM / nn.GRU / nn.SimpleRNN in an exported model) as
sampan's recurrence: the same cell step the eager layers use, per layer and direction."""
import functools

from ...ops._generated import api
from ...nn.layer.recurrence import run_loop, run_steps, time_steps
from ...nn.layer.rnn import cell_step
from .builder import ConversionError

__all__ = ["convert_rnn"]

_STATES = {"LSTM": 2, "GRU": 1, "RNN_TANH": 1, "RNN_RELU": 1}


def _layer_state(states, idx):
    """Layer-direction idx's [batch, hidden] slice of each [layers*dirs, batch, hidden]."""
    parts = [api.squeeze(api.slice(s, [0], [idx], [idx + 1]), [0]) for s in states]
    return tuple(parts) if len(parts) > 1 else parts[0]


def convert_rnn(builder, op):
    """(out [time, batch, dirs*hidden], None, [final states], None) of a `pd_op.rnn`; with
    sequence_length (input 3), outputs past each sequence's length are zeros and the final
    states are those at its end, as in the eager layers."""
    mode, attrs = op.attrs.get("mode"), op.attrs
    if mode not in _STATES:
        raise ConversionError(f"pd_op.rnn: mode {mode!r} is not supported")
    lengths = builder.value(op, 3)
    lengths = None if lengths is None else builder.tensor(lengths)
    x = builder.tensor(builder.value(op, 0))
    states = builder.tensor(builder.value(op, 1))
    weights = builder.tensor(builder.value(op, 2))
    layers, dirs = int(attrs["num_layers"]), 2 if attrs.get("is_bidirec") else 1
    count = layers * dirs
    if len(states) != _STATES[mode] or len(weights) != 4 * count:
        raise ConversionError(f"pd_op.rnn: expected {_STATES[mode]} states and {4 * count} "
                              f"weights, got {len(states)} and {len(weights)}")
    looped = x.shape[0] < 0
    seq = x if looped else time_steps(x, True, "pd_op.rnn")
    run = run_loop if looped else run_steps
    finals = []
    for k in range(layers):
        per_dir = []
        for d in range(dirs):
            idx = k * dirs + d
            w_ih, w_hh = weights[2 * idx], weights[2 * idx + 1]
            b_ih, b_hh = weights[2 * count + 2 * idx], weights[2 * count + 2 * idx + 1]
            step = functools.partial(cell_step, mode, weights=(w_ih, w_hh, b_ih, b_hh, None))
            outs, final = run(step, seq, _layer_state(states, idx), d == 1, lengths)
            per_dir.append(outs)
            finals.append(final if isinstance(final, tuple) else (final,))
        seq = _side_by_side(per_dir, looped)
    out = seq if looped else api.stack(seq, 0)
    final_states = [api.stack([f[j] for f in finals], 0) for j in range(_STATES[mode])]
    return [out, None, final_states, None]


def _side_by_side(per_dir, looped):
    if len(per_dir) == 1:
        return per_dir[0]
    if looped:
        return api.concat(per_dir, -1)
    return [api.concat(list(hs), -1) for hs in zip(*per_dir)]
