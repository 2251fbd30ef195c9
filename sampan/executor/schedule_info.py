"""Dependency graph and value-version reference counts for the parallel scheduler."""

__all__ = ["ParallelInfo", "parallel_info", "CHEAP_TYPES", "EXPENSIVE_TYPES"]

CHEAP_TYPES = frozenset({"shape", "reshape", "full", "full_like", "scale", "assign",
                         "squeeze", "unsqueeze", "flatten", "numel", "cast", "arange"})
EXPENSIVE_TYPES = frozenset({"matmul", "matmul_grad", "bmm", "conv2d", "conv2d_grad",
                             "einsum", "dot", "mv"})
_SMALL = 4096
_UNKNOWN_DIM = 64


class ParallelInfo:
    """succs/indeg per instruction, cheap flags, and per-version reader counts."""

    __slots__ = ("succs", "indeg", "cheap", "releases", "dead", "counts")

    def __init__(self, succs, indeg, cheap, releases, dead, counts):
        self.succs, self.indeg, self.cheap = succs, indeg, cheap
        self.releases, self.dead, self.counts = releases, dead, counts


def _elements(block, names):
    """Largest declared element count among `names` (unknown dims count as 64)."""
    best = 0
    for name in names:
        if name is None or not block.has_var_recursive(name):
            continue
        n = 1
        for d in block.var(name).shape:
            n *= _UNKNOWN_DIM if d < 0 else d
        best = max(best, n)
    return best


def _is_cheap(node, bound, block):
    """Cheap ops run inline on the scheduling thread; the rest go to the pool."""
    if node.type in CHEAP_TYPES:
        return True
    if node.type in EXPENSIVE_TYPES:
        return False
    return _elements(block, bound.in_names + bound.out_names) < _SMALL


def _edges(bounds, slots):
    """Predecessor sets from read-after-write, write-after-read and write-after-write."""
    preds = [set() for _ in bounds]
    writer, readers = {}, {}
    for i, b in enumerate(bounds):
        for name in b.in_names:
            s = slots[name]
            if s in writer:
                preds[i].add(writer[s])
            readers.setdefault(s, set()).add(i)
        for name in b.out_names:
            if name is None:
                continue
            s = slots[name]
            if s in writer:
                preds[i].add(writer[s])
            preds[i].update(readers.pop(s, ()))
            writer[s] = i
        preds[i].discard(i)
    return preds


def _versions(bounds, slots, pinned):
    """(releases, dead outputs, initial counts): free a version when its readers are done."""
    current, counts, readers_of = {}, [], []
    releases, dead = [[] for _ in bounds], [[] for _ in bounds]

    def new_version(s, i):
        current[s] = len(counts)
        counts.append(0)
        readers_of.append((s, i, [], []))

    for i, b in enumerate(bounds):
        outs = {slots[n] for n in b.out_names if n is not None}
        for s in {slots[n] for n in b.in_names}:
            if s not in current:
                new_version(s, -1)
            readers_of[current[s]][2 if s not in outs else 3].append(i)
        for s in outs:
            new_version(s, i)
    for vid, (s, writer, readers, overwriters) in enumerate(readers_of):
        if s in pinned:
            continue
        counts[vid] = len(readers)
        for i in readers:
            releases[i].append((vid, s))
        if not readers and not overwriters and writer >= 0:
            dead[writer].append(s)
    return ([tuple(r) for r in releases], [tuple(d) for d in dead], counts)


def parallel_info(nodes, bounds, slots, block, pinned):
    """Everything the parallel scheduler needs beyond the sequential code."""
    preds = _edges(bounds, slots)
    succs = [[] for _ in bounds]
    for i, ps in enumerate(preds):
        for p in sorted(ps):
            succs[p].append(i)
    releases, dead, counts = _versions(bounds, slots, pinned)
    cheap = [_is_cheap(n, b, block) for n, b in zip(nodes, bounds)]
    return ParallelInfo([tuple(s) for s in succs], [len(p) for p in preds], cheap,
                        releases, dead, counts)
