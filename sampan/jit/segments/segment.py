"""A segment: the ops a trace recorded between two graph breaks, run as one run_program op."""
from ...executor.passes import RANDOM_OPS
from ..errors import translate_origins
from ..partial_program import PartialProgram, mark_test

__all__ = ["Segment"]


def _cut_out(program, start, stop):
    """A copy of `program` whose global block keeps only ops [start, stop)."""
    sub = program.clone()
    block = sub.global_block()
    for _ in range(len(block.ops) - stop):
        block.remove_op(len(block.ops) - 1)
    for _ in range(start):
        block.remove_op(0)
    return sub


class Segment:
    """Ops [start, stop) of a traced Program as a Program of their own.

    `feeds` are the values it reads that earlier pieces made (call inputs, outputs of earlier
    segments), `produced` the dense values its ops make; `outputs` the produced ones later
    pieces read (all of them until `keep_only` narrows it). Running it updates a {name:
    eager Tensor} table."""

    def __init__(self, program, start, stop, state, training, strategy):
        self.program = sub = _cut_out(program, start, stop)
        translate_origins(sub)
        if not training:
            mark_test(sub)
        block = sub.global_block()
        self.op_types = [op.type for op in block.ops]
        self.random = any(op.type in RANDOM_OPS for b in sub.blocks for op in b.ops)
        feeds, made, persist = [], set(), set()
        for op in block.ops:
            for name in op.input_arg_names:
                if block.var(name).persistable:
                    persist.add(name)
                elif name not in made and name not in feeds:
                    feeds.append(name)
            for name in op.output_arg_names:
                made.add(name)
                if block.var(name).persistable:
                    persist.add(name)
        self.feeds = feeds
        # dense values, and tensor arrays a later piece may read (their value is a list,
        # carried in a Tensor's slot); an array needing gradients cannot leave: a run_program
        # op differentiates dense outputs only
        self.produced = [n for n in dict.fromkeys(
            n for op in block.ops for n in op.output_arg_names)
            if block.has_var(n) and not block.var(n).persistable and (
                block.var(n).kind == "dense" or
                block.var(n).kind == "array" and block.var(n).stop_gradient)]
        self.state = [(n, t) for n, t in state if n in persist]
        written = {n for op in block.ops for n in op.output_arg_names}
        self.writes = [t for n, t in self.state if n in written]
        self.strategy = strategy
        self.keep_only(self.produced)

    def keep_only(self, names):
        """Make `names` (a subset of `produced`) the outputs; recompiles when they change."""
        names = [n for n in self.produced if n in set(names)]
        if getattr(self, "outputs", None) == names:
            return
        self.outputs = names
        block = self.program.global_block()
        self.partial = PartialProgram(self.program, [block.var(n) for n in self.feeds],
                                      [block.var(n) for n in names], self.state, self.strategy)

    def run(self, values):
        """Run on the eager tensors of `values` (by name); adds the outputs to it."""
        values.update(zip(self.outputs, self.partial.run_flat(list(map(values.__getitem__,
                                                                          self.feeds)))))

    def __repr__(self):
        return f"Segment({len(self.op_types)} ops, feeds={self.feeds}, outputs={self.outputs})"
