"""Viterbi decoding of a linear-chain CRF: the best tag path and its score."""
import numpy as np

from ..eager.tensor import Tensor
from ..nn.layer.layers import Layer

__all__ = ["viterbi_decode", "ViterbiDecoder"]


def _array(value, name):
    if isinstance(value, Tensor):
        return value.numpy()
    raise TypeError(f"viterbi_decode: {name} must be a Tensor, got {type(value).__name__}")


def _best_paths(potentials, transitions, lengths, with_bos_eos):
    """(scores [batch], paths [batch, max length]) by dynamic programming per sequence;
    positions past a sequence's length hold 0."""
    batch, _, tags = potentials.shape
    width = int(lengths.max()) if batch else 0
    scores = np.zeros(batch, potentials.dtype)
    paths = np.zeros((batch, width), np.int64)
    for b in range(batch):
        n = int(lengths[b])
        if n == 0:
            continue
        alpha = potentials[b, 0] + (transitions[-1] if with_bos_eos else 0)
        back = []
        for t in range(1, n):
            total = alpha[:, None] + transitions
            back.append(total.argmax(axis=0))
            alpha = total.max(axis=0) + potentials[b, t]
        if with_bos_eos:
            alpha = alpha + transitions[:, -2]
        tag = int(alpha.argmax())
        scores[b] = alpha[tag]
        paths[b, n - 1] = tag
        for t in range(n - 2, -1, -1):
            tag = int(back[t][tag])
            paths[b, t] = tag
    return scores, paths


def viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag=True,
                   name=None):
    """The highest-scoring tag sequence of each batch item.

    Args:
        potentials (Tensor): emission scores [batch, seq_len, num_tags].
        transition_params (Tensor): [num_tags, num_tags], score of tag i followed by tag j.
        lengths (Tensor): int64 [batch], each sequence's length.
        include_bos_eos_tag (bool): the last tag is the start tag and the second to last the
            stop tag: their transitions score the first and last positions.
    Returns:
        (scores [batch], paths int64 [batch, max(lengths)], 0 past each length).
    """
    emissions = _array(potentials, "potentials")
    transitions = _array(transition_params, "transition_params")
    lengths = _array(lengths, "lengths").astype(np.int64)
    if emissions.ndim != 3 or transitions.shape != (emissions.shape[2],) * 2:
        raise ValueError(f"viterbi_decode: potentials must be [batch, seq_len, num_tags] and "
                         f"transition_params [num_tags, num_tags], got "
                         f"{list(emissions.shape)} and {list(transitions.shape)}")
    if lengths.shape != (emissions.shape[0],) or (lengths > emissions.shape[1]).any():
        raise ValueError(f"viterbi_decode: lengths must be [batch] values up to seq_len "
                         f"{emissions.shape[1]}, got {lengths.tolist()}")
    scores, paths = _best_paths(emissions, transitions, lengths, include_bos_eos_tag)
    return Tensor(scores), Tensor(paths)


class ViterbiDecoder(Layer):
    """Layer form of viterbi_decode holding the transition matrix:
    forward(potentials, lengths) -> (scores, paths)."""

    def __init__(self, transitions, include_bos_eos_tag=True, name=None):
        super().__init__()
        self.transitions, self.include_bos_eos_tag, self.name = (transitions,
                                                                 include_bos_eos_tag, name)

    def forward(self, potentials, lengths):
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag)
