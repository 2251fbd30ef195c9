"""`sampan.summary` and `sampan.flops`: run a network once with hooks on its leaf layers."""
import numpy as np

from ..core.dtype import to_dtype
from ..eager.grad_mode import no_grad
from ..eager.tensor import Tensor
from ..jit.program_translator import to_static_disabled

__all__ = ["summary", "flops"]


def _is_spec(size):
    """An InputSpec-like object (it has a shape and is not itself a shape)."""
    return hasattr(size, "shape") and not isinstance(size, (list, tuple, np.ndarray))


def _shapes_and_dtypes(input_size):
    """[(shape, dtype or None)] from one shape, an int, an InputSpec, or a list of these."""
    if _is_spec(input_size):
        return [(list(input_size.shape), input_size.dtype)]
    if isinstance(input_size, int):
        return [([input_size], None)]
    if all(isinstance(d, (int, type(None))) for d in input_size):
        return [(list(input_size), None)]
    return [_shapes_and_dtypes(one)[0] for one in input_size]


def _example_inputs(input_size, dtypes, inputs):
    """The network's positional arguments: zero tensors for `input_size` (shapes or
    InputSpecs; None/-1 dims become 1) in `dtypes` (default: the spec's dtype, else
    float32), or `inputs` as the one argument (a tensor, list or dict, as Paddle passes it)."""
    if inputs is not None:
        return [inputs]
    if input_size is None:
        raise ValueError("summary/flops need input_size or input")
    sizes = _shapes_and_dtypes(input_size)
    dtypes = dtypes if isinstance(dtypes, (list, tuple)) else [dtypes] * len(sizes)
    made = []
    for (size, spec_dtype), dtype in zip(sizes, dtypes):
        shape = [1 if d is None or d < 0 else int(d) for d in size]
        made.append(Tensor(np.zeros(shape, to_dtype(dtype or spec_dtype or "float32").np)))
    return made


def _flat_tensors(value):
    """The tensors of a tensor, list, tuple or dict (nested)."""
    if isinstance(value, Tensor):
        return [value]
    items = value.values() if isinstance(value, dict) else \
        value if isinstance(value, (list, tuple)) else []
    return [t for item in items for t in _flat_tensors(item)]


def _leaves(net):
    """Layers without sublayers, in registration order (the net itself if it has none)."""
    leaves = [layer for layer in net.sublayers() if not list(layer.children())]
    return leaves or [net]


def _numel(shape):
    return int(np.prod(shape)) if len(shape) else 1


def _summarised(net):
    """The layers summary shows, as Paddle's: every sublayer but Sequential and LayerList
    containers (the network itself when it has no sublayers)."""
    from ..nn import LayerList, Sequential
    shown = [layer for layer in net.sublayers()
             if not isinstance(layer, (Sequential, LayerList))]
    return shown or [net]


def _trace(net, inputs, layers):
    """[(layer, input tensors, output tensors)] for every call of one of `layers`, run
    eagerly in eval mode (a to_static network too: its hooks then see real tensors)."""
    records, handles = [], []
    for layer in layers:
        def hook(layer, ins, outs):
            outs_l = outs if isinstance(outs, (list, tuple)) else [outs]
            records.append((layer, tuple(i for i in ins if isinstance(i, Tensor)),
                            [o for o in outs_l if isinstance(o, Tensor)]))
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


_HEADERS = ("Layer (type)", "Input Shape", "Output Shape", "Param #")


def _megabytes(count):
    """Size of `count` float32 values in MB, as Paddle's summary reports it."""
    return count * 4.0 / 1024 ** 2


def _row_name(layer, position):
    """Paddle's row name: the class and 1 + the layer's unique-name number ("Conv2D-3" for
    conv2d_2), or its position in the table."""
    suffix = layer._full_name.rsplit("_", 1)[-1]
    return f"{type(layer).__name__}-{int(suffix) + 1 if suffix.isdigit() else position + 1}"


