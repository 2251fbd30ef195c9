"""Loss functions with Paddle's signatures, composed from registry ops."""
import math

from ...core.dispatch import current_mode
from ...ops._generated import api
from ...tensor.creation import to_tensor
from .distance import pairwise_distance

__all__ = ["cross_entropy", "softmax_with_cross_entropy", "nll_loss", "mse_loss", "l1_loss",
           "smooth_l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "kl_div", "cosine_embedding_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss", "multi_label_margin_loss",
           "multi_label_soft_margin_loss", "poisson_nll_loss", "gaussian_nll_loss",
           "multi_margin_loss", "dice_loss", "npair_loss", "ctc_loss", "hsigmoid_loss"]


def _reduce(loss, reduction):
    """Apply 'mean', 'sum' or 'none'."""
    if reduction == "mean":
        return api.mean(loss)
    if reduction == "sum":
        return api.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


def _class_last(x, axis):
    """Move `axis` of x to the end (identity when it already is)."""
    ndim = len(x.shape)
    axis %= ndim
    if axis == ndim - 1:
        return x
    return api.transpose(x, [a for a in range(ndim) if a != axis] + [axis])


def _guarded_mean(loss, weights):
    """sum(loss) / sum(weights), or sum(loss) when the weights sum to 0 (as Paddle does, so a
    batch whose labels are all ignored gives 0, not NaN)."""
    total = api.sum(weights)
    return api.divide(api.sum(loss), api.add(total, api.cast(api.equal(
        total, api.full_like(total, 0)), total.dtype)))


def _hard_label_loss(logp, label, weight, ignore_index, reduction, axis, smoothing=0.0,
                     mean_over_all=False):
    """Negative log-likelihood of integer labels; logp has classes on `axis`. With
    smoothing the one-hot target is smoothed and a class weight applies through it, as in
    Paddle. 'mean' divides by the kept samples' weights (their count without a weight), or
    by every sample when `mean_over_all` (cross_entropy with a negative ignore_index).

    Unreduced losses keep a size-1 class axis when the label has one, or when smoothing
    (Paddle smooths a one-hot copy of the labels, which keeps it).
    """
    axis %= len(logp.shape)
    logp = _class_last(logp, axis)
    classes = logp.shape[-1]
    _check_class_weight(weight, classes)
    keep_axis = len(label.shape) == len(logp.shape)
    if keep_axis:
        label = api.squeeze(label, [axis])
    valid = api.not_equal(label, api.full_like(label, ignore_index))
    safe = api.where(valid, label, api.full_like(label, 0))
    hot = api.one_hot(safe, classes)
    target = api.scale(hot, 1.0 - smoothing, smoothing / classes) if smoothing else hot
    loss = api.neg(api.sum(api.multiply(target, logp), [-1]))
    scale = api.cast(valid, logp.dtype)
    if weight is not None:  # each sample's class weight, for labels of any rank
        scale = api.multiply(scale, api.sum(api.multiply(target, weight), [-1]))
    loss = api.multiply(loss, scale)
    if reduction == "mean":
        return api.mean(loss) if mean_over_all and weight is None else \
            _guarded_mean(loss, scale)
    if reduction == "none" and (keep_axis or smoothing):
        return api.unsqueeze(loss, [axis])
    return _reduce(loss, reduction)


def _check_class_weight(weight, classes):
    """A class weight needs one entry per class."""
    if weight is not None and weight.shape[-1] not in (-1, classes):
        raise ValueError(f"argument 'weight' has {weight.shape[-1]} entries but the input "
                         f"has {classes} classes (one weight per class)")


def _fused_hard_label_loss(logits, label, ignore_index, reduction, axis):
    """The common case (softmax, integer labels, no weight or smoothing) as one fused op."""
    loss = api.cross_entropy_with_softmax(logits, label, False, True, True, ignore_index,
                                          axis)[1]
    if reduction == "none":
        keep_axis = len(label.shape) == len(logits.shape)
        return loss if keep_axis else api.squeeze(loss, [axis])
    if reduction == "sum":
        return api.sum(loss)
    if ignore_index < 0:  # Paddle: the mean over every sample, ignored ones counting 0
        return api.mean(loss)
    return _guarded_mean(loss, api.cast(api.not_equal(label, ignore_index), loss.dtype))


