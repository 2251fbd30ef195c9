"""Cases of the CTC loss op (kernels/nn_ctc.py), against a brute-force sum over every
alignment of tiny inputs (norm_by_times scales the gradient on purpose, so that case checks
values only; tests/api/test_api_gaps.py checks the scaling)."""
import itertools

import numpy as np

from tests.ops.case import OpCase, rand


def _collapse(path, blank):
    """The label sequence an alignment emits: repeats merged, then blanks dropped."""
    merged = [c for k, c in enumerate(path) if k == 0 or c != path[k - 1]]
    return [c for c in merged if c != blank]


def _brute_loss(logits, label, steps, length, blank):
    """-log of the summed probability of every alignment of `steps` frames emitting label."""
    z = logits[:steps]
    probs = np.exp(z - np.log(np.exp(z).sum(-1, keepdims=True)))
    target = list(label[:length])
    total = sum(np.prod(probs[np.arange(steps), path])
                for path in itertools.product(range(z.shape[-1]), repeat=steps)
                if _collapse(path, blank) == target)
    return -np.log(total)


def _ctc_ref(logits, label, logits_length, labels_length, blank=0, norm_by_times=False):
    """Brute-force losses [B, 1]."""
    return np.array([[_brute_loss(logits[:, b], label[b], logits_length[b], labels_length[b],
                                  blank)] for b in range(logits.shape[1])])


def _inputs(labels, steps, label_lengths, classes=4):
    """Random logits [max(steps), B, classes] and the int32 labels / int64 lengths."""
    return {"logits": rand(max(steps), len(labels), classes, low=-2, high=2),
            "label": np.array(labels, np.int32), "logits_length": np.array(steps, np.int64),
            "labels_length": np.array(label_lengths, np.int64)}


CASES = [
    OpCase("warpctc", _inputs([[1, 1, 2], [2, 3, 1], [3, 0, 0]], [5, 4, 3], [2, 3, 0]),
           ref=_ctc_ref, rtol=1e-9),
    OpCase("warpctc", _inputs([[0, 1], [3, 3]], [4, 4], [2, 1]), {"blank": 2},
           ref=_ctc_ref, rtol=1e-9, name="blank2"),
    OpCase("warpctc", _inputs([[1, 2], [2, 2]], [3, 4], [2, 2]),
           {"norm_by_times": True}, ref=_ctc_ref, rtol=1e-9, grad=(), name="norm_by_times"),
]
