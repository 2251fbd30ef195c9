"""paddle.set_flags / get_flags (also under paddle.base): known flags, Paddle's stride-kernel
switch accepted, unknown names refused."""
import pytest

import sampan as paddle


def test_base_exports_the_same_flag_functions():
    assert paddle.base.set_flags is paddle.set_flags
    assert paddle.base.get_flags is paddle.get_flags


def test_stride_kernel_flag_is_accepted_and_read_back():
    assert paddle.get_flags("FLAGS_use_stride_kernel") == {"FLAGS_use_stride_kernel": True}
    paddle.base.set_flags({"FLAGS_use_stride_kernel": False})
    try:
        assert paddle.get_flags(["FLAGS_use_stride_kernel"])["FLAGS_use_stride_kernel"] is False
    finally:
        paddle.set_flags({"FLAGS_use_stride_kernel": True})


def test_unknown_flag_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown flag 'FLAGS_no_such'.*FLAGS_check_nan_inf"):
        paddle.set_flags({"FLAGS_no_such": 1})
