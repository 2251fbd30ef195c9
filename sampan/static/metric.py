"""`paddle.static.accuracy` and `paddle.static.auc`: metric layers built into a Program.

accuracy is composed of registry ops (it runs eagerly too); auc keeps its statistics in
persistable variables across `Executor.run` calls, so it is one stateful op type, `auc`,
run by an exec rule over NumPy.
"""
import functools

import numpy as np

from ..core import dtype as dtypes
from ..core.unique_name import generate
from ..ops._generated import api
from .control_flow.rules import Bound, in_dynamic_mode, register
from .data import create_global_var
from .mode import user_origin
from .program_state import default_main_program

__all__ = ["accuracy", "auc"]


def _check_accuracy_args(input, label, k):
    """ValueError / TypeError naming the argument accuracy() cannot use."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"accuracy(): argument 'k' must be a positive int, got {k!r}")
    shape = list(input.shape)
    if len(shape) != 2:
        raise ValueError(f"accuracy(): argument 'input' must be 2-D [batch, classes], got "
                         f"shape {shape}")
    if shape[1] >= 0 and k > shape[1]:
        raise ValueError(f"accuracy(): argument 'k' ({k}) exceeds the {shape[1]} classes of "
                         f"'input'")
    lshape = list(label.shape)
    if not (len(lshape) == 1 or (len(lshape) == 2 and lshape[1] in (1, -1))):
        raise ValueError(f"accuracy(): argument 'label' must have shape [batch, 1] or "
                         f"[batch], got {lshape}")
    if label.dtype.is_floating:
        raise TypeError(f"accuracy(): argument 'label' must hold integer class ids, got "
                        f"{label.dtype.name}")


def _store(target, value, what):
    """Write `value` (cast to target's dtype) into the caller's `correct` / `total`."""
    if target is None:
        return
    if not hasattr(target, "_take_over"):
        raise TypeError(f"accuracy(): argument '{what}' must be a Tensor or None, got "
                        f"{type(target).__name__}")
    target._take_over(api.cast(value, target.dtype))


def accuracy(input, label, k=1, correct=None, total=None):  # noqa: A002
    """Fraction of rows whose label is among the `k` largest scores (float32, 0-d).

    `correct` and `total`, when given, receive the number of hits and of rows (as
    Paddle's accuracy op writes them). Works in static and dynamic mode.
    """
    _check_accuracy_args(input, label, k)
    _, indices = api.topk(input, int(k), -1, True, False)
    if len(label.shape) == 1:
        label = api.unsqueeze(label, [-1])
    hits = api.cast(api.equal(indices, api.cast(label, indices.dtype)), "float32")
    row_hits = api.max(hits, [-1], False)
    _store(correct, api.sum(row_hits), "correct")
    _store(total, api.sum(api.full_like(row_hits, 1.0)), "total")
    return api.mean(row_hits)


def _auc_area(pos, neg):
    """Area under the ROC curve from per-bucket counts (0.0 until both classes are seen)."""
    tot_pos = np.concatenate([[0.0], np.cumsum(pos[::-1], dtype=np.float64)])
    tot_neg = np.concatenate([[0.0], np.cumsum(neg[::-1], dtype=np.float64)])
    if tot_pos[-1] <= 0 or tot_neg[-1] <= 0:
        return 0.0
    area = np.sum((tot_neg[1:] - tot_neg[:-1]) * (tot_pos[1:] + tot_pos[:-1]) / 2.0)
    return float(area / tot_pos[-1] / tot_neg[-1])


def _batch_counts(predict, label, weight, num_thresholds):
    """(positive, negative) counts per threshold bucket of one batch; rows whose tag
    weight is 0 (fake data) are left out."""
    scores = np.asarray(predict).reshape(len(predict), -1)[:, -1]
    if np.any((scores < 0) | (scores > 1)):
        raise ValueError("auc(): argument 'input' must hold probabilities in [0, 1]")
    buckets = (scores * num_thresholds).astype(np.int64)
    keep = np.ones(len(scores), bool)
    if weight is not None and np.asarray(weight).size == len(scores):
        keep = np.asarray(weight).reshape(-1) != 0
    positive = np.asarray(label).reshape(-1).astype(bool)
    pos = np.bincount(buckets[keep & positive], minlength=num_thresholds + 1)
    neg = np.bincount(buckets[keep & ~positive], minlength=num_thresholds + 1)
    return pos, neg


def _slide(stat, new, slide_steps, width):
    """Stats laid out as `slide_steps` history rows, their sum, and a batch counter:
    replace the oldest row with `new`; returns (updated stats, window sum)."""
    stat = stat.copy()
    rows = stat[:-1].reshape(slide_steps + 1, width)
    step = int(stat[-1])
    slot = step % slide_steps
    rows[slide_steps] += new - rows[slot]
    rows[slot] = new
    stat[-1] = step + 1
    return stat, rows[slide_steps]


def _auc_step(predict, label, stat_pos, stat_neg, weight, num_thresholds, slide_steps):
    """One run of the `auc` op: (AUC, StatPosOut, StatNegOut)."""
    pos, neg = _batch_counts(predict, label, weight, num_thresholds)
    width = num_thresholds + 1
    if slide_steps == 0:
        new_pos, new_neg = stat_pos + pos.reshape(stat_pos.shape), stat_neg + neg.reshape(
            stat_neg.shape)
        window_pos, window_neg = new_pos.reshape(-1), new_neg.reshape(-1)
    else:
        new_pos, window_pos = _slide(stat_pos, pos, slide_steps, width)
        new_neg, window_neg = _slide(stat_neg, neg, slide_steps, width)
    return np.array(_auc_area(window_pos, window_neg)), new_pos, new_neg


def _auc_rule(node, ctx):
    """Executor rule of `auc`: NumPy over the predictions, labels and statistics."""
    fn = functools.partial(_auc_step, num_thresholds=node.attrs["num_thresholds"],
                           slide_steps=node.attrs["slide_steps"])
    ins = [node.inputs[s][0] for s in ("Predict", "Label", "StatPos", "StatNeg")]
    weight = node.inputs.get("InsTagWeight", [])
    outs = [(node.outputs.get(s) or [None])[0] for s in ("AUC", "StatPosOut", "StatNegOut")]
    if weight:
        return Bound(fn, ins + weight, outs, False)
    return Bound(lambda *values: fn(*values, None), ins, outs, False)


register("auc", _auc_rule)


def _check_auc_args(input, label, curve, num_thresholds, slide_steps):
    """ValueError / TypeError naming the argument auc() cannot use."""
    if curve != "ROC":
        raise ValueError(f"auc(): argument 'curve' must be 'ROC' (the only curve the auc "
                         f"op computes), got {curve!r}")
    for name, value, low in (("num_thresholds", num_thresholds, 1),
                             ("slide_steps", slide_steps, 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"auc(): argument '{name}' must be an int >= {low}, got "
                             f"{value!r}")
    if not input.dtype.is_floating:
        raise TypeError(f"auc(): argument 'input' must be float32 or float64, got "
                        f"{input.dtype.name}")
    if label.dtype.is_floating:
        raise TypeError(f"auc(): argument 'label' must be int32 or int64, got "
                        f"{label.dtype.name}")


def _auc_op(input, label, weight, stats, slide_steps, num_thresholds):
    """Append one `auc` op updating the persistable `stats` pair; returns its AUC output."""
    block = default_main_program().current_block()
    out = block.create_var(generate("auc"), (), dtypes.to_dtype("float64"))
    inputs = {"Predict": [input.name], "Label": [label.name],
              "StatPos": [stats[0].name], "StatNeg": [stats[1].name]}
    if weight is not None:
        inputs["InsTagWeight"] = [weight.name]
    block.append_op("auc", inputs, {"AUC": [out.name], "StatPosOut": [stats[0].name],
                                    "StatNegOut": [stats[1].name]},
                    {"curve": "ROC", "num_thresholds": int(num_thresholds),
                     "slide_steps": int(slide_steps)}, user_origin())
    return out


def auc(input, label, curve="ROC", num_thresholds=2**12 - 1, topk=1, slide_steps=1,
        ins_tag_weight=None):  # noqa: A002
    """Area under the ROC curve, accumulated over every run of the Program.

    Returns (auc over all batches so far, auc over the last `slide_steps` batches (all
    batches when 0), [batch_stat_pos, batch_stat_neg, stat_pos, stat_neg]); the four
    statistics are persistable int64 variables, zeroed by the startup program. The
    positive-class score is the last column of `input`; rows whose `ins_tag_weight` is
    0 are skipped.
    """
    if in_dynamic_mode():
        raise RuntimeError("auc() builds a static-graph metric; in dynamic mode use "
                           "paddle.metric.Auc")
    _check_auc_args(input, label, curve, num_thresholds, slide_steps)
    width = num_thresholds + 1
    batch_shape = [(1 + slide_steps) * width + 1] if slide_steps else [1, width]
    batch_stats = [create_global_var(batch_shape, 0, "int64", persistable=True,
                                     name=generate("auc_batch_stat")) for _ in range(2)]
    stats = [create_global_var([1, width], 0, "int64", persistable=True,
                               name=generate("auc_stat")) for _ in range(2)]
    batch_auc = _auc_op(input, label, ins_tag_weight, batch_stats, slide_steps,
                        num_thresholds)
    global_auc = _auc_op(input, label, ins_tag_weight, stats, 0, num_thresholds)
    return global_auc, batch_auc, batch_stats + stats