def _soft_label_loss(logp, label, weight, reduction, axis):
    """Cross entropy of probability labels; a class weight scales each sample by
    label · weight, and 'mean' then divides by the sum of those scales (Paddle)."""
    loss = api.neg(api.sum(api.multiply(label, logp), [axis], None, True))
    if weight is None:
        return _reduce(loss, reduction)
    _check_class_weight(weight, logp.shape[axis])
    shape = [1] * len(label.shape)
    shape[axis] = -1
    scale = api.sum(api.multiply(label, api.reshape(weight, shape)), [axis], None, True)
    loss = api.multiply(loss, scale)
    return _guarded_mean(loss, scale) if reduction == "mean" else _reduce(loss, reduction)


def _smoothed_probabilities(input, label, soft_label, axis, label_smoothing):  # noqa: A002
    """Probability labels (soft, or one-hot rows of the input's shape) mixed with the
    uniform distribution by label_smoothing, as Paddle smooths them; None for hard labels."""
    per_class = len(label.shape) == len(input.shape) and label.shape[axis] not in (-1, 1)
    if not label_smoothing or not per_class:
        return None
    classes = input.shape[axis]
    return api.scale(api.cast(label, input.dtype), 1.0 - label_smoothing,
                     label_smoothing / classes)


def _check_label_rank(input, label, soft_label, axis):  # noqa: A002 - Paddle's name
    """The label's rank must equal the input's, or be one less for hard labels."""
    rank, label_rank = len(input.shape), len(label.shape)
    if label_rank == rank - 1 and not soft_label:
        return
    if label_rank != rank:
        raise ValueError(f"cross_entropy: label must have the input's rank {rank}"
                         f"{'' if soft_label else ' or one less'}, got shape "
                         f"{list(label.shape)} for input {list(input.shape)}")
    if not soft_label and label.shape[axis] not in (-1, 1):
        raise ValueError(f"cross_entropy: hard labels of the input's rank need size 1 on "
                         f"axis {axis}, got shape {list(label.shape)}")


def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
                  soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    """Softmax (optional) + cross entropy with hard or soft labels. As in Paddle, 'mean'
    with hard labels and no weight divides by the samples whose label is not ignore_index
    when ignore_index >= 0, and by every sample otherwise (ignored ones adding 0).
    With label_smoothing, probability labels (soft, or one-hot of the input's shape) are
    mixed with the uniform distribution, as Paddle does."""
    _check_reduction(reduction)
    smoothed = _smoothed_probabilities(input, label, soft_label, axis, label_smoothing)
    if smoothed is not None:
        label, soft_label = smoothed, True
    elif label_smoothing:  # integer labels, one-hot and smoothed by the hard-label loss
        soft_label = False
    _check_label_rank(input, label, soft_label, axis)
    if use_softmax and not soft_label and weight is None and not label_smoothing:
        return _fused_hard_label_loss(input, label, ignore_index, reduction, axis)
    logp = api.log_softmax(input, axis) if use_softmax else api.log(input)
    if soft_label:
        return _soft_label_loss(logp, label, weight, reduction, axis)
    return _hard_label_loss(logp, label, weight, ignore_index, reduction, axis,
                            label_smoothing, mean_over_all=ignore_index < 0)


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """Unreduced cross entropy keeping the class axis as size 1 (Paddle's legacy API)."""
    loss = cross_entropy(logits, label, None, ignore_index, "none", soft_label, axis)
    if len(loss.shape) < len(logits.shape):
        loss = api.unsqueeze(loss, [axis])
    return (loss, api.softmax(logits, axis)) if return_softmax else loss


def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
             name=None):
    """Negative log-likelihood of log-probabilities [N, C, ...] at integer labels [N, ...]."""
    return _hard_label_loss(input, label, weight, ignore_index, reduction, 1)


def mse_loss(input, label, reduction="mean", name=None):  # noqa: A002
    """(input − label)²."""
    return _reduce(api.square(api.subtract(input, label)), reduction)


def l1_loss(input, label, reduction="mean", name=None):  # noqa: A002
    """|input − label|."""
    return _reduce(api.abs(api.subtract(input, label)), reduction)


