"""A Plan as generated Python functions: each instruction is one source line calling its
bound kernel on local variables, so running a plan costs a call per op and nothing else
(no per-instruction tuple unpacking, argument getters, star-calls or register stores).

The instructions are cut into chunks of at most CHUNK, one function each, so compiling
costs time linear in the plan's length and a long plan is never one huge function. A
chunk names its registers by first appearance (a0, a1, ...) and its kernels f0, f1, ...;
kernels and slot numbers (S<k> is the slot of a<k>) are arguments bound to the chunk's
function, so chunks of the same shape (an unrolled loop, repeated layers) have the same
source and share one function, and every name it reads is a fast local (code shared
between different globals would defeat CPython's global-lookup caches).

A chunk takes the register file: it loads the registers it reads before writing them,
deletes a local after its last use (the plan's `frees`, so big intermediates go as early
as in the instruction loop; a freed register it loaded, from the caller or an earlier
chunk, is cleared in the register file too, or the file would keep the value alive) and
stores back every register it wrote that is still live at its end, leaving the register
file as the instruction loop would (freed registers aside). Instruction FIRST + i of a
chunk is on its line FIRST_LINE + i, which is how a failure is traced back to its op.
"""
import functools
import itertools

from ..core.compiled_source import define
from ..core.gc_pause import gc_paused

__all__ = ["straight_function", "failing_instruction", "CHUNK"]

FIRST_LINE = 3  # line 1: def, line 2: the loads
CHUNK = 128
_NAMES = itertools.count()


class _Writer:
    """Builds the source and the bound arguments of one chunk."""

    def __init__(self, first):
        self.first, self.kernels, self.slots, self.names = first, [], [], {}
        self.loads, self.lines = [], []
        self.present, self.live, self.loaded = set(), set(), set()

    def local(self, slot):
        """The chunk's local name of register `slot` (its slot number is S<same k>)."""
        name = self.names.get(slot)
        if name is None:
            name = self.names[slot] = f"a{len(self.slots)}"
            self.slots.append(slot)
        return name

    def instruction(self, k, plan, instruction, stored):
        """Append the line of one instruction; `stored`: slots earlier chunks stored."""
        fn, ins, out, frees, _ = instruction
        self.kernels.append(fn)
        for s in ins:
            if s not in self.present:
                name = self.local(s)
                self.loads.append(f"{name} = regs[S{name[1:]}]")
                self.present.add(s)
                self.loaded.add(s)
        call = f"f{k}({', '.join(map(self.local, ins))})"
        if out >= 0:
            written, line = [out], f"{self.local(out)} = {call}"
        else:
            written = [s for s in plan.multi[~out] if s >= 0]
            line = f"v = {call}" + "".join(f"; {self.local(s)} = v[{j}]"
                                           for j, s in enumerate(plan.multi[~out]) if s >= 0)
        self.present.update(written)
        self.live.update(written)
        gone = [s for s in frees if s in self.present]
        self.present.difference_update(gone)
        self.live.difference_update(gone)
        dead = ["v"] * (out < 0) + [self.local(s) for s in gone]  # v: a multi-output result
        if dead:
            line += "; del " + ", ".join(dead)
        for s in gone:  # the register file lets go of it too, as the instruction loop
            if s in stored or s in self.loaded:
                stored.discard(s)
                self.loaded.discard(s)
                line += f"; regs[S{self.local(s)[1:]}] = None"
        self.lines.append(f"    {line}\n")

    def source(self, stored):
        """The chunk's function source; records the registers it stores in `stored`."""
        live = sorted(self.live)
        stored.update(live)
        params = ["FIRST", *(f"f{k}" for k in range(len(self.kernels))),
                  *(f"S{k}" for k in range(len(self.slots))), "regs"]
        loads = "; ".join(self.loads) or "pass"
        stores = "".join(f"    regs[S{self.local(s)[1:]}] = {self.local(s)}\n" for s in live)
        return f"def run({', '.join(params)}):\n    {loads}\n{''.join(self.lines)}{stores}"

    def bound(self, function):
        """`function` with this chunk's arguments bound: chunk(regs)."""
        return functools.partial(function, self.first, *self.kernels, *self.slots)


def _chunks(plan):
    """One function per CHUNK instructions; chunks with equal sources share a function
    (kernels and slot numbers are its arguments, so they stay fast locals)."""
    chunks, functions, stored = [], {}, set()
    for first in range(0, max(len(plan.code), 1), CHUNK):
        writer = _Writer(first)
        for k, instruction in enumerate(plan.code[first:first + CHUNK]):
            writer.instruction(k, plan, instruction, stored)
        source = writer.source(stored)
        function = functions.get(source)
        if function is None:
            function = functions[source] = define(source, f"<sampan plan {next(_NAMES)}>",
                                                  {}, "run")
        chunks.append(writer.bound(function))
    return chunks


@gc_paused
def straight_function(plan):
    """run(regs) doing what the instruction loop does for `plan`."""
    chunks = _chunks(plan)
    if len(chunks) == 1:
        return chunks[0]

    def run(regs):
        for chunk in chunks:
            chunk(regs)
    run.chunks = chunks
    return run


def failing_instruction(run, err):
    """Index of the instruction of `run` (a straight function) that raised `err`, or None
    when the error did not come from one of its instruction lines."""
    codes = {chunk.func.__code__ for chunk in getattr(run, "chunks", (run,))}
    tb, found = err.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code in codes:
            found = tb.tb_frame.f_locals["FIRST"], tb.tb_lineno
        tb = tb.tb_next
    if found is None or found[1] < FIRST_LINE:
        return None
    return found[0] + found[1] - FIRST_LINE
