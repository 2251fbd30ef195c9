"""DataLoader worker processes: the loop each worker runs and the pool the main process drives.

Protocol: the main process puts `(epoch, task_id, payload)` on a worker's own index queue (`None`
asks it to exit); the worker answers `(epoch, task_id, kind, body)` on the shared result queue with
kind "data" (a pickled NumPy batch), "end" (its stream is exhausted) or "error" (a WorkerFailure).
Batches are pickled inside the worker so an unpicklable batch becomes an error, not a hang.
"""
import os
import pickle
import queue
import random
import signal
import time
import traceback

import numpy as np

from ...core import random as _random
from .collate import to_numpy
from .fetcher import END

__all__ = ["WorkerInfo", "get_worker_info", "WorkerPool"]

_POLL_SECONDS = 0.5  # how often blocked waits check that the other side is still alive
_JOIN_SECONDS = 5.0  # grace period for workers to exit before they are terminated
_info = None


class WorkerInfo:
    """What a worker knows about itself: `id`, `num_workers`, `seed` and its `dataset` copy."""

    def __init__(self, id, num_workers, seed, dataset):  # noqa: A002 (Paddle's attribute name)
        self.id, self.num_workers, self.seed, self.dataset = id, num_workers, seed, dataset

    def __repr__(self):
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


def get_worker_info():
    """Inside a DataLoader worker, its `WorkerInfo` (to shard iterable datasets); else None."""
    return _info


def _picklable(obj):
    """Whether `obj` survives pickling (exception classes defined in functions do not)."""
    try:
        pickle.dumps(obj)
    except Exception:  # noqa: BLE001 (any pickling failure means "no")
        return False
    return True


class WorkerFailure:
    """An exception raised in a worker, carried to the main process as type + traceback text."""

    def __init__(self, worker_id, error):
        self.worker_id = worker_id
        self.exc_type = type(error) if _picklable(type(error)) else RuntimeError
        self.type_name = type(error).__name__
        self.text = traceback.format_exc()

    def reraise(self):
        """Raise it in the main process: same type when possible, naming the worker."""
        message = (f"DataLoader worker {self.worker_id} raised {self.type_name}.\n"
                   f"Original traceback:\n{self.text}")
        try:
            error = self.exc_type(message)
        except Exception:  # noqa: BLE001 (types whose constructor needs other arguments)
            error = RuntimeError(message)
        raise error


def _seed_worker(seed):
    """Seed sampan's generator and the legacy NumPy/`random` ones for this worker."""
    _random.seed(seed)
    np.random.seed(seed % 2**32)
    random.seed(seed)


def _initialize(init_fn, worker_id):
    """Run `worker_init_fn`; a failure is kept and reported for every task."""
    try:
        if init_fn is not None:
            init_fn(worker_id)
    except Exception as error:  # noqa: BLE001 (re-raised in the main process)
        return ("error", WorkerFailure(worker_id, error))
    return None


def _run_task(fetcher, payload, worker_id):
    """One answer `(kind, body)` for a task."""
    try:
        batch = fetcher.fetch(payload)
        if batch is END:
            return ("end", None)
        return ("data", pickle.dumps(to_numpy(batch), protocol=pickle.HIGHEST_PROTOCOL))
    except Exception as error:  # noqa: BLE001 (re-raised in the main process)
        return ("error", WorkerFailure(worker_id, error))


def _next_task(index_queue, parent_pid):
    """The next task, or None when asked to stop or when the main process has died."""
    while os.getppid() == parent_pid:
        try:
            return index_queue.get(timeout=_POLL_SECONDS)
        except queue.Empty:
            continue
    return None


def worker_loop(fetcher, index_queue, result_queue, info, init_fn, parent_pid):
    """A worker's life: seed, init, then answer tasks until told to stop."""
    global _info
    _info = info
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    _seed_worker(info.seed)
    result_queue.cancel_join_thread()  # exiting must not wait for the main process to read
    failure = _initialize(init_fn, info.id)
    epoch = None
    while (task := _next_task(index_queue, parent_pid)) is not None:
        task_epoch, task_id, payload = task
        if task_epoch != epoch:
            epoch = task_epoch
            fetcher.reset()
        answer = failure or _run_task(fetcher, payload, info.id)
        result_queue.put((task_epoch, task_id) + answer)


def _context():
    """'fork' where the platform has it (fast, no pickling of the dataset), else 'spawn'
    (multiprocessing is imported here, when workers start: it costs import time)."""
    import multiprocessing
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


class WorkerPool:
    """Worker processes with their queues; the owner calls `shutdown` (also via a finalizer)."""

    def __init__(self, make_fetcher, num_workers, base_seed, init_fn, timeout):
        context = _context()
        self.timeout, self.epoch, self.closed = timeout, 0, False
        self._owner_pid = os.getpid()
        self._results = context.Queue()
        self._index_queues = [context.Queue() for _ in range(num_workers)]
        self._workers = [self._start(context, i, make_fetcher(), base_seed, init_fn)
                         for i in range(num_workers)]

    def _start(self, context, worker_id, fetcher, base_seed, init_fn):
        """Launch worker `worker_id` (a daemon, so it never outlives the main process)."""
        info = WorkerInfo(worker_id, len(self._index_queues), base_seed + worker_id,
                          fetcher.dataset)
        process = context.Process(
            target=worker_loop, daemon=True, name=f"sampan-dataloader-{worker_id}",
            args=(fetcher, self._index_queues[worker_id], self._results, info, init_fn,
                  os.getpid()))
        process.start()
        return process

    @property
    def num_workers(self):
        """How many workers the pool runs."""
        return len(self._workers)

    def new_epoch(self):
        """Start an epoch: answers tagged with older epochs will be ignored."""
        self.epoch += 1
        return self.epoch

    def send(self, worker_id, task_id, payload):
        """Give worker `worker_id` a task of the current epoch."""
        self._index_queues[worker_id].put((self.epoch, task_id, payload))

    def receive(self):
        """The next answer of the current epoch `(task_id, kind, body)`; raises on timeout/death."""
        deadline = time.monotonic() + self.timeout if self.timeout > 0 else None
        while True:
            wait = _POLL_SECONDS if deadline is None \
                else max(0.0, min(_POLL_SECONDS, deadline - time.monotonic()))
            try:
                epoch, task_id, kind, body = self._results.get(timeout=wait)
            except queue.Empty:
                self._check_alive(deadline)
                continue
            if epoch == self.epoch:
                return task_id, kind, body

    def _check_alive(self, deadline):
        """Raise if a worker died or the timeout passed (after shutting the pool down)."""
        dead = [(i, p) for i, p in enumerate(self._workers) if not p.is_alive()]
        if dead:
            self.shutdown(grace=0)
            worker_id, process = dead[0]
            raise RuntimeError(f"DataLoader worker {worker_id} (pid {process.pid}) exited "
                               f"unexpectedly with exit code {process.exitcode}")
        if deadline is not None and time.monotonic() >= deadline:
            self.shutdown(grace=0)
            raise RuntimeError(f"DataLoader timed out: no batch within {self.timeout} seconds")

    def shutdown(self, grace=_JOIN_SECONDS):
        """Stop the workers (asked to exit, terminated after `grace` seconds); close the queues."""
        if self.closed or os.getpid() != self._owner_pid:
            return
        self.closed = True
        for index_queue, process in zip(self._index_queues, self._workers):
            if process.is_alive():
                index_queue.put(None)
        deadline = time.monotonic() + grace
        for process in self._workers:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.terminate()
                process.join()
        for channel in self._index_queues + [self._results]:
            channel.cancel_join_thread()
            channel.close()
