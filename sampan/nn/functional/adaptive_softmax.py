"""Adaptive log-softmax (Grave et al., "Efficient softmax approximation for GPUs"): frequent
classes in a head softmax, the rest in clusters reached through one head entry each, whose
projections shrink by a factor per cluster."""
from ...core.dispatch import current_mode
from ...ops._generated import api

__all__ = ["adaptive_log_softmax_with_loss"]


def _check_labels(label, n_classes):
    """Eager labels outside [0, n_classes - 1] raise (no class can give them a probability)."""
    if current_mode().is_static:
        return
    values = label.numpy()
    if values.size and (values.min() < 0 or values.max() >= n_classes):
        raise ValueError(f"adaptive_log_softmax_with_loss: label values must be in [0, "
                         f"{n_classes - 1}], got values in [{values.min()}, {values.max()}]")


def cluster_log_probs(input, head_weight, tail_weights, head_bias=None):
    """(head log-probabilities [N, shortlist + clusters], [cluster log-probabilities
    [N, cluster size]]) of input [N, in_features]."""
    head = api.matmul(input, head_weight)
    if head_bias is not None:
        head = api.add(head, head_bias)
    tails = [api.log_softmax(api.matmul(api.matmul(input, project), out), -1)
             for project, out in tail_weights]
    return api.log_softmax(head, -1), tails


def adaptive_log_softmax_with_loss(input, label, head_weight, tail_weights, cutoffs,
                                   head_bias=None, name=None):
    """(output [N], loss []): the log-probability of each row's label and the mean negative
    of it. head_weight [in_features, shortlist + clusters] (shortlist = cutoffs[0]),
    tail_weights [[projection [in, hidden_i], output [hidden_i, size_i]], ...] for the
    clusters [cutoffs[i], cutoffs[i + 1]), cutoffs ending with n_classes. Every cluster is
    computed for every row and the label's entry selected, so the result and its gradient
    are those of the row-wise definition, in eager and static mode alike."""
    cutoffs = [int(c) for c in cutoffs]
    if len(input.shape) != 2 or len(label.shape) != 1 or input.shape[0] != label.shape[0] \
            and -1 not in (input.shape[0], label.shape[0]):
        raise ValueError(f"adaptive_log_softmax_with_loss: input must be [N, in_features] and "
                         f"label [N], got {list(input.shape)} and {list(label.shape)}")
    if len(tail_weights) != len(cutoffs) - 1:
        raise ValueError(f"adaptive_log_softmax_with_loss: {len(cutoffs) - 1} clusters need "
                         f"as many tail weight pairs, got {len(tail_weights)}")
    _check_labels(label, cutoffs[-1])
    head, tails = cluster_log_probs(input, head_weight, tail_weights, head_bias)
    shortlist = cutoffs[0]
    label = api.cast(label, "int64")
    # the head entry of each label: the label itself, or its cluster's entry
    cluster = api.full_like(label, 0)
    for low in cutoffs[:-1]:
        cluster = api.add(cluster, api.cast(api.greater_equal(label, api.full_like(label, low)),
                                            "int64"))
    entry = api.where(api.equal(cluster, api.full_like(label, 0)), label,
                      api.add(cluster, api.full_like(label, shortlist - 1)))
    output = api.squeeze(api.take_along_axis(head, api.unsqueeze(entry, [1]), 1), [1])
    for k, tail in enumerate(tails):
        low, high = cutoffs[k], cutoffs[k + 1]
        inside = api.equal(cluster, api.full_like(label, k + 1))
        local = api.clip(api.subtract(label, api.full_like(label, low)), 0, high - low - 1)
        picked = api.squeeze(api.take_along_axis(tail, api.unsqueeze(local, [1]), 1), [1])
        output = api.add(output, api.where(inside, picked, api.full_like(picked, 0.0)))
    return output, api.mean(api.scale(output, -1.0), [], False)


def full_log_probs(input, head_weight, tail_weights, cutoffs, head_bias=None):
    """The log-probabilities [N, n_classes] of every class."""
    head, tails = cluster_log_probs(input, head_weight, tail_weights, head_bias)
    shortlist = int(cutoffs[0])
    parts = [head[:, :shortlist]]
    for k, tail in enumerate(tails):
        parts.append(api.add(tail, head[:, shortlist + k:shortlist + k + 1]))
    return api.concat(parts, 1)
