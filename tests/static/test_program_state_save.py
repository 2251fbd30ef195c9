"""paddle.save(program.state_dict()) of a static Program, and back: the entries are
LoDTensors again, and set_state_dict restores the values."""
import numpy as np

import sampan as paddle
from sampan import static
from sampan.executor.scope import LoDTensor


def test_program_state_dict_round_trips_through_save(tmp_path):
    paddle.enable_static()
    try:
        main, start = static.Program(), static.Program()
        with static.program_guard(main, start):
            x = static.data("x", [None, 3], "float32")
            y = static.nn.fc(x, 2)
        exe = static.Executor()
        exe.run(start)
        feed = {"x": np.ones((1, 3), "float32")}
        before = exe.run(main, feed=feed, fetch_list=[y])[0]
        paddle.save(main.state_dict(), str(tmp_path / "p.pdparams"))
        exe.run(start)  # new random weights
        loaded = paddle.load(str(tmp_path / "p.pdparams"))
        assert all(isinstance(v, LoDTensor) for v in loaded.values())
        main.set_state_dict(loaded)
        np.testing.assert_array_equal(exe.run(main, feed=feed, fetch_list=[y])[0], before)
        arrays = paddle.load(str(tmp_path / "p.pdparams"), return_numpy=True)
        assert all(isinstance(v, np.ndarray) for v in arrays.values())
    finally:
        paddle.disable_static()
