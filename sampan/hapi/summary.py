"""`sampan.summary` and `sampan.flops`: run a network once with hooks on its leaf layers."""
import numpy as np

from ..core.dtype import to_dtype
from ..eager.grad_mode import no_grad
from ..eager.tensor import Tensor
from ..jit.program_translator import to_static_disabled

__all__ = ["summary", "flops"]


def _example_inputs(input_size, dtypes, inputs):
    """Zero tensors for `input_size` (None/-1 batch dims become 1), or the given inputs."""
    if inputs is not None:
        return list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    if input_size is None:
        raise ValueError("summary/flops need input_size or input")
    sizes = [input_size] if all(isinstance(d, (int, type(None))) for d in input_size) \
        else list(input_size)
    dtypes = dtypes if isinstance(dtypes, (list, tuple)) else [dtypes] * len(sizes)
    made = []
    for size, dt in zip(sizes, dtypes):
        shape = [1 if d is None or d < 0 else int(d) for d in size]
        made.append(Tensor(np.zeros(shape, to_dtype(dt or "float32").np)))
    return made


def _leaves(net):
    """Layers without sublayers, in registration order (the net itself if it has none)."""
    leaves = [layer for layer in net.sublayers() if not list(layer.children())]
    return leaves or [net]


def _numel(shape):
    return int(np.prod(shape)) if len(shape) else 1


def _trace(net, inputs):
    """[(layer, input shapes, output shapes)] for every leaf layer call, run eagerly (a
    to_static network too: its hooks then see real tensors on every call)."""
    records, handles = [], []
    for layer in _leaves(net):
        def hook(layer, ins, outs):
            outs_l = outs if isinstance(outs, (list, tuple)) else [outs]
            records.append((layer, [list(i.shape) for i in ins if isinstance(i, Tensor)],
                            [list(o.shape) for o in outs_l if isinstance(o, Tensor)]))
        handles.append(layer.register_forward_post_hook(hook))
    was_training = net.training
    net.eval()
    try:
        with no_grad(), to_static_disabled():
            net(*inputs)
    finally:
        for h in handles:
            h.remove()
        if was_training:
            net.train()
    return records


def summary(net, input_size=None, dtypes=None, input=None):  # noqa: A002
    """Print a table of each leaf layer's output shape and parameters; return the totals."""
    records = _trace(net, _example_inputs(input_size, dtypes, input))
    counts = {}
    rows = []
    for layer, _, outs in records:
        kind = type(layer).__name__
        counts[kind] = counts.get(kind, 0) + 1
        n_params = sum(_numel(p.shape) for p in layer.parameters(include_sublayers=False))
        rows.append((f"{kind}-{counts[kind]}", str(outs[0] if len(outs) == 1 else outs),
                     f"{n_params:,}"))
    total = sum(_numel(p.shape) for p in net.parameters())
    trainable = sum(_numel(p.shape) for p in net.parameters()
                    if not p.stop_gradient and getattr(p, "trainable", True))
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(("Layer (type)", "Output Shape", "Param #"))]
    line = "-" * (sum(widths) + 6)
    print(line)
    print("  ".join(h.center(w) for h, w in zip(("Layer (type)", "Output Shape", "Param #"),
                                                 widths)))
    print("=" * len(line))
    for r in rows:
        print("  ".join(c.center(w) for c, w in zip(r, widths)))
    print("=" * len(line))
    print(f"Total params: {total:,}\nTrainable params: {trainable:,}\n"
          f"Non-trainable params: {total - trainable:,}")
    print(line)
    return {"total_params": total, "trainable_params": trainable}


def _conv_flops(layer, ins, outs):
    weight = layer.weight
    kernel = _numel(weight.shape[1:])
    bias = 1 if getattr(layer, "bias", None) is not None else 0
    return _numel(outs[0]) * (kernel + bias)


def _linear_flops(layer, ins, outs):
    return _numel(outs[0]) * layer.weight.shape[0]


def _norm_flops(layer, ins, outs):
    return 2 * _numel(outs[0])


def _pool_flops(layer, ins, outs):
    return _numel(outs[0])


_RULES = {"Conv1D": _conv_flops, "Conv2D": _conv_flops, "Conv2DTranspose": _conv_flops,
          "Linear": _linear_flops, "BatchNorm": _norm_flops, "BatchNorm1D": _norm_flops,
          "BatchNorm2D": _norm_flops, "LayerNorm": _norm_flops, "GroupNorm": _norm_flops,
          "AvgPool2D": _pool_flops, "MaxPool2D": _pool_flops, "AdaptiveAvgPool2D": _pool_flops,
          "AdaptiveMaxPool2D": _pool_flops}


def flops(net, input_size, custom_ops=None, print_detail=False):
    """Multiply-accumulate count of one forward pass (Paddle's counting rules: conv and
    linear layers count kernel × outputs, norms 2 × outputs, pools outputs, activations 0)."""
    rules = dict(_RULES)
    rules.update({cls.__name__: fn for cls, fn in (custom_ops or {}).items()})
    total = 0
    for layer, ins, outs in _trace(net, _example_inputs(input_size, None, None)):
        rule = rules.get(type(layer).__name__)
        count = int(rule(layer, ins, outs)) if rule and outs else 0
        total += count
        if print_detail:
            print(f"{type(layer).__name__:>20}  {str(outs):>24}  {count:>12,}")
    if print_detail:
        print(f"Total Flops: {total:,}")
    return total
