"""Node: a pass-editable copy of an Operator (passes never modify the user's Program)."""
from ...ops._generated.registry_data import SPECS

__all__ = ["Node", "RANDOM_OPS", "COMMUNICATION_OPS", "ELEMENTWISE", "write_counts", "readers"]

RANDOM_OPS = frozenset({"uniform", "gaussian", "randint", "dropout", "bernoulli", "randperm",
                        "fractional_max_pool2d", "fractional_max_pool3d",
                        "normal", "multinomial", "uniform_random", "gaussian_random"})

# Ops that talk to other ranks (`communicates: true` in the YAML): every rank must run each
# one, in program order, so no pass removes, merges or folds them.
COMMUNICATION_OPS = frozenset(name for name, spec in SPECS.items() if spec.get("communicates"))

_ELEMENTWISE_RULES = ("unary", "unary_float", "unary_numeric", "float_only",
                      "broadcast_binary", "broadcast_numeric", "same_as(x)")
ELEMENTWISE = frozenset(
    name for name, spec in SPECS.items()
    if spec["infer_meta"] in _ELEMENTWISE_RULES and len(spec["outputs"]) == 1
    and spec["outputs"][0][0] == "Tensor" and not spec["forward"]
    and all(t in ("Tensor", "bool", "int", "float", "Scalar") for t, _, _ in spec["args"])
    and name not in RANDOM_OPS)


class Node:
    """One op to execute: type, inputs/outputs (slot -> names), attrs, origin, parts."""

    __slots__ = ("type", "inputs", "outputs", "attrs", "origin", "parts", "op")

    def __init__(self, type, inputs, outputs, attrs, origin=None, op=None, parts=()):
        self.type = type
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs
        self.origin = origin
        self.op = op
        self.parts = parts

    @classmethod
    def of(cls, op):
        """A Node copying an Operator's slots."""
        return cls(op.type, {k: list(v) for k, v in op.inputs.items()},
                   {k: list(v) for k, v in op.outputs.items()}, op.attrs, op.origin, op)

    def in_names(self):
        """Every input variable name."""
        return [n for names in self.inputs.values() for n in names if n is not None]

    def out_names(self):
        """Every output variable name."""
        return [n for names in self.outputs.values() for n in names if n is not None]

    def rename_inputs(self, renames):
        """Replace input names by their mapping in `renames`."""
        if renames:
            self.inputs = {k: [renames.get(n, n) for n in v] for k, v in self.inputs.items()}


def write_counts(nodes):
    """{name: number of nodes writing it}."""
    counts = {}
    for node in nodes:
        for name in node.out_names():
            counts[name] = counts.get(name, 0) + 1
    return counts


def readers(nodes):
    """{name: number of input references over all nodes}."""
    counts = {}
    for node in nodes:
        for name in node.in_names():
            counts[name] = counts.get(name, 0) + 1
    return counts
