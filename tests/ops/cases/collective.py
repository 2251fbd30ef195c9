"""Cases for the communication ops in a process started alone (a group of one rank:
each op's single-rank meaning). Their multi-rank values are checked by real jobs in
tests/distributed (collective ops in Programs, send_v2 / recv_v2 in partitioned ones)."""
import numpy as np

from tests.ops.case import OpCase, rand

X = rand(3, 4)
_same = lambda x, **attrs: x  # noqa: E731

CASES = [
    *[OpCase(op, {"x": X}, ref=_same) for op in
      ("c_allreduce_sum", "c_allreduce_avg", "c_identity", "c_broadcast", "c_allgather",
       "c_reducescatter")],
    *[OpCase(op, {"x": X}, ref=_same, grad=()) for op in
      ("c_allreduce_max", "c_allreduce_min", "c_allreduce_prod")],
    OpCase("c_allgather", {"x": np.float64(2.5) * np.ones(())}, {"nranks": 1},
           ref=lambda x, **attrs: x.reshape(1), grad=(), name="scalar"),
]
CASES.append(OpCase("c_sync_comm_stream", {"x": [X, rand(2)]},
                    ref=lambda x, **attrs: tuple(x), grad=()))
