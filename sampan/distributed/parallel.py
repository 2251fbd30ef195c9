"""DataParallel: the same model on every rank, each on its share of the batch, with the
gradients averaged over the ranks during backward (reducer.py), so every rank takes the
same optimizer step one process would take on the whole batch."""
import contextlib

import numpy as np

from ..eager.grad_mode import is_grad_enabled
from ..eager.tensor import Tensor
from ..nn.layer.layers import Layer
from .comm.group import resolve_group
from .reducer import GradientReducer

__all__ = ["DataParallel", "sync_params_buffers"]

_MB = 1024 * 1024


def _tensors_in(value):
    """The Tensors in a (nested) forward result."""
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _tensors_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors_in(item)


def sync_params_buffers(layer, group, src_rank=0):
    """Copy rank `src_rank`'s parameters and buffers into every rank's `layer` (one
    broadcast per dtype); a rank whose layer differs raises, naming the difference."""
    tensors = list(layer.state_dict().items())
    group.check_same("DataParallel", (("parameters and buffers", tuple(
        (name, tuple(t.shape), str(t.dtype)) for name, t in tensors)),))
    by_dtype = {}
    for _, t in tensors:
        by_dtype.setdefault(t._data.dtype, []).append(t)
    root = group.get_group_rank(src_rank)
    for dtype, members in by_dtype.items():
        flat = np.concatenate([np.ravel(t._data) for t in members])
        group.comm.bcast(flat, root).wait()
        offset = 0
        for t in members:
            t._set_data(flat[offset:offset + t._data.size].reshape(t._data.shape).copy())
            offset += t._data.size


class DataParallel(Layer):
    """Data-parallel training of `layers` (Paddle's `paddle.DataParallel`).

    At construction every rank takes rank 0's parameters and buffers. In each backward
    the gradients of the trainable parameters are averaged over the ranks in buckets of
    `comm_buffer_size` MB (the first one `last_comm_buffer_size` MB), each reduced
    asynchronously as soon as its gradients are final; all are in `.grad` when
    `backward()` returns. Parameters a rank did not use contribute zero; those no rank
    used keep their gradient (so `find_unused_parameters` is accepted but never needed).
    Inside `no_sync()` gradients accumulate locally; the next synchronised backward
    averages the accumulated sums. With one rank nothing is communicated.

    Example:
        dist.init_parallel_env()
        model = paddle.DataParallel(Net())
        loss = loss_fn(model(x), y); loss.backward(); opt.step(); opt.clear_grad()
    """

    def __init__(self, layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
                 find_unused_parameters=False, group=None):
        super().__init__()
        if not isinstance(layers, Layer):
            raise TypeError(f"DataParallel: layers must be a paddle.nn.Layer, got "
                            f"{type(layers).__name__}")
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self.group = resolve_group(group)
        self._grad_sync = True
        self._reducer = None
        if self.group.nranks > 1:
            sync_params_buffers(layers, self.group, self.group.ranks[0])
            params = [p for p in layers.parameters() if not p.stop_gradient]
            self._reducer = GradientReducer(params, self.group.comm.dup(),
                                            int(comm_buffer_size * _MB),
                                            int(last_comm_buffer_size * _MB))

    def forward(self, *inputs, **kwargs):
        outputs = self._layers(*inputs, **kwargs)
        if self._reducer is not None and self._grad_sync and is_grad_enabled():
            tensors = [t for t in _tensors_in(outputs) if not t.stop_gradient]
            if tensors:
                self._reducer.prepare(tensors)
        return outputs

    @contextlib.contextmanager
    def no_sync(self):
        """Backward passes inside accumulate gradients locally, without communication."""
        previous, self._grad_sync = self._grad_sync, False
        try:
            yield
        finally:
            self._grad_sync = previous

    def scale_loss(self, loss):
        """Paddle 2.0 API: the loss unchanged (gradients are averaged, not summed)."""
        return loss

    def apply_collective_grads(self):
        """Paddle 2.0 API: nothing to do, backward already averaged the gradients."""

    def state_dict(self, *args, **kwargs):
        return self._layers.state_dict(*args, **kwargs)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name)

    set_dict = load_dict = set_state_dict
