"""Dependency graph, value versions and lanes for the parallel scheduler."""

from ..ops.registry import OPS
from .cost import op_seconds

__all__ = ["ParallelInfo", "Lanes", "parallel_info", "OFFLOAD_SECONDS", "HANDOFF_SECONDS",
           "MIN_PARALLEL_SECONDS", "MIN_SPEEDUP"]

OFFLOAD_SECONDS = 1e-4       # ops estimated cheaper follow their latest predecessor's lane
HANDOFF_SECONDS = 5e-5       # what waiting on another lane's result costs (a thread wake-up)
MIN_PARALLEL_SECONDS = 2e-3  # plans estimated cheaper run sequentially ...
MIN_SPEEDUP = 1.5            # ... and so do plans whose work / critical path is below this


class ParallelInfo:
    """preds per instruction, cheap flags, per-version readers, and `worth`: whether the
    cost model expects running in parallel to pay. `lanes(workers)` splits the plan into
    that many lanes (made once per worker count)."""

    __slots__ = ("preds", "cheap", "releases", "dead", "worth", "seconds", "critical",
                 "_lanes")

    def __init__(self, preds, cheap, releases, dead, seconds, critical):
        self.preds, self.cheap = preds, cheap
        self.releases, self.dead = releases, dead
        self.seconds, self.critical = seconds, critical
        total = sum(seconds)
        self.worth = (total >= MIN_PARALLEL_SECONDS and critical > 0
                      and total / critical >= MIN_SPEEDUP)
        self._lanes = {}

    def lanes(self, workers):
        """The Lanes of `workers` threads."""
        lanes = self._lanes.get(workers)
        if lanes is None:
            lanes = self._lanes[workers] = Lanes(self, workers)
        return lanes


class Lanes:
    """A static schedule over `workers` threads: `order[k]`, the instructions lane k runs
    (in plan order); `waits[i]`, the instructions of other lanes i must wait for (the last
    of each lane among its predecessors); `signalled`, those some lane waits for; `frees[i]`,
    the slots lane-local values leave after instruction i (values read on several lanes
    live until the run ends).

    Instructions are placed in plan order, each on the lane where the cost model has it
    finish first (a predecessor on another lane adds a hand-off); cheap ones follow their
    latest-finishing predecessor, so chains of small ops stay on one lane."""

    __slots__ = ("order", "waits", "signalled", "frees")

    def __init__(self, info, workers):
        preds, seconds, cheap = info.preds, info.seconds, info.cheap
        lane_of, finish, free_at = [], [], [0.0] * workers
        for i, ps in enumerate(preds):
            ready = max((finish[p] for p in ps), default=0.0)

            def start_on(k):
                """When instruction i can start on lane k: once the lane is free and its
                inputs are ready (a hand-off later if one comes from another lane)."""
                handoff = HANDOFF_SECONDS if any(lane_of[p] != k for p in ps) else 0.0
                return max(free_at[k], ready + handoff)
            if cheap[i] and ps:
                lane = lane_of[max(ps, key=finish.__getitem__)]
            else:
                lane = min(range(workers), key=start_on)
            start = start_on(lane)
            lane_of.append(lane)
            finish.append(start + seconds[i])
            free_at[lane] = finish[-1]
        self.order = [[i for i, lane in enumerate(lane_of) if lane == k]
                      for k in range(workers)]
        self.waits = []
        for i, ps in enumerate(preds):
            last = {}
            for p in ps:
                if lane_of[p] != lane_of[i]:
                    last[lane_of[p]] = max(p, last.get(lane_of[p], -1))
            self.waits.append(tuple(sorted(last.values())))
        self.signalled = sorted({p for w in self.waits for p in w})
        self.frees = [list(d) for d in info.dead]
        readers = {}
        for i, released in enumerate(info.releases):
            for vid, slot in released:
                readers.setdefault((vid, slot), []).append(i)
        for (_, slot), rs in readers.items():
            if len({lane_of[r] for r in rs}) == 1:
                self.frees[max(rs)].append(slot)
        self.frees = [tuple(f) for f in self.frees]


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
    """(releases: the (version, slot) each instruction reads, dead: the outputs nothing
    reads): a version's slot is free once its readers are done."""
    current, readers_of = {}, []
    releases, dead = [[] for _ in bounds], [[] for _ in bounds]

    def new_version(s, i):
        current[s] = len(readers_of)
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
        for i in readers:
            releases[i].append((vid, s))
        if not readers and not overwriters and writer >= 0:
            dead[writer].append(s)
    return [tuple(r) for r in releases], [tuple(d) for d in dead]


def parallel_info(nodes, bounds, slots, block, pinned):
    """Everything the parallel scheduler needs beyond the sequential code."""
    preds = _edges(bounds, slots)
    releases, dead = _versions(bounds, slots, pinned)
    seconds = [op_seconds(node, block, OPS) for node in nodes]
    cheap = [s < OFFLOAD_SECONDS for s in seconds]
    return ParallelInfo([tuple(sorted(p)) for p in preds], cheap, releases, dead, seconds,
                        _critical_path(preds, seconds))
