"""nn.BeamSearchDecoder with nn.dynamic_decode, eagerly and under to_static, against
Paddle 3.3.1's ids, final log-probabilities and lengths (recorded with the same weights:
a GRUCell decoder, beam 3, start 0, end 1)."""
import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn


class Decoding(nn.Layer):
    def __init__(self, max_step):
        super().__init__()
        self.emb, self.cell, self.out = nn.Embedding(12, 6), nn.GRUCell(6, 8), nn.Linear(8, 12)
        self.max_step = max_step

    def forward(self, h0):
        decoder = nn.BeamSearchDecoder(self.cell, 0, 1, 3, embedding_fn=self.emb,
                                       output_fn=self.out)
        ids, states, lengths = nn.dynamic_decode(decoder, inits=h0, max_step_num=self.max_step,
                                                 return_length=True)
        return ids, states.log_probs, lengths


def _model(end_bias, max_step):
    net = Decoding(max_step)
    rng = np.random.default_rng(7)
    state = {k: rng.standard_normal(v.shape).astype("float32")
             for k, v in net.state_dict().items()}
    state["out.bias"][1] += end_bias  # a likelier end token: beams finish early
    net.set_state_dict({k: paddle.to_tensor(v) for k, v in state.items()})
    return net


H0 = np.random.default_rng(1).standard_normal((2, 8)).astype("float32")
PADDLE = {
    (0.0, 4): ([[[10, 10, 10], [10, 10, 10], [10, 10, 10], [10, 10, 4], [10, 4, 7]],
                [[2, 10, 2], [10, 4, 10], [10, 4, 4], [4, 7, 4], [4, 10, 7]]],
               [[-2.352, -2.9387, -4.0557], [-5.4041, -5.5377, -5.6691]],
               [[5, 5, 5], [5, 5, 5]]),
    (3.0, 9): ([[[1, 10, 10]] + [[1, 1, 10]] * 9, [[1, 4, 2]] + [[1, 1, 1]] * 9],
               [[-0.7331, -1.9678, -9.0302], [-0.6845, -2.4457, -2.8411]],
               [[1, 2, 10], [1, 2, 2]]),
}


@pytest.mark.parametrize("end_bias, max_step", sorted(PADDLE))
@pytest.mark.parametrize("static", [False, True])
def test_beam_search_matches_paddle(end_bias, max_step, static):
    net = _model(end_bias, max_step)
    run = paddle.jit.to_static(net) if static else net
    ids, log_probs, lengths = run(paddle.to_tensor(H0))
    expected_ids, expected_log_probs, expected_lengths = PADDLE[(end_bias, max_step)]
    np.testing.assert_array_equal(ids.numpy(), expected_ids)
    np.testing.assert_allclose(log_probs.numpy(), expected_log_probs, atol=2e-4)
    np.testing.assert_array_equal(lengths.numpy(), expected_lengths)


def test_dynamic_decode_needs_a_step_bound_while_a_program_is_built():
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            h0 = paddle.static.data("h0", [2, 8], "float32")
            decoder = nn.BeamSearchDecoder(nn.GRUCell(6, 8), 0, 1, 3,
                                           embedding_fn=nn.Embedding(12, 6),
                                           output_fn=nn.Linear(8, 12))
            with pytest.raises(ValueError, match="pass max_step_num"):
                nn.dynamic_decode(decoder, inits=h0)
    finally:
        paddle.disable_static()


def test_tile_beam_merge_with_batch_repeats_each_row():
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    out = nn.BeamSearchDecoder.tile_beam_merge_with_batch(x, 2)
    np.testing.assert_array_equal(out.numpy(), [[1, 2], [1, 2], [3, 4], [3, 4]])


def test_beam_search_under_to_static_with_an_unknown_batch_size():
    """One Program (the batch dim None) serves Paddle's batch of 2 and a batch of 3 whose
    first rows decode as before."""
    net = _model(3.0, 9)
    run = paddle.jit.to_static(net, input_spec=[paddle.static.InputSpec([None, 8], "float32")])
    expected_ids, expected_log_probs, expected_lengths = PADDLE[(3.0, 9)]
    for h0 in (H0, np.concatenate([H0, H0[:1] * 0.5])):
        ids, log_probs, lengths = run(paddle.to_tensor(h0))
        np.testing.assert_array_equal(ids.numpy()[:2], expected_ids)
        np.testing.assert_allclose(log_probs.numpy()[:2], expected_log_probs, atol=2e-4)
        np.testing.assert_array_equal(lengths.numpy()[:2], expected_lengths)
    assert len(run.forward.program_cache) == 1
