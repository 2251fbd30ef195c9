"""A matmul of two operands declared 2-D without transposes runs as np.dot itself in
compiled plans (what its kernel calls for them): the same bits, two Python calls fewer.
Other matmuls keep the kernel."""
import numpy as np
import pytest

import sampan
from sampan import static
from sampan.executor import Executor, compile
from sampan.ops.kernels.reduce_linalg import matmul as matmul_kernel


def _program(x_shape, y_shape, **attrs):
    main, startup = static.Program(), static.Program()
    sampan.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", x_shape, "float32")
            y = static.data("y", y_shape, "float32")
            out = sampan.matmul(x, y, **attrs)
    finally:
        sampan.disable_static()
    return main, out


@pytest.mark.parametrize("x_shape, y_shape, attrs, plain", [
    ([-1, 6], [6, 3], {}, True),
    ([4, 6], [3, 6], {"transpose_y": True}, False),
    ([2, 4, 6], [6, 3], {}, False),
    ([6], [6, 3], {}, False)])
def test_plain_matmuls_bind_np_dot_and_match_the_kernel(x_shape, y_shape, attrs, plain):
    main, out = _program(x_shape, y_shape, **attrs)
    plan = compile(main, ["x", "y"], [out.name])
    assert (np.dot in [fn for fn, *_ in plan.code]) == plain
    rng = np.random.default_rng(0)
    x = rng.standard_normal([4 if d < 0 else d for d in x_shape]).astype("float32")
    y = rng.standard_normal(y_shape).astype("float32")
    (got,) = Executor().run(main, feed={"x": x, "y": y}, fetch_list=[out])
    want = matmul_kernel(x, y, attrs.get("transpose_x", False),
                         attrs.get("transpose_y", False))
    assert got.tobytes() == np.asarray(want).tobytes()
