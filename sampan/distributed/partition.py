"""Program partition for pipeline parallelism: one Program per rank, joined by send_v2 /
recv_v2 pairs on every edge of the graph that crosses ranks (docs/distributed.md).

Stages. An op built under `static.device_guard("cpu:K")` (or "gpu:K") runs on rank K;
gradient ops inherit their forward op's device (static/backward.py). An op without one
(optimizer updates, gradient sums) runs where the latest of its inputs is made, and an op
reading only feeds and persistables runs where its first reader does.

Cut edges. The ops are walked in program order, tracking which ranks hold the current
value of each variable (feeds, persistables and never-written variables: every rank).
When an op on rank s reads a value only rank t holds, rank t gets a send_v2 and rank s a
recv_v2 at that point of the order, both tagged with the edge's number (deterministic:
the same on every rank). Each rank's Program keeps its ops in the global order.

Why no rank can wait forever. A send never blocks (send_v2 starts the transfer and
returns); only a receive waits, and the matching send sits at the same position of the
global order in the sender's program. Take the receive with the earliest position among
those waiting: its sender is not blocked before that position (that would be an earlier
waiting receive), so it reaches the send and the receive completes. Each rank ends with a
c_sync_comm_stream that waits for its own sends to be delivered.
"""
from ..static.framework import Program

__all__ = ["op_stages", "partition_program"]


def _declared_stage(op):
    device = op.attrs.get("op_device")
    if device is None or ":" not in device:
        return None
    return int(device.rpartition(":")[2])


def op_stages(ops):
    """The stage (rank) of each op of `ops` (see the module docstring)."""
    stages = [_declared_stage(op) for op in ops]
    made_on = {}
    for i, op in enumerate(ops):
        if stages[i] is None:
            found = [made_on[n] for n in op.input_arg_names if n in made_on]
            stages[i] = max(found) if found else None
        if stages[i] is not None:
            for name in op.output_arg_names:
                made_on[name] = stages[i]
    for i in reversed(range(len(ops))):
        if stages[i] is None:
            outputs = set(ops[i].output_arg_names)
            readers = [stages[j] for j in range(i + 1, len(ops)) if stages[j] is not None
                       and outputs.intersection(ops[j].input_arg_names)]
            stages[i] = readers[0] if readers else 0
    return stages


class _Parts:
    """The op lists of every rank being built, and the cut edges found so far."""

    def __init__(self, block, nstages, ring_id):
        self.block, self.ring_id = block, ring_id
        self.ops = [[] for _ in range(nstages)]
        self.sent = [[] for _ in range(nstages)]
        self.holders, self.edges = {}, 0
        self.persistable_use = {}  # name -> (stages reading, stages writing)

    def read(self, name, stage):
        """Make the current value of `name` available on `stage` before `op` runs."""
        holders = self.holders.get(name)
        if holders is None or stage in holders:
            return
        var = self.block.var(name)
        source = min(holders)
        tag, self.edges = self.edges, self.edges + 1
        sent = f"{name}@SENT@{tag}"
        common = {"ring_id": self.ring_id, "use_calc_stream": False, "tag": tag}
        shape = tuple(var.shape)
        self.ops[source].append(("send_v2", {"x": [name]}, {"out": [sent]},
                                 {**common, "peer": stage, "dynamic_shape": False,
                                  "op_device": f"cpu:{source}"}))
        self.sent[source].append((sent, var))
        self.ops[stage].append(("recv_v2", {}, {"out": [name]},
                                {**common, "peer": source, "out_shape": shape,
                                 "dtype": var.dtype, "dynamic_shape": -1 in shape,
                                 "op_device": f"cpu:{stage}"}))
        holders.add(stage)

    def run(self, op, stage):
        for name in dict.fromkeys(op.input_arg_names):
            self.read(name, stage)
            self._note_persistable(name, stage, 0)
        self.ops[stage].append((op.type, op.inputs, op.outputs, dict(op.attrs), op.origin))
        for name in op.output_arg_names:
            self.holders[name] = {stage}
            self._note_persistable(name, stage, 1)

    def _note_persistable(self, name, stage, writing):
        if self.block.has_var(name) and self.block.var(name).persistable:
            self.persistable_use.setdefault(name, (set(), set()))[writing].add(stage)

    def check_persistables(self):
        """A persistable one rank updates must not be read by another: that rank would
        read a stale value on the next run (a parameter shared between stages)."""
        for name, (readers, writers) in self.persistable_use.items():
            if writers and readers - writers:
                raise NotImplementedError(
                    f"partition: persistable {name!r} is updated on rank(s) {sorted(writers)} "
                    f"but read on rank(s) {sorted(readers - writers)} (parameters shared "
                    f"between stages are not supported)")

    def program(self, source, stage):
        """Rank `stage`'s Program: a copy of `source` holding only its ops."""
        part = source.clone()
        block = part.global_block()
        while block.ops:
            block.remove_op(len(block.ops) - 1)
        for entry in self.ops[stage]:
            block.append_op(*entry[:4], origin=entry[4] if len(entry) > 4 else None)
        for name, var in self.sent[stage]:
            block.create_var(name, var.shape, var.dtype)
        if self.sent[stage]:
            names = [name for name, _ in self.sent[stage]]
            for name, var in self.sent[stage]:
                block.create_var(f"{name}@DELIVERED", var.shape, var.dtype)
            block.append_op("c_sync_comm_stream", {"x": names},
                            {"out": [f"{n}@DELIVERED" for n in names]},
                            {"ring_id": self.ring_id, "op_device": f"cpu:{stage}"})
        return part


def partition_program(program, nstages=None, ring_id=0):
    """Split `program` (forward, backward and updates in its global block) into one
    Program per stage, rank r running part r with its own Executor.

    Args:
        program: the Program whose ops carry stages (static.device_guard("cpu:K")).
        nstages: the number of ranks (default: the highest stage + 1).
        ring_id: the group whose ranks are the stages (0: every rank of the job).
    Returns:
        [Program]: part r for rank r; `str(part)` shows its send_v2 / recv_v2 ops.

    Example:
        with static.device_guard("cpu:0"):
            h = static.nn.fc(x, 16, activation="tanh")
        with static.device_guard("cpu:1"):
            loss = paddle.mean((static.nn.fc(h, 1) - y) ** 2)
        opt.minimize(loss)
        part = partition_program(main)[dist.get_rank()]
    """
    if not isinstance(program, Program):
        raise TypeError(f"partition_program: expected a Program, got {type(program).__name__}")
    block = program.global_block()
    stages = op_stages(block.ops)
    nstages = max(stages, default=0) + 1 if nstages is None else nstages
    if stages and max(stages) >= nstages:
        raise ValueError(f"partition_program: an op is placed on stage {max(stages)} but "
                         f"there are {nstages} stages")
    parts = _Parts(block, nstages, ring_id)
    for op, stage in zip(block.ops, stages):
        parts.run(op, stage)
    parts.check_persistables()
    return [parts.program(program, stage) for stage in range(nstages)]
