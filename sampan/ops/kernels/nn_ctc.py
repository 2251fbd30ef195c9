"""Connectionist temporal classification (Paddle's warpctc op): the loss of unnormalised
logits [T, B, C] against padded label sequences, by the forward (alpha) and backward (beta)
recursions in log space over the blank-extended labels, with the gradient of the logits
computed alongside (as warp-ctc does) and scaled by the loss gradient in warpctc_grad.

Time and label positions past a sequence's length are ignored. A label sequence no
alignment of its input can produce has an infinite loss and a zero gradient.
"""
import numpy as np

from ...core.errors import InvalidArgument

__all__ = ["warpctc", "warpctc_grad"]


def _check_lengths(lengths, limit, arg, low):
    """Sequence lengths must lie in [low, limit]."""
    if lengths.size and (lengths.min() < low or lengths.max() > limit):
        raise InvalidArgument(arg, f"lengths must lie in [{low}, {limit}], got values in "
                                   f"[{lengths.min()}, {lengths.max()}]")


def _extended(label, labels_length, blank):
    """Blank-extended labels [B, S] (S = 2 * max_label + 1; blanks past each sequence) and
    where a path may skip from s - 2 to s (a label differing from the one before it)."""
    count, width = label.shape
    ext = np.full((count, 2 * width + 1), blank, np.int64)
    inside = np.arange(width)[None, :] < labels_length[:, None]
    ext[:, 1::2] = np.where(inside, label, blank)
    skip = np.zeros(ext.shape, bool)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    return ext, skip


def _shifted(a, by, fill=-np.inf):
    """a moved `by` places along its last axis (positive: towards higher s), filled."""
    out = np.full_like(a, fill)
    if by > 0:
        out[..., by:] = a[..., :-by]
    else:
        out[..., :by] = a[..., -by:]
    return out


def _alphas(emit, skip):
    """Forward log-probabilities alpha[t, b, s] of the prefixes ending in s at time t."""
    alpha = np.full(emit.shape, -np.inf)
    alpha[0, :, :2] = emit[0, :, :2]
    for t in range(1, emit.shape[0]):
        a = alpha[t - 1]
        jump = np.where(skip, _shifted(a, 2), -np.inf)
        alpha[t] = np.logaddexp(np.logaddexp(a, _shifted(a, 1)), jump) + emit[t]
    return alpha


def _betas(emit, skip, lengths, finals):
    """Backward log-probabilities beta[t, b, s] of the suffixes from s at time t (both ends'
    emissions included), starting at each sequence's own last time step."""
    steps, count, width = emit.shape
    beta = np.full(emit.shape, -np.inf)
    s = np.arange(width)[None, :]
    start = np.where((s == finals[:, None]) | (s == finals[:, None] - 1), 0.0, -np.inf)
    jump_ok = _shifted(skip, -2, False)
    for t in range(steps - 1, -1, -1):
        later = beta[t + 1] if t + 1 < steps else np.full((count, width), -np.inf)
        jump = np.where(jump_ok, _shifted(later, -2), -np.inf)
        inner = np.logaddexp(np.logaddexp(later, _shifted(later, -1)), jump)
        here = np.where((t == lengths - 1)[:, None], start, inner)
        beta[t] = np.where((t < lengths)[:, None], here + emit[t], -np.inf)
    return beta


def warpctc(logits, label, logits_length, labels_length, blank, norm_by_times):
    """(loss [B, 1], d loss / d logits [T, B, C]) of softmax(logits) against the labels."""
    steps, count, classes = logits.shape
    _check_lengths(logits_length, steps, "logits_length", 1)
    _check_lengths(labels_length, label.shape[1], "labels_length", 0)
    if not 0 <= blank < classes:
        raise InvalidArgument("blank", f"must lie in [0, {classes}), got {blank}")
    z = logits.astype(np.float64)
    logp = z - np.logaddexp.reduce(z, axis=-1, keepdims=True)
    ext, skip = _extended(label.astype(np.int64), labels_length, blank)
    if ext.size and (ext.min() < 0 or ext.max() >= classes):
        raise InvalidArgument("label", f"labels must lie in [0, {classes})")
    emit = np.take_along_axis(logp, np.broadcast_to(ext[None], (steps,) + ext.shape), axis=2)
    finals = 2 * labels_length.astype(np.int64)
    alpha = _alphas(emit, skip)
    beta = _betas(emit, skip, logits_length.astype(np.int64), finals)
    total = np.logaddexp.reduce(alpha[0] + beta[0] - emit[0], axis=-1)
    gamma = np.exp(alpha + beta - emit - total[None, :, None])
    gamma = np.where(np.isfinite(total)[None, :, None], gamma, 0.0)
    occupancy = np.zeros_like(logp)
    np.add.at(occupancy, (slice(None), np.arange(count)[:, None], ext), gamma)
    live = (np.arange(steps)[:, None] < logits_length[None, :])[..., None]
    grad = np.where(live & np.isfinite(total)[None, :, None], np.exp(logp) - occupancy, 0.0)
    return (-total).reshape(count, 1).astype(logits.dtype), grad.astype(logits.dtype)


def warpctc_grad(logits_length, warpctcgrad, loss_grad, blank, norm_by_times):
    """The stored logits gradient scaled by each sequence's loss gradient (and divided by
    its length when norm_by_times)."""
    scale = loss_grad.reshape(1, -1, 1)
    if norm_by_times:
        scale = scale / logits_length.reshape(1, -1, 1)
    return (warpctcgrad * scale).astype(warpctcgrad.dtype)
