"""paddle.finfo / paddle.iinfo against NumPy's limits."""
import numpy as np
import pytest

import sampan as paddle


@pytest.mark.parametrize("dtype", [paddle.float16, paddle.float32, "float64", np.float32])
def test_finfo_matches_numpy(dtype):
    ref = np.finfo(paddle.core.dtype.to_dtype(dtype).np)
    info = paddle.finfo(dtype)
    assert (info.bits, info.eps, info.max, info.min) == (ref.bits, ref.eps, ref.max, ref.min)
    assert info.tiny == info.smallest_normal == ref.smallest_normal
    assert info.dtype == ref.dtype.name
    assert info.resolution == 10.0 ** -ref.precision


def test_finfo_paddle_values():
    info = paddle.finfo(paddle.float32)
    assert info.resolution == 1e-06 and info.eps == 1.1920928955078125e-07
    assert isinstance(info.max, float) and info.dtype == "float32"
    assert paddle.finfo(paddle.complex128).dtype == "float64"
    assert paddle.finfo("bfloat16").bits == 16


@pytest.mark.parametrize("dtype", ["uint8", paddle.int8, paddle.int16, paddle.int32, "int64"])
def test_iinfo_matches_numpy(dtype):
    ref = np.iinfo(paddle.core.dtype.to_dtype(dtype).np)
    info = paddle.iinfo(dtype)
    assert (info.bits, info.min, info.max, info.dtype) == (ref.bits, ref.min, ref.max, ref.dtype.name)


def test_wrong_kind_raises():
    with pytest.raises(TypeError):
        paddle.finfo(paddle.int32)
    with pytest.raises(TypeError):
        paddle.iinfo(paddle.float32)