def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True,  # noqa: A002
                   name=None):
    """Huber: 0.5·d² where |d| < delta, delta·(|d| − 0.5·delta) elsewhere; with
    is_huber=False the smooth L1 loss, which is that divided by delta."""
    diff = api.abs(api.subtract(input, label))
    quad = api.scale(api.square(diff), 0.5)
    lin = api.scale(diff, delta, -0.5 * delta * delta)
    huber = api.where(api.less_than(diff, api.full_like(diff, delta)), quad, lin)
    return _reduce(huber if is_huber else api.scale(huber, 1.0 / delta), reduction)


def _weighted(loss, weight):
    return loss if weight is None else api.multiply(loss, weight)


def _check_probabilities(input):  # noqa: A002 - Paddle's name
    """Paddle's kernel refuses inputs outside [0, 1] (their logs would be NaN); checked on
    eager tensors."""
    if current_mode().is_static:
        return
    values = input.numpy()
    outside = (values < 0) | (values > 1) | (values != values)
    if outside.any():
        raise ValueError(f"binary_cross_entropy: input must hold probabilities in [0, 1], got "
                         f"{values[outside].ravel()[0]}")


def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):  # noqa: A002
    """−(y·log p + (1 − y)·log(1 − p)), logs clipped at −100 like Paddle."""
    _check_reduction(reduction)
    _check_probabilities(input)
    log_p = api.clip(api.log(input), -100.0)
    log_q = api.clip(api.log(api.scale(input, -1.0, 1.0)), -100.0)
    loss = api.neg(api.add(api.multiply(label, log_p),
                           api.multiply(api.scale(label, -1.0, 1.0), log_q)))
    return _reduce(_weighted(loss, weight), reduction)


def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean",
                                     pos_weight=None, name=None):
    """Sigmoid + binary cross entropy, computed stably from logits."""
    softplus_neg = api.add(api.log1p(api.exp(api.neg(api.abs(logit)))), api.relu(api.neg(logit)))
    if pos_weight is not None:
        log_weight = api.scale(api.multiply(label, api.scale(pos_weight, 1.0, -1.0)), 1.0, 1.0)
        softplus_neg = api.multiply(log_weight, softplus_neg)
    loss = api.add(api.multiply(api.scale(label, -1.0, 1.0), logit), softplus_neg)
    return _reduce(_weighted(loss, weight), reduction)


def kl_div(input, label, reduction="mean", log_target=False, name=None):  # noqa: A002
    """label·(log label − input) with input as log-probabilities, 0 where label <= 0 (as
    Paddle's kernel); with log_target the label is a log-probability too:
    exp(label)·(label − input)."""
    if log_target:
        loss = api.multiply(api.exp(label), api.subtract(label, input))
    else:
        positive = api.greater_than(label, api.full_like(label, 0))
        safe = api.where(positive, label, api.full_like(label, 1))
        loss = api.where(positive, api.multiply(label, api.subtract(api.log(safe), input)),
                         api.full_like(input, 0))
    if reduction == "batchmean":
        return api.scale(api.sum(loss), 1.0 / input.shape[0])
    return _reduce(loss, reduction)