def _summary_rows(records):
    """Table rows (name, input shapes, output shape(s), parameter count) by name (a
    layer called twice keeps its first place and its last call, as in Paddle) and the
    total number of output elements."""
    rows = {}
    for layer, ins, outs in records:
        n_params = sum(_numel(p.shape) for p in layer.parameters(include_sublayers=False))
        shapes = [list(o.shape) for o in outs]
        name = _row_name(layer, len(rows))
        rows[name] = (name, str([list(i.shape) for i in ins]),
                      str(shapes[0] if len(shapes) == 1 else shapes), f"{n_params:,}", shapes)
    outputs = sum(_numel(shape) for row in rows.values() for shape in row[4])
    return [row[:4] for row in rows.values()], outputs


# Paddle's table: columns at least this wide, centred, one space apart; rules at least 75
_MIN_WIDTHS = (15, 20, 20, 15)


def _table_lines(rows):
    """(rule width, header line, row lines) of the summary table."""
    widths = [max(w, *(len(r[i]) for r in rows)) if rows else w
              for i, w in enumerate(_MIN_WIDTHS)]
    centred = lambda cells: " ".join(f"{c:^{w}}" for c, w in zip(cells, widths))
    return max(75, sum(widths) + 5), centred(_HEADERS), [centred(r) for r in rows]


def summary(net, input_size=None, dtypes=None, input=None):  # noqa: A002
    """Print Paddle's table of each leaf layer's input and output shapes and parameters,
    then the totals and the memory estimate (input, forward/backward activations,
    parameters, in MB); return {'total_params', 'trainable_params'}."""
    inputs = _example_inputs(input_size, dtypes, input)
    rows, outputs = _summary_rows(_trace(net, inputs, _summarised(net)))
    total = sum(_numel(p.shape) for p in net.parameters())
    trainable = sum(_numel(p.shape) for p in net.parameters()
                    if not p.stop_gradient and getattr(p, "trainable", True))
    width, header, lines = _table_lines(rows)
    line = "-" * width
    print(line)
    print(header)
    print("=" * width)
    for row_line in lines:
        print(row_line)
    print("=" * width)
    print(f"Total params: {total:,}\nTrainable params: {trainable:,}\n"
          f"Non-trainable params: {total - trainable:,}")
    print(line)
    sizes = (_megabytes(sum(_numel(list(t.shape)) for t in _flat_tensors(inputs))),
             _megabytes(2 * outputs),
             _megabytes(total))
    print(f"Input size (MB): {sizes[0]:.2f}\nForward/backward pass size (MB): {sizes[1]:.2f}\n"
          f"Params size (MB): {sizes[2]:.2f}\nEstimated Total Size (MB): {sum(sizes):.2f}")
    print(line + "\n")
    return {"total_params": total, "trainable_params": trainable}


# Paddle's counting rules (hapi/dynamic_flops.py), each `rule(layer, inputs, output)`
# adding to `layer.total_ops`, the form `custom_ops` functions take too. Leaf layers of any
# other class (MaxPool, LayerNorm, GELU, ...) count zero.


def _count_conv(m, x, y):
    """Outputs × (input channels / groups × kernel size + 1 for the bias)."""
    kernel = _numel(m.weight.shape[2:])
    bias = 1 if getattr(m, "bias", None) is not None else 0
    m.total_ops += abs(int(_numel(y.shape) * (x[0].shape[1] / m._groups * kernel + bias)))


def _count_leaky_relu(m, x, y):
    """One op per input element."""
    m.total_ops += _numel(x[0].shape)


def _count_bn(m, x, y):
    """Two ops per input element (flops runs the network in eval mode)."""
    m.total_ops += 2 * _numel(x[0].shape)


def _count_linear(m, x, y):
    """in_features multiply-adds per output element."""
    m.total_ops += m.weight.shape[0] * _numel(y.shape)


def _count_avgpool(m, x, y):
    """One op per output element."""
    m.total_ops += _numel(y.shape)


