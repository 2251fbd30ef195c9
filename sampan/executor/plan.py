"""compile(): a Program block -> a Plan of prebound instructions over integer slots."""
import functools
import operator

from ..core.errors import NotFoundError
from ..core.gc_pause import gc_paused
from ..ops.registry import OPS
from .bind import EXEC_RULES, bind, run_node
from .passes import (COMMUNICATION_OPS, Node, eliminate_common_subexpressions,
                     eliminate_dead_code, fold_constants, fuse_bn_act, fuse_elementwise)
from .passes.prune_outputs import prune_dead_outputs
from .passes.inplace import FRESH_PRODUCERS, INPLACE, inplace_kernel
from .schedule_info import parallel_info
from .strategy import BuildStrategy

__all__ = ["Plan", "CompileContext", "compile", "slot_getter"]


class CompileContext:
    """What an exec rule may use while binding: program, block, strategy, sub-compiles."""

    def __init__(self, program, block, strategy):
        self.program = program
        self.block = block
        self.strategy = strategy

    def compile_block(self, block_idx, feed_names, fetch_names):
        """A Plan for another block of the same program (control-flow bodies)."""
        return build_plan(self.program, self.program.block(block_idx), feed_names,
                          fetch_names, self.strategy)


class Plan:
    """Instructions (fn, input slots, output slot, slots to free, index) and run metadata;
    run_sequential adds `straight`, the instructions as one generated function."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def __len__(self):
        return len(self.code)

    @functools.cached_property
    def parallel(self):
        """What the parallel scheduler needs beyond the code (built on its first run, so
        sequential plans never pay for the dependency graph)."""
        return parallel_info(self.nodes, self.bounds, self.slots, self.block, self.pinned)


def _check_fetches(block, nodes, fetch_names):
    """Every fetch names a variable of the block (or one an op writes)."""
    written = {n for node in nodes for n in node.out_names()}
    for name in fetch_names:
        if name not in written and not block.has_var_recursive(name):
            raise ValueError(f"fetch_list contains {name!r}, which is not a variable of the "
                             f"program")


def _optimise(nodes, block, feeds, fetches, strategy, checked):
    """Run the enabled passes; returns (nodes, renamed fetch names, constants)."""
    persist = {n for n, v in block.vars.items() if v.persistable}
    protected = persist | set(feeds)
    renames, constants = {}, {}
    untouchable = COMMUNICATION_OPS.union(EXEC_RULES)  # never removed, merged or folded
    if strategy.enable_cse:
        nodes, renames = eliminate_common_subexpressions(nodes, protected, untouchable)
    fetches = [renames.get(n, n) for n in fetches]
    if strategy.enable_dce:
        nodes = eliminate_dead_code(nodes, fetches, persist, untouchable)
        nodes = prune_dead_outputs(nodes, set(fetches) | persist)
    for node in nodes:
        if node.type not in EXEC_RULES and node.type not in OPS:
            raise NotFoundError(f"the executor cannot run op type {node.type!r} (built "
                                    f"at {format_origin(node.origin)}): it is not a "
                                    f"registered op and has no exec rule")
    if strategy.enable_constant_folding and not checked:
        nodes, constants = fold_constants(nodes, run_node, protected | set(fetches),
                                          untouchable)
    if strategy.fuse_bn_act_ops and not checked:
        nodes = fuse_bn_act(nodes, protected | set(fetches))
    if strategy.fuse_elewise_add_act_ops and not checked:
        nodes = fuse_elementwise(nodes, protected | set(fetches))
    return nodes, fetches, constants


def format_origin(origin):
    """`File x.py, line N: <source>` for an op's origin, or a placeholder."""
    if not origin:
        return "<unknown source>"
    return f"File {origin[0]}, line {origin[1]}: {origin[3]}"


class _Slots(dict):
    """name -> slot number, assigned on first sight."""

    def __missing__(self, name):
        self[name] = slot = len(self)
        return slot


def _versions(bounds, slots, pinned):
    """Per instruction the slots to free after it (last reader of each value version)."""
    frees = [[] for _ in bounds]
    last = {}
    for i, b in enumerate(bounds):
        for name in b.in_names:
            last[slots[name]] = i
        for name in b.out_names:
            if name is None:
                continue
            s = slots[name]
            if s in last and last[s] < i and s not in pinned:
                frees[last[s]].append(s)
            last[s] = i
    for s, i in last.items():
        if s not in pinned:
            frees[i].append(s)
    return [tuple(sorted(set(f))) for f in frees]


def _reads_by_version(bounds):
    """{(name, writer index or None): reader indices} for every value version."""
    producer, reads = {}, {}
    for i, b in enumerate(bounds):
        for name in b.in_names:
            reads.setdefault((name, producer.get(name)), []).append(i)
        for name in b.out_names:
            producer[name] = i
    return reads