def _check_reduction(reduction):
    """Refuse an unknown reduction before any work (Paddle raises ValueError)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    """1 - cos(input1, input2) where label is 1, max(0, cos - margin) where it is -1;
    the cosine is taken along the last axis ([N, M] or [M] inputs)."""
    _check_reduction(reduction)
    dot = api.sum(api.multiply(input1, input2), [-1])
    norms = api.multiply(api.scale(api.sum(api.square(input1), [-1]), 1.0, 1e-11),
                         api.scale(api.sum(api.square(input2), [-1]), 1.0, 1e-11))
    cos = api.divide(dot, api.sqrt(norms))
    pos = api.scale(cos, -1.0, 1.0)
    neg = api.relu(api.scale(cos, 1.0, -float(margin)))
    zero = api.full_like(cos, 0)
    label = api.cast(label, cos.dtype)
    loss = api.add(api.where(api.equal(label, api.full_like(label, 1)), pos, zero),
                   api.where(api.equal(label, api.full_like(label, -1)), neg, zero))
    return _reduce(loss, reduction)


def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-6,  # noqa: A002
                        swap=False, reduction="mean", name=None):
    """max(0, d(input, positive) - d(input, negative) + margin) with pairwise p-norm
    distances d (the negative distance is min(d(a, n), d(p, n)) when `swap`)."""
    _check_reduction(reduction)
    pos = pairwise_distance(input, positive, p, epsilon)
    neg = pairwise_distance(input, negative, p, epsilon)
    if swap:
        neg = api.minimum(neg, pairwise_distance(positive, negative, p, epsilon))
    return _reduce(api.relu(api.scale(api.subtract(pos, neg), 1.0, float(margin))), reduction)


def triplet_margin_with_distance_loss(input, positive, negative,  # noqa: A002
                                      distance_function=None, margin=1.0, swap=False,
                                      reduction="mean", name=None):
    """max(0, d(input, positive) - d(input, negative) + margin) for any distance function d
    (default: the pairwise L2 distance); with `swap` the negative distance is
    min(d(input, negative), d(positive, negative))."""
    _check_reduction(reduction)
    distance = distance_function or pairwise_distance
    pos, neg = distance(input, positive), distance(input, negative)
    if swap:
        neg = api.minimum(neg, distance(positive, negative))
    return _reduce(api.relu(api.scale(api.subtract(pos, neg), 1.0, float(margin))), reduction)


def multi_label_margin_loss(input, label, reduction="mean", name=None):  # noqa: A002
    """Multi-label hinge loss of [N, C] scores: label [N, C] lists each sample's target
    classes up to its first -1; the loss is the sum, over those targets j and the non-target
    classes k, of max(0, 1 - (input[j] - input[k])), divided by C."""
    _check_reduction(reduction)
    if len(input.shape) != 2 or list(label.shape) != list(input.shape):
        raise ValueError(f"multi_label_margin_loss: input and label must both be [N, C], got "
                         f"{list(input.shape)} and {list(label.shape)}")
    classes = input.shape[1]
    listed = api.equal(api.cumsum(api.cast(api.equal(label, api.full_like(label, -1)),
                                           "int64"), 1), api.full_like(label, 0, "int64"))
    safe = api.where(listed, label, api.full_like(label, 0))
    weight = api.cast(listed, input.dtype)
    is_target = api.sum(api.multiply(api.one_hot(safe, classes), api.unsqueeze(weight, [2])),
                        [1])
    others = api.cast(api.equal(is_target, api.full_like(is_target, 0)), input.dtype)
    picked = api.take_along_axis(input, api.cast(safe, "int64"), 1)
    hinge = api.relu(api.scale(api.subtract(api.unsqueeze(input, [1]),
                                            api.unsqueeze(picked, [2])), 1.0, 1.0))
    mask = api.multiply(api.unsqueeze(weight, [2]), api.unsqueeze(others, [1]))
    loss = api.scale(api.sum(api.multiply(hinge, mask), [1, 2]), 1.0 / classes)
    return _reduce(loss, reduction)


def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean",  # noqa: A002
                                 name=None):
    """Mean over classes of -(y·log σ(x) + (1 - y)·log σ(-x)), optionally weighted."""
    _check_reduction(reduction)
    loss = api.neg(api.add(api.multiply(label, api.logsigmoid(input)),
                           api.multiply(api.scale(label, -1.0, 1.0),
                                        api.logsigmoid(api.neg(input)))))
    return _reduce(api.mean(_weighted(loss, weight), [-1]), reduction)


def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-8,  # noqa: A002
                     reduction="mean", name=None):
    """Poisson negative log-likelihood: exp(x) - y·x (log_input) or x - y·log(x + eps),
    plus Stirling's term y·log y - y + ½·log(2πy) where y > 1 when `full`."""
    _check_reduction(reduction)
    if epsilon <= 0:
        raise ValueError(f"poisson_nll_loss: epsilon must be positive, got {epsilon}")
    if log_input:
        loss = api.subtract(api.exp(input), api.multiply(label, input))
    else:
        loss = api.subtract(input, api.multiply(label, api.log(api.scale(input, 1.0, epsilon))))
    if full:
        big = api.greater_than(label, api.full_like(label, 1))
        y = api.where(big, label, api.full_like(label, 1))
        stirling = api.add(api.subtract(api.multiply(y, api.log(y)), y),
                           api.scale(api.log(api.scale(y, 2 * math.pi)), 0.5))
        loss = api.add(loss, api.where(big, stirling, api.full_like(stirling, 0)))
    return _reduce(loss, reduction)


