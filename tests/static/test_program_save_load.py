"""paddle.save(program) / paddle.load(path) round-trip a static Program (Paddle's
model-saving guide does it), and the loaded Program takes the saved state dict."""
import numpy as np

import sampan as paddle
from sampan import static


def test_program_and_its_state_round_trip(tmp_path):
    paddle.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [None, 5], "float32")
            out = static.nn.fc(x, 3)
        exe = static.Executor()
        exe.run(startup)
        feed = {"x": np.arange(10, dtype="float32").reshape(2, 5)}
        want = exe.run(main, feed=feed, fetch_list=[out])[0]
        paddle.save(main.state_dict(), str(tmp_path / "m.pdparams"))
        paddle.save(main, str(tmp_path / "m.pdmodel"))
        loaded = paddle.load(str(tmp_path / "m.pdmodel"))
        assert isinstance(loaded, static.Program)
        assert [op.type for op in loaded.global_block().ops] == \
            [op.type for op in main.global_block().ops]
        with static.scope_guard(static.Scope()):
            loaded.set_state_dict(paddle.load(str(tmp_path / "m.pdparams")))
            got = static.Executor().run(loaded, feed=feed, fetch_list=[out.name])[0]
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(got, want, rtol=1e-6)
