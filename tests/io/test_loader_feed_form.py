"""DataLoader(feed_list=..., return_list=False) yields Paddle's feed form, a list of one
{name: Tensor} dict, which Executor.run takes as its feed."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static


class Rows(paddle.io.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return np.full(3, i, "float32"), np.array([i % 2], "int64")


@pytest.mark.parametrize("num_workers", [0, 1])
def test_executor_runs_the_batches_of_a_feed_list_loader(num_workers):
    paddle.enable_static()
    try:
        main, start = static.Program(), static.Program()
        with static.program_guard(main, start):
            x = static.data("x", [None, 3], "float32")
            label = static.data("label", [None, 1], "int64")
            total = paddle.sum(x, axis=1) + paddle.cast(label, "float32").squeeze(1)
        loader = paddle.io.DataLoader(Rows(), feed_list=[x, label], batch_size=2,
                                      return_list=False, num_workers=num_workers)
        exe = static.Executor()
        exe.run(start)
        batches = list(loader())
        assert all(isinstance(b, list) and sorted(b[0]) == ["label", "x"] for b in batches)
        sums = [exe.run(main, feed=b, fetch_list=[total])[0] for b in batches]
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(np.concatenate(sums), [0.0, 4.0, 6.0, 10.0])


def test_a_feed_of_several_places_is_refused():
    paddle.enable_static()
    try:
        with pytest.raises(TypeError, match="a list of one such dict, got list of 2 items"):
            static.Executor().run(static.Program(), feed=[{}, {}])
    finally:
        paddle.disable_static()


def test_return_list_false_without_feed_list_keeps_lists():
    batch = next(iter(paddle.io.DataLoader(Rows(), batch_size=2, return_list=False)))
    assert isinstance(batch, list) and batch[0].shape == [2, 3]