def _variance_like(input, variance):  # noqa: A002 - Paddle's name
    """variance made broadcastable to input: the same shape, a last dim of 1, or one dim
    fewer (homoscedastic per sample), as Paddle accepts."""
    want, got = list(input.shape), list(variance.shape)
    if got == want or (got[:-1] == want[:-1] and got[-1:] == [1]):
        return variance
    if got == want[:-1]:
        return api.unsqueeze(variance, [-1])
    raise ValueError(f"gaussian_nll_loss: variance shape {got} must equal input shape {want}, "
                     f"have a last dim of 1, or lack input's last dim")


def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-6,  # noqa: A002
                      reduction="mean", name=None):
    """0.5·(log(max(var, eps)) + (input − label)² / max(var, eps)) (+ 0.5·log(2π) when
    `full`): the negative log-likelihood of label under N(input, variance)."""
    _check_reduction(reduction)
    variance = _variance_like(input, variance)
    if not current_mode().is_static and (variance.numpy() < 0).any():
        raise ValueError("gaussian_nll_loss: variance has negative entries")
    var = api.clip(variance, float(epsilon), None)
    loss = api.scale(api.add(api.log(var), api.divide(api.square(api.subtract(input, label)),
                                                       var)), 0.5)
    if full:
        loss = api.scale(loss, 1.0, 0.5 * math.log(2 * math.pi))
    return _reduce(loss, reduction)


def multi_margin_loss(input, label, p=1, margin=1.0, weight=None,  # noqa: A002
                      reduction="mean", name=None):
    """Multi-class hinge loss of [N, C] scores: for each sample the sum over j != label of
    max(0, w[label]·(margin − x[label] + x[j]))^p, divided by C."""
    _check_reduction(reduction)
    if p not in (1, 2):
        raise ValueError(f"multi_margin_loss: p must be 1 or 2, got {p}")
    classes = input.shape[-1]
    target = api.one_hot(api.reshape(label, [-1]), classes)
    picked = api.sum(api.multiply(input, api.cast(target, input.dtype)), [1], None, True)
    gaps = api.scale(api.subtract(input, picked), 1.0, float(margin))
    if weight is not None:
        gaps = api.multiply(gaps, api.reshape(api.gather(weight, api.reshape(label, [-1])),
                                              [-1, 1]))
    hinge = api.relu(gaps)
    hinge = api.square(hinge) if p == 2 else hinge
    others = api.where(api.cast(target, "bool"), api.full_like(hinge, 0), hinge)
    return _reduce(api.scale(api.sum(others, [1]), 1.0 / classes), reduction)


def dice_loss(input, label, epsilon=0.00001, name=None):  # noqa: A002 - Paddle's name
    """Mean over the batch of 1 − 2·|X∩Y| / (|X| + |Y| + eps), with input [N, ..., C]
    probabilities and integer label [N, ..., 1] one-hot encoded over C."""
    if len(input.shape) < 2 or len(label.shape) != len(input.shape) or label.shape[-1] != 1:
        raise ValueError(f"dice_loss: need input [N, ..., C] and label [N, ..., 1] of the "
                         f"same rank, got {input.shape} and {label.shape}")
    target = api.cast(api.one_hot(api.squeeze(label, [-1]), input.shape[-1]), input.dtype)
    axes = list(range(1, len(input.shape)))
    overlap = api.sum(api.multiply(input, target), axes)
    total = api.add(api.sum(input, axes), api.sum(target, axes))
    score = api.divide(api.scale(overlap, 2.0), api.scale(total, 1.0, float(epsilon)))
    return api.mean(api.scale(score, -1.0, 1.0))


def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """N-pair loss: soft-label cross entropy of the anchor·positive similarity rows against
    the same-label matrix (rows normalised), plus 0.25·l2_reg·(mean ||anchor||² +
    mean ||positive||²)."""
    batch = labels.shape[0]
    column = api.reshape(labels, [batch, 1])
    same = api.cast(api.equal(column, api.reshape(labels, [1, batch])), anchor.dtype)
    targets = api.divide(same, api.sum(same, [1], None, True))
    l2 = api.add(api.mean(api.sum(api.square(anchor), [1])),
                 api.mean(api.sum(api.square(positive), [1])))
    logits = api.matmul(anchor, positive, False, True)
    row_ce = api.neg(api.sum(api.multiply(targets, api.log_softmax(logits, 1)), [1], None, True))
    cross = api.sum(api.multiply(targets, row_ce), [0])
    return api.add(api.scale(l2, 0.25 * float(l2_reg)), api.mean(cross))


