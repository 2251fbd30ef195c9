"""batch_norm + activation fusion (`BuildStrategy.fuse_bn_act_ops`): a batch_norm whose
normalised output is read only by one activation becomes one node (one instruction)
running both, so the normalised values never take a register slot of their own."""
from .node import Node, readers, write_counts

__all__ = ["fuse_bn_act", "FUSED_BN_ACT", "BN_ACTIVATIONS"]

FUSED_BN_ACT = "fused_batch_norm_act"
# one-input activations that may follow batch_norm inside the fused node
BN_ACTIVATIONS = frozenset({"relu", "relu6", "sigmoid", "tanh", "leaky_relu", "elu",
                            "hardswish", "hardsigmoid", "swish", "silu", "gelu", "mish",
                            "softplus"})


def _act_of(bn, nodes, pos, counts, writes, protected):
    """(position, node) of the activation reading only `bn`'s out, or None."""
    out = bn.outputs.get("out", [None])[0]
    if out is None or out in protected or counts.get(out) != 1 or writes.get(out) != 1:
        return None
    for later in range(pos + 1, len(nodes)):
        node = nodes[later]
        if out in node.in_names():
            ok = node.type in BN_ACTIVATIONS and node.in_names() == [out] and not node.parts
            return (later, node) if ok else None
    return None


def fuse_bn_act(nodes, protected):
    """Nodes with each batch_norm -> activation pair merged into a FUSED_BN_ACT node at the
    batch_norm's place (the activation reads nothing else, so it may run there)."""
    counts, writes = readers(nodes), write_counts(nodes)
    placed = list(nodes)
    for pos, node in enumerate(nodes):
        if node.type != "batch_norm" or node.parts:
            continue
        found = _act_of(node, nodes, pos, counts, writes, protected)
        if found is None:
            continue
        later, act = found
        outputs = {**node.outputs, "out": act.out_names()}
        placed[pos] = Node(FUSED_BN_ACT, node.inputs, outputs, node.attrs, act.origin,
                           node.op, (node, act))
        placed[later] = None
    return [n for n in placed if n is not None]
