"""Python source of the two functions eager autograd compiles once per one-output op: the
recorder (a GradNode's edges, saved backward arguments and output metadata) and the runner
(the backward kernel on those arguments). Built from registry data only, they spell out
each op's argument positions, so recording or running a node is one call with no
per-argument loop (the hot path of every eager training step)."""

__all__ = ["recorder_source", "runner_source"]

_SAVED = {"in": "a[{}]", "out": "o", "attr": "t[{}]", "grad": "None"}


def _edge_expr(name, optional):
    """Where the gradient of input `name` goes (autograd's `_edge`, spelled inline)."""
    unused = f"{name} is None or {name}.stop_gradient" if optional else f"{name}.stop_gradient"
    return f"None if {unused} else {name} if {name}._node is None else ({name}._node, {name}._index)"


def recorder_source(op):
    """`def record(x, a, t, out)`: tensors x, their arrays a and attributes t of a call of
    `op`, whose result tensor `out` becomes the output of a new GradNode."""
    if op.all_inputs_differentiable:
        names = [f"x{i}" for i in range(len(op.tensor_names))]
        unpack = f"    {', '.join(names)}{',' if len(names) == 1 else ''} = x\n"
        edges = "[" + ", ".join(_edge_expr(n, kind == "Tensor?")
                                for n, kind in zip(names, op.tensor_kinds)) + "]"
    else:
        unpack, edges = "", "_edges(op, x)"
    saved = ", ".join(_SAVED[kind].format(i) for kind, i in op.backward.bw_sources)
    link = "    out._node = node\n    out.stop_gradient = False\n" if op.grad_outputs else ""
    return ("def record(x, a, t, out):\n"
            f"{unpack}"
            "    node = _new(GradNode)\n"
            "    node.seq = _next(_SEQUENCE)\n"
            "    node.op = op\n"
            f"    node.edges = {edges}\n"
            "    node.out_layout = _SINGLE\n"
            "    o = out._data\n"
            f"    node.saved = [{saved}]\n"
            "    node.out_meta = ((o.shape, o.dtype),)\n"
            "    node.hooks = None\n"
            f"{link}")


def runner_source(op):
    """`def run(s, g, e)`: the input gradients of a node of `op` from its saved arguments s,
    its output gradient g and its edges e (a kernel taking `need=` skips unused inputs)."""
    bw = op.backward
    args = ["g" if kind == "grad" else f"s[{pos}]" for pos, (kind, _) in
            enumerate(bw.bw_sources)]
    if bw.kernel_takes_need:
        need = [f"e[{t}] is not None" for t in bw.bw_grad_targets]
        args.append(f"need=({', '.join(need)}{',' if len(need) == 1 else ''})")
    one = len(bw.output_names) == 1  # a kernel returns a one-output value bare
    if bw.bw_aligned:
        result = "(r,)" if one else "r"
    else:
        slot = {t: ("r" if one else f"r[{j}]") for j, t in enumerate(bw.bw_grad_targets)}
        result = "[" + ", ".join(slot.get(i, "None") for i in range(len(op.tensor_names))) + "]"
    return f"def run(s, g, e):\n    r = kernel({', '.join(args)})\n    return {result}\n"
