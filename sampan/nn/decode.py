"""Beam search decoding: `BeamSearchDecoder` and the `dynamic_decode` loop that runs any
`Decoder` step by step (eagerly, or while a Program is built, e.g. under to_static)."""
from typing import NamedTuple

import numpy as np

from .. import tensor as P
from ..core.dispatch import current_mode
from ..core.dtype import get_default_dtype
from ..eager.tensor import Tensor
from ..static.control_flow.nest import flatten, map_structure
from . import functional as F

__all__ = ["Decoder", "BeamSearchDecoder", "dynamic_decode"]

_NEG_INF = -1e9  # log-probability of an impossible choice


class Decoder:
    """Base of the decoders `dynamic_decode` runs: `initialize(inits)` returns (inputs,
    states, finished); `step(time, inputs, states, **kwargs)` returns (outputs, next_states,
    next_inputs, finished); `finalize(outputs, final_states, sequence_lengths)` may
    post-process the stacked outputs."""

    def initialize(self, inits):
        raise NotImplementedError

    def step(self, time, inputs, states, **kwargs):
        raise NotImplementedError

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        """True when `step` reports finished beams itself (dynamic_decode then trusts it)."""
        return False


def _batch_size(structure):
    """The batch size of the first tensor of `structure`: an int, or a run-time size (a
    Tensor) when it is unknown while a Program is built (an InputSpec's None)."""
    first = flatten(structure)[0]
    return first.shape[0] if first.shape[0] >= 0 else P.shape(first)[0]