def _count_adaptive_avgpool(m, x, y):
    """(window size + 1 division) per output element, the window taken as in // out."""
    window = _numel((np.array(x[0].shape[2:]) // np.array(y.shape[2:])).tolist())
    m.total_ops += (window + 1) * _numel(y.shape)


def _count_zero(m, x, y):
    """Counted as no work."""


def _rules():
    """{layer class: counting rule} as Paddle registers them."""
    from .. import nn  # hapi sits above nn; imported on call
    rules = {cls: _count_conv for cls in (nn.Conv1D, nn.Conv2D, nn.Conv3D, nn.Conv1DTranspose,
                                          nn.Conv2DTranspose, nn.Conv3DTranspose)}
    rules.update({nn.BatchNorm2D: _count_bn, nn.BatchNorm: _count_bn, nn.ReLU: _count_zero,
                  nn.ReLU6: _count_zero, nn.Dropout: _count_zero,
                  nn.LeakyReLU: _count_leaky_relu, nn.Linear: _count_linear})
    rules.update({cls: _count_avgpool for cls in (nn.AvgPool1D, nn.AvgPool2D, nn.AvgPool3D)})
    rules.update({cls: _count_adaptive_avgpool for cls in (
        nn.AdaptiveAvgPool1D, nn.AdaptiveAvgPool2D, nn.AdaptiveAvgPool3D)})
    return rules


def _layer_flops(layer, rule, ins, outs):
    """The ops `rule` adds to a fresh `layer.total_ops` for one call (0 without a rule)."""
    if rule is None or not outs:
        return 0
    layer.total_ops = 0
    try:
        rule(layer, ins, outs[0] if len(outs) == 1 else outs)
        return int(layer.total_ops)
    finally:
        del layer.total_ops


def flops(net, input_size, custom_ops=None, print_detail=False):
    """FLOPs of one forward pass by Paddle's rules: convolutions count outputs × (in/groups
    × kernel + bias), Linear in_features × outputs, BatchNorm2D 2 × inputs, AvgPool outputs,
    AdaptiveAvgPool (window + 1) × outputs, LeakyReLU inputs, everything else zero.
    `custom_ops={LayerClass: fn(layer, inputs, output)}` adds its own count to
    `layer.total_ops`, as in Paddle. `print_detail=True` first prints Paddle's table (each
    leaf layer that ran: name, first input's and output's shapes, own parameter count,
    FLOPs). Prints "Total Flops: ...  Total Params: ..."."""
    rules = {**_rules(), **(custom_ops or {})}
    per_layer = {}
    for layer, ins, outs in _trace(net, _example_inputs(input_size, None, None), _leaves(net)):
        count = _layer_flops(layer, rules.get(type(layer)), ins, outs)
        previous = per_layer.get(id(layer), (layer, None, None, 0))[3]
        per_layer[id(layer)] = (layer, list(ins[0].shape) if ins else [],
                                list(outs[0].shape) if outs else [], previous + count)
    total = sum(entry[3] for entry in per_layer.values())
    params = sum(_numel(p.shape) for p in net.parameters())
    if print_detail:
        rows = [[layer.full_name(), in_shape, out_shape,
                 sum(_numel(p.shape) for p in layer.parameters()), count]
                for layer, in_shape, out_shape, count in
                (per_layer[id(m)] for m in _leaves(net) if id(m) in per_layer)]
        print("\n".join(_table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"],
                               rows)))
    print(f"Total Flops: {total}     Total Params: {params}")
    return total


def _table(heads, rows):
    """Lines of Paddle's flops table: +---+ rules, cells centred in their column's width + 2."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(heads, *rows)]
    rule = "".join("+" + "-" * (w + 2) for w in widths) + "+"

    def line(cells):
        return "".join("|" + str(c).center(w + 2) for c, w in zip(cells, widths)) + "|"
    return [rule, line(heads), rule, *(line(r) for r in rows), rule]