def _inplace(bounds, nodes, slots, pinned):
    """Swap in in-place kernels: sgd updating its own parameter, and elementwise ops whose
    first input is a fresh value read only there."""
    reads, producer = _reads_by_version(bounds), {}
    for i, (b, node) in enumerate(zip(bounds, nodes)):
        if node.type == "sgd" and node.inputs["param"] == node.outputs["param_out"]:
            b.fn = inplace_kernel("sgd")
        elif node.type in INPLACE and not node.parts and b.in_names:
            x = b.in_names[0]
            src = producer.get(x)
            if (src is not None and nodes[src].type in FRESH_PRODUCERS
                    and not nodes[src].parts and slots[x] not in pinned
                    and reads.get((x, src)) == [i]):
                b.fn = inplace_kernel(node.type)
        for name in b.out_names:
            producer[name] = i


@gc_paused
def build_plan(program, block, feeds, fetches, strategy, checked=False):
    """Compile one block (no caching)."""
    nodes = [Node.of(op) for op in block.ops]
    _check_fetches(block, nodes, fetches)
    nodes, fetches, constants = _optimise(nodes, block, feeds, fetches, strategy, checked)
    ctx = CompileContext(program, block, strategy)
    bounds = [bind(node, ctx) for node in nodes]
    slots = _Slots()
    for name in list(feeds) + list(constants):
        slots[name]
    for b in bounds:
        for name in b.in_names + b.out_names:
            if name is not None:
                slots[name]
    fetch_slots = [slots[n] for n in fetches]
    persist = {n for n in slots if block.has_var_recursive(n) and block.var(n).persistable}
    pinned = set(fetch_slots) | {slots[n] for n in persist}
    if strategy.enable_inplace and not checked:
        _inplace(bounds, nodes, slots, pinned)
    if not strategy.memory_optimize:
        pinned = set(range(len(slots)))
    return _assemble(program, block, nodes, bounds, slots, feeds, fetches, fetch_slots,
                     constants, persist, pinned, strategy)


def _externals(block, bounds, slots, feeds, constants, fetches):
    """Names read (or fetched) before any instruction writes them: fed, constant, scope."""
    written, needed = set(), {}  # needed: an ordered set (dict keys)
    for b in bounds:
        for name in b.in_names:
            if name not in written:
                needed[name] = None
        written.update(n for n in b.out_names if n is not None)
    needed.update((n, None) for n in fetches if n not in written)
    out = []
    for name in needed:
        if name in feeds or name in constants:
            continue
        var = block.var(name) if block.has_var_recursive(name) else None
        out.append((name, slots[name], bool(var is not None and var.is_data),
                    bool(var is not None and var.persistable)))
    return out


def slot_getter(slots):
    """A C-level callable: register file (or any list) -> the sequence of its items at
    `slots` (a tuple, or a list for one or no slot)."""
    if len(slots) > 1:
        return operator.itemgetter(*slots)
    return operator.itemgetter(slice(slots[0], slots[0] + 1) if slots else slice(0, 0))


def _assemble(program, block, nodes, bounds, slots, feeds, fetches, fetch_slots, constants,
              persist, pinned, strategy):
    """Pack bound nodes into the Plan's instruction tuples and run metadata."""
    frees = _versions(bounds, slots, pinned)
    multi, code = [], []
    for i, b in enumerate(bounds):
        ins = tuple(slots[n] for n in b.in_names)
        if b.single:
            out = slots[b.out_names[0]]
        else:
            multi.append(tuple(-1 if n is None else slots[n] for n in b.out_names))
            out = -len(multi)
        code.append((b.fn, ins, out, frees[i], i))
    template = [None] * len(slots)
    for name, value in constants.items():
        template[slots[name]] = value
    written = {n for b in bounds for n in b.out_names if n is not None}
    feed_specs = [(n, slots[n], block.var(n) if block.has_var_recursive(n) else None)
                  for n in feeds]
    return Plan(code=tuple(code), multi=tuple(multi), nodes=nodes, bounds=bounds,
                slots=dict(slots), template=template, fetch_names=fetches,
                fetch_slots=fetch_slots, fetch_get=slot_getter(fetch_slots),
                feed_specs=feed_specs,
                fetch_copies=[k for k, n in enumerate(fetches) if n in persist],
                externals=_externals(block, bounds, slots, feeds, constants, fetches),
                writeback=[(n, slots[n]) for n in persist if n in written],
                constants=constants, program=program,
                poison=strategy.debug_poison_freed, block=block, pinned=pinned)


def compile(program, feed_names=(), fetch_names=(), build_strategy=None, checked=False):
    """The Plan for running `program` with these feeds and fetches (cached per version)."""
    strategy = build_strategy or BuildStrategy()
    key = (program.version, tuple(sorted(feed_names)), tuple(fetch_names), strategy.key(),
           checked)
    cache = program._plans
    plan = cache.get(key)
    if plan is None:
        for stale in [k for k in cache if k[0] != program.version]:
            del cache[stale]
        plan = cache[key] = build_plan(
            program, program.global_block(), sorted(feed_names), list(fetch_names),
            strategy, checked)
    return plan
