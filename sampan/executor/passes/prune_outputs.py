"""Dead-output pruning: unbind outputs nobody reads, so kernels that take `need=` skip them.

A static backward often asks for gradients nobody uses (e.g. matmul_grad's x_grad when
x is fed data); kernels accepting `need=` (docs/ops.md) compute only the live outputs.
"""
__all__ = ["prune_dead_outputs", "needed_outputs"]


def needed_outputs(opdef, unbound):
    """The `need=` flags telling the op's kernel to skip the `unbound` outputs, or None if
    its kernel cannot."""
    if not opdef.kernel_takes_need:
        return None
    return tuple(name not in unbound for name in opdef.output_names)


def prune_dead_outputs(nodes, live_names):
    """Unbind output slots of multi-output nodes whose values are never read later."""
    live = set(live_names)
    for node in reversed(nodes):
        if len(node.outputs) > 1:
            node.outputs = {slot: (names if any(n in live for n in names) else [])
                            for slot, names in node.outputs.items()}
        live.update(node.in_names())
    return nodes
