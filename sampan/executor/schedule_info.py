"""Dependency graph and value-version reference counts for the parallel scheduler."""

from ..ops.registry import OPS
from .cost import op_seconds

__all__ = ["ParallelInfo", "parallel_info", "OFFLOAD_SECONDS", "MIN_PARALLEL_SECONDS",
           "MIN_SPEEDUP"]

OFFLOAD_SECONDS = 1e-4       # ops estimated cheaper run inline on the scheduling thread
MIN_PARALLEL_SECONDS = 2e-3  # plans estimated cheaper run sequentially ...
MIN_SPEEDUP = 1.5            # ... and so do plans whose work / critical path is below this


class ParallelInfo:
    """succs/indeg per instruction, cheap flags, per-version reader counts, and `worth`:
    whether the cost model expects running in parallel to pay."""

    __slots__ = ("succs", "indeg", "cheap", "releases", "dead", "counts", "worth",
                 "seconds", "critical")

    def __init__(self, succs, indeg, cheap, releases, dead, counts, seconds, critical):
        self.succs, self.indeg, self.cheap = succs, indeg, cheap
        self.releases, self.dead, self.counts = releases, dead, counts
        self.seconds, self.critical = seconds, critical
        total = sum(seconds)
        self.worth = (total >= MIN_PARALLEL_SECONDS and critical > 0
                      and total / critical >= MIN_SPEEDUP)


def _critical_path(preds, seconds):
    """Estimated seconds of the longest dependency chain (instructions are in a valid
    order: every predecessor comes first)."""
    finish = []
    for ps, s in zip(preds, seconds):
        finish.append(s + max((finish[p] for p in ps), default=0.0))
    return max(finish, default=0.0)


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
    seconds = [op_seconds(node, block, OPS) for node in nodes]
    cheap = [s < OFFLOAD_SECONDS for s in seconds]
    return ParallelInfo([tuple(s) for s in succs], [len(p) for p in preds], cheap,
                        releases, dead, counts, seconds, _critical_path(preds, seconds))
