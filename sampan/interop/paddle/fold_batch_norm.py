"""Inference-only rewrite of a PaddleGraph: each `batch_norm` in inference mode that reads
a convolution's output (and nothing else reads it) is folded into the convolution's filter
plus one bias add, as Paddle Inference's conv_bn_fuse pass does. The folded filter and bias
are new parameters; the original ones are left alone (another op may share them)."""
import numpy as np

from .graph import PaddleOp, TensorType

__all__ = ["fold_batch_norms"]

_CONVS = {"pd_op.conv2d", "pd_op.depthwise_conv2d"}
_NORMS = {"pd_op.batch_norm", "pd_op.batch_norm_"}


def _uses(block, counts):
    """Count every value id read in `block` and its nested blocks."""
    for op in block.ops:
        for vid in op.inputs:
            if vid is not None:
                counts[vid] = counts.get(vid, 0) + 1
        for sub in op.blocks:
            _uses(sub, counts)
    return counts


def _foldable(norm, conv, uses, param_of):
    """The parameter names (filter, mean, variance, scale, bias) when `norm` can fold
    into `conv`, else None."""
    if conv is None or conv.type not in _CONVS or uses.get(norm.inputs[0]) != 1:
        return None
    attrs = norm.attrs
    if not (attrs.get("is_test") or attrs.get("use_global_stats")):
        return None
    if attrs.get("data_format", "NCHW") != "NCHW" or conv.attrs.get("data_format",
                                                                       "NCHW") != "NCHW":
        return None
    if any(uses.get(vid, 0) for vid, _ in norm.outputs[1:]):
        return None
    names = [param_of.get(vid) for vid in [conv.inputs[1], *norm.inputs[1:5]]]
    return names if None not in names and len(names) == 5 else None


def fold_batch_norms(graph, params):
    """Fold in place; `params` ({name: array}) gains the folded filters and biases and
    loses parameters no op reads any more. Returns the number of folds."""
    block = graph.block
    param_of = {op.outputs[0][0]: op.attrs["name"] for op in block.ops
                if op.type == "builtin.parameter" and op.attrs.get("persistable", True)}
    producer = {vid: op for op in block.ops for vid, _ in op.outputs}
    uses = _uses(block, {})
    new_params, ops, folds = [], [], 0
    for op in block.ops:
        names = _foldable(op, producer.get(op.inputs[0]), uses, param_of) \
            if op.type in _NORMS else None
        if names is None:
            ops.append(op)
            continue
        conv = producer[op.inputs[0]]
        filt, mean, var, scale, bias = (params[n] for n in names)
        factor = scale.astype("float64") / np.sqrt(var.astype("float64")
                                                   + float(op.attrs.get("epsilon", 1e-5)))
        folds += 1
        filt_name, bias_name = f"{names[0]}@bn_fold{folds}", f"{names[4]}@bn_fold{folds}"
        params[filt_name] = (filt * factor.reshape(-1, 1, 1, 1)).astype(filt.dtype)
        params[bias_name] = (bias - mean * factor).astype(bias.dtype).reshape(1, -1, 1, 1)
        filt_id, bias_id = f"@{filt_name}", f"@{bias_name}"
        for name, vid in ((filt_name, filt_id), (bias_name, bias_id)):
            array = params[name]
            new_params.append(PaddleOp("builtin.parameter", [], [
                (vid, TensorType(array.dtype.name, array.shape))],
                {"name": name, "persistable": True}))
        conv.inputs = [conv.inputs[0], filt_id, *conv.inputs[2:]]
        ops.append(PaddleOp("pd_op.add", [op.inputs[0], bias_id], [op.outputs[0]], {}))
    if folds:
        block.ops = new_params + ops
        uses = _uses(block, {})
        block.ops = [op for op in block.ops if op.type != "builtin.parameter"
                     or uses.get(op.outputs[0][0], 0)
                     or not op.attrs.get("persistable", True)]
        kept = {op.attrs["name"] for op in block.ops if op.type == "builtin.parameter"}
        for name in [n for n in params if n not in kept]:
            del params[name]
    return folds
