"""interpolate and sequence_mask when a static Program knows sizes only at run time
(InputSpec with None dims under to_static): results and gradients equal eager's for
several input sizes through one compiled program."""
import numpy as np
import pytest

import sampan as paddle
import sampan.nn.functional as F
from sampan.static import InputSpec

RNG = np.random.default_rng(0)


def _agree(fn, spec, *shapes, dtype="float32"):
    """fn converted once with `spec` gives eager's values and input gradients at each shape."""
    static = paddle.jit.to_static(fn, input_spec=[spec])
    for shape in shapes:
        data = RNG.random(shape).astype(dtype)
        want_x = paddle.to_tensor(data, stop_gradient=False)
        got_x = paddle.to_tensor(data, stop_gradient=False)
        want, got = fn(want_x), static(got_x)
        assert got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)
        (want * want).sum().backward()
        (got * got).sum().backward()
        np.testing.assert_allclose(got_x.grad.numpy(), want_x.grad.numpy(), rtol=1e-4,
                                   atol=1e-5)


SPEC_2D = InputSpec([None, 2, None, None], "float32")


@pytest.mark.parametrize("mode, align_corners", [("nearest", False), ("bilinear", False),
                                                  ("bilinear", True)])
def test_interpolate_by_scale(mode, align_corners):
    _agree(lambda x: F.interpolate(x, scale_factor=2, mode=mode, align_corners=align_corners),
           SPEC_2D, [1, 2, 3, 4], [2, 2, 5, 2])


@pytest.mark.parametrize("align_mode", [0, 1])
def test_interpolate_to_run_time_sizes(align_mode):
    def fn(x):
        return F.interpolate(x, size=[x.shape[2] * 2 - 1, x.shape[3] + 1], mode="bilinear",
                             align_mode=align_mode)
    _agree(fn, SPEC_2D, [1, 2, 3, 4], [2, 2, 4, 3])


def test_interpolate_nearest_downsamples_and_linear_1d():
    _agree(lambda x: F.interpolate(x, scale_factor=0.5, mode="nearest"), SPEC_2D,
           [1, 2, 4, 6], [1, 2, 8, 2])
    _agree(lambda x: F.interpolate(x, size=[x.shape[2] + 3], mode="linear",
                                   data_format="NCW"),
           InputSpec([None, 2, None], "float32"), [1, 2, 3], [2, 2, 6])


@pytest.mark.parametrize("maxlen", [None, 6])
def test_sequence_mask_width_follows_the_data(maxlen):
    static = paddle.jit.to_static(lambda x: F.sequence_mask(x, maxlen=maxlen),
                                  input_spec=[InputSpec([None], "int64")])
    for lengths in ([3, 1, 4], [2, 5]):
        x = paddle.to_tensor(lengths)
        want = F.sequence_mask(x, maxlen=maxlen)
        np.testing.assert_array_equal(static(x).numpy(), want.numpy())