def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
             norm_by_times=False, zero_infinity=False):
    """Connectionist temporal classification loss of unnormalised logits log_probs
    [max_logit_length, batch, num_classes + 1] (softmax is applied inside, as Paddle's
    warp-ctc does) against padded int labels [batch, max_label_length], with int64 lengths
    [batch] of each. 'mean' averages loss / label_length over the batch; norm_by_times
    divides each sequence's gradient (not its loss) by its input length; zero_infinity turns
    infinite losses (unreachable labels) into 0 before the reduction.

    Example: ``F.ctc_loss(logits, labels, input_lengths, label_lengths, blank=0)``
    """
    _check_reduction(reduction)
    loss = api.squeeze(api.warpctc(log_probs, labels, input_lengths, label_lengths, blank,
                                   norm_by_times), [-1])
    if zero_infinity:
        loss = api.where(api.isinf(loss), api.full_like(loss, 0.0), loss)
    if reduction == "mean":
        return api.mean(api.divide(loss, api.cast(label_lengths, loss.dtype)))
    return _reduce(loss, reduction)


def _default_tree_paths(label, num_classes):
    """(path_table, path_code) [N, L] of Paddle's default complete binary tree: with
    c = label + num_classes, node j of the path is (c >> (j + 1)) - 1 (-1 past the root)
    and its branch bit is (c >> j) & 1; L = bit length of num_classes - 1."""
    length = (num_classes - 1).bit_length()
    code = api.scale(api.reshape(api.cast(label, "int64"), [-1, 1]), 1.0, float(num_classes))
    powers = to_tensor([2 ** j for j in range(length + 1)], "int64")
    shifted = api.floor_divide(code, powers)
    table = api.scale(shifted[:, 1:], 1.0, -1.0)
    return table, api.remainder(shifted[:, :length], api.full([length], 2, "int64"))


def _check_leaf_labels(label, num_classes):
    """Eagerly refuse labels outside [0, num_classes): their default-tree paths leave the
    weight's rows (Paddle then reads past them and returns an arbitrary loss)."""
    if current_mode().is_static:
        return
    values = label.numpy()
    bad = values[(values < 0) | (values >= num_classes)]
    if bad.size:
        raise ValueError(f"hsigmoid_loss: labels must lie in [0, num_classes = {num_classes})"
                         f" with the default tree, got {bad.ravel()[:5].tolist()}")


def hsigmoid_loss(input, label, num_classes, weight, bias=None, path_table=None,  # noqa: A002
                  path_code=None, is_sparse=False, name=None):
    """Hierarchical sigmoid loss [N, 1]: the sum of the binary cross-entropies of the
    branch decisions (path_code bits) along each label's path of tree nodes (path_table
    rows of weight [nodes, D] and bias [nodes, 1], -1 past the root), by default Paddle's
    complete binary tree over num_classes leaves. As in Paddle, node scores are clipped to
    [-40, 40] and every unused path slot adds log 2 to the loss.

    Example: ``F.hsigmoid_loss(x, label, 6, weight)`` with weight [5, D].
    """
    if (path_table is None) != (path_code is None):
        raise ValueError("hsigmoid_loss: give both path_table and path_code, or neither")
    if path_table is None:
        if num_classes < 2:
            raise ValueError(f"hsigmoid_loss: num_classes must be at least 2 with the "
                             f"default tree, got {num_classes}")
        _check_leaf_labels(label, num_classes)
        path_table, path_code = _default_tree_paths(label, num_classes)
    length = path_table.shape[-1]
    valid = api.greater_equal(path_table, api.full_like(path_table, 0))
    nodes = api.reshape(api.where(valid, path_table, api.full_like(path_table, 0)), [-1])
    rows = api.reshape(api.gather(weight, nodes), [-1, length, weight.shape[-1]])
    score = api.sum(api.multiply(api.unsqueeze(input, [1]), rows), [-1])
    if bias is not None:
        score = api.add(score, api.reshape(api.gather(api.reshape(bias, [-1]), nodes),
                                           [-1, length]))
    score = api.where(valid, api.clip(score, -40.0, 40.0), api.full_like(score, 0))
    bits = api.cast(api.logical_and(valid, api.not_equal(
        path_code, api.full_like(path_code, 0))), score.dtype)
    loss = api.subtract(api.softplus(score, 1.0, 40.0), api.multiply(bits, score))
    return api.sum(loss, [1], keepdim=True)