class BeamSearchDecoder(Decoder):
    """Beam search over a cell: each step runs `cell` on the batch's `beam_size` beams,
    scores every continuation by its summed log-probability and keeps the best
    `beam_size`; a beam that emits `end_token` stays finished. `embedding_fn` maps token
    ids to the cell's inputs, `output_fn` the cell's outputs to logits.

    Example:
        decoder = nn.BeamSearchDecoder(nn.GRUCell(8, 16), start_token=0, end_token=1,
                                       beam_size=4, embedding_fn=nn.Embedding(20, 8),
                                       output_fn=nn.Linear(16, 20))
        ids, states = nn.dynamic_decode(decoder, inits=cell.get_initial_states(enc),
                                        max_step_num=10)   # ids: [batch, time, beam]
    """

    class OutputWrapper(NamedTuple):
        scores: Tensor
        predicted_ids: Tensor
        parent_ids: Tensor

    class StateWrapper(NamedTuple):
        cell_states: Tensor
        log_probs: Tensor
        finished: Tensor
        lengths: Tensor

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None,
                 output_fn=None):
        self.cell, self.start_token, self.end_token = cell, start_token, end_token
        self.beam_size, self.embedding_fn, self.output_fn = beam_size, embedding_fn, output_fn

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        """[batch, ...] -> [batch * beam_size, ...], each row repeated beam_size times."""
        x = P.unsqueeze(x, [1])
        x = P.tile(x, [1, beam_size] + [1] * (len(x.shape) - 2))
        return P.reshape(x, [-1] + list(x.shape[2:]))

    def _split_batch_beams(self, x):
        """[batch * beam, ...] -> [batch, beam, ...]."""
        return P.reshape(x, [-1, self.beam_size] + list(x.shape[1:]))

    def _merge_batch_beams(self, x):
        """[batch, beam, ...] -> [batch * beam, ...]."""
        return P.reshape(x, [-1] + list(x.shape[2:]))

    def _expand_to_beam_size(self, x):
        """[batch, ...] -> [batch, beam, ...]."""
        x = P.unsqueeze(x, [1])
        return P.tile(x, [1, self.beam_size] + [1] * (len(x.shape) - 2))

    @staticmethod
    def _gather(x, indices):
        """x[b, indices[b, k]] for each batch row b: [batch, beam, ...] (the indices
        broadcast over x's trailing dims, so the batch size is never needed)."""
        index = P.reshape(indices, list(indices.shape) + [1] * (len(x.shape) - 2))
        return P.take_along_axis(x, index, 1)

    def initialize(self, initial_cell_states):
        """Start every batch row with one live beam (the others at -inf) on start_token."""
        self.batch_size = _batch_size(initial_cell_states)
        cell_states = map_structure(self._expand_to_beam_size, initial_cell_states)
        shape = [self.batch_size, self.beam_size]
        ids = P.full(shape, self.start_token, "int64")
        first = np.array([0.0] + [_NEG_INF] * (self.beam_size - 1), get_default_dtype())
        log_probs = P.full(shape, 0.0, get_default_dtype()) + P.to_tensor(first)
        finished = P.full(shape, False, "bool")
        inputs = self.embedding_fn(ids) if self.embedding_fn else ids
        return inputs, self.StateWrapper(cell_states, log_probs, finished,
                                         P.zeros_like(ids)), finished

    def _mask_probs(self, probs, finished):
        """Finished beams put all their probability on end_token."""
        vocab = probs.shape[-1]
        only_end = np.full([vocab], _NEG_INF, probs.dtype.name)
        only_end[self.end_token] = 0.0
        return P.where(P.unsqueeze(finished, [2]), P.to_tensor(only_end), probs)

    def _beam_search_step(self, logits, next_cell_states, beam_state):
        vocab = logits.shape[-1]
        step_log_probs = self._mask_probs(P.log(F.softmax(logits)), beam_state.finished)
        log_probs = step_log_probs + P.unsqueeze(beam_state.log_probs, [2])
        scores = P.reshape(log_probs, [-1, self.beam_size * vocab])
        top_scores, top_indices = P.topk(scores, self.beam_size)
        beam_indices = P.floor_divide(top_indices, P.full([1], vocab, "int64"))
        token_indices = P.remainder(top_indices, P.full([1], vocab, "int64"))
        next_log_probs = self._gather(scores, top_indices)
        next_cell_states = map_structure(lambda x: self._gather(x, beam_indices),
                                         next_cell_states)
        was_finished = self._gather(beam_state.finished, beam_indices)
        lengths = self._gather(beam_state.lengths, beam_indices)
        lengths = lengths + P.cast(P.logical_not(was_finished), lengths.dtype)
        finished = P.logical_or(was_finished, P.equal(token_indices,
                                                       P.full([1], self.end_token, "int64")))
        return (self.OutputWrapper(top_scores, token_indices, beam_indices),
                self.StateWrapper(next_cell_states, next_log_probs, finished, lengths))

    def step(self, time, inputs, states, **kwargs):
        """One beam-search step: (OutputWrapper, StateWrapper, next inputs, finished)."""
        inputs = map_structure(self._merge_batch_beams, inputs)
        cell_states = map_structure(self._merge_batch_beams, states.cell_states)
        outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        outputs = map_structure(self._split_batch_beams, outputs)
        next_cell_states = map_structure(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            outputs = self.output_fn(outputs)
        output, state = self._beam_search_step(outputs, next_cell_states, states)
        ids = output.predicted_ids
        ids.stop_gradient = True
        return output, state, (self.embedding_fn(ids) if self.embedding_fn else ids), \
            state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        """The full beams, traced back through their parents: [time, batch, beam] ids."""
        ids = F.gather_tree(outputs.predicted_ids, outputs.parent_ids)
        return P.cast(ids, outputs.predicted_ids.dtype), final_states

    @property
    def tracks_own_finished(self):
        return True


def _stack_steps(steps):
    """The per-step outputs (one structure per step) stacked along a new leading time axis."""
    if isinstance(steps[0], tuple) and hasattr(steps[0], "_fields"):
        return type(steps[0])(*[_stack_steps([s[i] for s in steps])
                                for i in range(len(steps[0]))])
    if isinstance(steps[0], (list, tuple)):
        return type(steps[0])(_stack_steps([s[i] for s in steps]) for i in range(len(steps[0])))
    return P.stack(steps, axis=0)


def _keep_finished(old, new, finished):
    """`new` where the row is unfinished, `old` where it finished (impute_finished)."""
    mask = P.reshape(finished, list(finished.shape) + [1] * (len(new.shape) - len(finished.shape)))
    return P.where(mask.expand(new.shape), old, new)


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False,
                   impute_finished=False, is_test=False, return_length=False, **kwargs):
    """Run `decoder` from `decoder.initialize(inits)` until every sequence finished, or
    for `max_step_num` + 1 steps at most (Paddle's count).

    Returns (final_outputs, final_states), plus the sequence lengths with
    `return_length=True`; outputs are batch-major unless `output_time_major`. While a
    Program is built (static mode, to_static) the step count must be bounded by
    `max_step_num`: the loop runs all those steps, and sequences that finished early carry
    end tokens (finished beams keep scoring end_token at no cost).
    """
    inputs, states, finished = decoder.initialize(inits)
    static = current_mode().is_static
    if static and max_step_num is None:
        raise ValueError("dynamic_decode: while a Program is built, pass max_step_num (the "
                         "loop cannot stop on a value known only at run time)")
    lengths = P.cast(P.zeros_like(finished), "int64")
    steps, step = [], 0
    while static or not bool(P.all(finished)):
        out, next_states, next_inputs, next_finished = decoder.step(
            P.full([1], step, "int64"), inputs, states, **kwargs)
        if decoder.tracks_own_finished:
            lengths = getattr(next_states, "lengths", lengths)
        else:
            next_finished = P.logical_or(next_finished, finished)
            lengths = lengths + P.cast(P.logical_not(finished), "int64")
            if impute_finished:
                next_states = map_structure(lambda a, b: _keep_finished(a, b, finished),
                                            states, next_states)
        steps.append(out)
        inputs, states, finished = next_inputs, next_states, next_finished
        step += 1
        if max_step_num is not None and step > max_step_num:
            break
    outputs = _stack_steps(steps)
    try:
        outputs, states = decoder.finalize(outputs, states, lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        outputs = map_structure(lambda x: P.transpose(x, [1, 0] + list(range(2, len(x.shape)))),
                                outputs if not hasattr(outputs, "_fields") else tuple(outputs))
    return (outputs, states, lengths) if return_length else (outputs, states)
