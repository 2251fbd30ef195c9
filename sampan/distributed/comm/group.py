"""Process groups: the world and the groups `new_group` makes, each with its communicator.

The world communicator is MPI_COMM_WORLD when an MPI launcher started several processes
(mpi4py is imported then, and only then), else a `SoloComm`. Group ids are given in
creation order, which is the same on every rank because `new_group` is collective.
"""
from ...core.process_env import launched_world_size, under_mpi
from .communicator import MpiComm, SoloComm
from .mpi_runtime import install_abort_on_failure, load_mpi

__all__ = ["Group", "world_group", "new_group", "get_group", "destroy_process_group",
           "resolve_group", "CollectiveMismatchError"]


class CollectiveMismatchError(ValueError):
    """The ranks of a group called a collective with different tensors or arguments."""


class Group:
    """A set of global ranks that communicate together (Paddle's `Group`)."""

    def __init__(self, rank_in_group, id, ranks, comm=None, name=None):
        self.rank, self.id, self.ranks = rank_in_group, id, list(ranks)
        self.comm, self.name = comm, name

    @property
    def nranks(self):
        return len(self.ranks)

    world_size = nranks

    @property
    def process_group(self):
        return self.comm

    @property
    def backend(self):
        return "mpi" if isinstance(self.comm, MpiComm) else "solo"

    def is_member(self):
        """True when this process belongs to the group."""
        return self.rank >= 0

    def get_group_rank(self, rank):
        """The group rank of global rank `rank` (-1 when it is not a member)."""
        return self.ranks.index(rank) if rank in self.ranks else -1

    def get_global_rank(self, group_rank):
        """The global rank of the group's rank `group_rank`."""
        return self.ranks[group_rank]

    def check_same(self, what, header):
        """Raise CollectiveMismatchError on every rank unless every rank of the group
        passed an equal `header` (a small tuple describing its call)."""
        headers = self.comm.allgather_object(header)
        if any(h != headers[0] for h in headers):
            described = "; ".join(f"rank {self.ranks[i]}: {_describe(h)}"
                                  for i, h in enumerate(headers))
            raise CollectiveMismatchError(
                f"{what}: the ranks of group {self.id} called it with different "
                f"arguments ({described})")

    def __repr__(self):
        return (f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: "
                f"{', '.join(map(str, self.ranks))}; name: {self.name or 'None'}")


def _describe(header):
    return ", ".join(f"{k}={v}" for k, v in header)


_groups = {}


def world_group():
    """The group of every process of the job (created on first use)."""
    group = _groups.get(0)
    if group is None:
        if under_mpi():
            mpi = load_mpi()
            comm = MpiComm(mpi.COMM_WORLD, mpi)
            install_abort_on_failure(comm.rank)
        else:
            if launched_world_size() > 1:
                raise RuntimeError(
                    f"PADDLE_TRAINERS_NUM={launched_world_size()} but this process was not "
                    f"started by mpiexec: start the job with `python -m "
                    f"sampan.distributed.launch --nproc_per_node N script.py`")
            comm = SoloComm()
        group = _groups[0] = Group(comm.rank, 0, range(comm.size), comm, "_default_pg")
    return group


def new_group(ranks=None, backend=None, timeout=None, nccl_comm_init_option=0,
              nccl_config=None):
    """A group of the global `ranks` (every process must call it, members or not).

    Example: `g = dist.new_group([0, 1]); dist.all_reduce(t, group=g)`.
    """
    world = world_group()
    ranks = sorted(set(range(world.nranks) if ranks is None else ranks))
    bad = [r for r in ranks if not 0 <= r < world.nranks]
    if bad or not ranks:
        raise ValueError(f"new_group: ranks {ranks} must be a non-empty list of ranks in "
                         f"[0, {world.nranks})")
    world.check_same("new_group", (("ranks", ranks),))
    comm = world.comm.split(ranks)
    gid = max(_groups) + 1
    group = Group(ranks.index(world.rank) if world.rank in ranks else -1, gid, ranks, comm)
    _groups[gid] = group
    return group


def get_group(id=0):
    """The group with this id (0: the world)."""
    if id == 0:
        return world_group()
    if id not in _groups:
        raise ValueError(f"get_group: no group with id {id} (known: {sorted(_groups)})")
    return _groups[id]


def destroy_process_group(group=None):
    """Forget `group` (every group, the world's included, when None)."""
    if group is None:
        _groups.clear()
    else:
        _groups.pop(group.id, None)


def resolve_group(group):
    """`group`, or the world when None."""
    return world_group() if group is None else group
