"""In-place Tensor methods and paddle.*_ functions: identity, values, autograd, static."""
import numpy as np
import pytest

import sampan as paddle
from tests.api._check import check_static, tensor

rng = np.random.default_rng(0)
X = rng.uniform(0.5, 2.0, (2, 3))
Y = rng.uniform(0.5, 2.0, (3,))

SAME_SHAPE = [
    ("add_", (tensor(Y),), lambda x: x + Y),
    ("subtract_", (tensor(Y),), lambda x: x - Y),
    ("multiply_", (tensor(Y),), lambda x: x * Y),
    ("divide_", (tensor(Y),), lambda x: x / Y),
    ("pow_", (2.0,), lambda x: x ** 2),
    ("scale_", (2.0, 1.0), lambda x: 2 * x + 1),
    ("scale_", (2.0, 1.0, False), lambda x: 2 * (x + 1)),
    ("clip_", (0.8, 1.5), lambda x: np.clip(x, 0.8, 1.5)),
    ("exp_", (), np.exp),
    ("sqrt_", (), np.sqrt),
    ("rsqrt_", (), lambda x: 1 / np.sqrt(x)),
    ("tanh_", (), np.tanh),
    ("floor_", (), np.floor),
    ("ceil_", (), np.ceil),
    ("reciprocal_", (), lambda x: 1 / x),
    ("zero_", (), np.zeros_like),
    ("fill_", (7,), lambda x: np.full_like(x, 7)),
    ("copy_", (tensor(Y),), lambda x: np.broadcast_to(Y, x.shape)),
    ("masked_fill_", (tensor(X > 1), -1.0), lambda x: np.where(X > 1, -1.0, x)),
]


@pytest.mark.parametrize("name,args,ref", SAME_SHAPE, ids=[c[0] for c in SAME_SHAPE])
def test_method_updates_the_same_object(name, args, ref):
    """x.<op>_(...) returns x itself, now holding the op's result."""
    x = tensor(X.copy())
    out = getattr(x, name)(*args)
    assert out is x and x.shape == [2, 3] and x.dtype == paddle.float64
    np.testing.assert_allclose(x.numpy(), ref(X), rtol=1e-12)


@pytest.mark.parametrize("name,args,shape", [
    ("reshape_", ([3, 2],), [3, 2]), ("squeeze_", ([0],), [3]),
    ("unsqueeze_", ([0],), [1, 1, 3]), ("flatten_", (), [3])])
def test_shape_methods_in_place(name, args, shape):
    """reshape_/squeeze_/unsqueeze_/flatten_ change x's own shape."""
    x = tensor(X.copy()) if name == "reshape_" else tensor(X[:1].copy())
    assert getattr(x, name)(*args) is x and x.shape == shape


def test_functions_exist_at_top_level():
    """Paddle's top-level in-place functions take x first."""
    x = tensor(X.copy())
    assert paddle.add_(x, tensor(Y)) is x and paddle.clip_(x, max=1.0) is x
    assert x.numpy().max() <= 1.0


def test_random_fills_keep_shape_and_dtype():
    """uniform_ stays in [min, max); normal_ has the requested moments."""
    x = paddle.zeros([200, 50])
    assert x.uniform_(min=2.0, max=3.0) is x and x.dtype == paddle.float32
    assert 2.0 <= x.numpy().min() and x.numpy().max() < 3.0
    x.normal_(mean=1.0, std=0.5)
    assert abs(x.numpy().mean() - 1.0) < 0.02 and abs(x.numpy().std() - 0.5) < 0.02


def test_leaf_requiring_grad_refuses_then_allows_under_no_grad():
    """Paddle's rule: in-place on such a leaf raises; under no_grad it writes the values."""
    w = paddle.create_parameter([3], "float64")
    with pytest.raises(ValueError, match="Leaf Tensor .* can't use inplace strategy"):
        w.add_(tensor(Y))
    with paddle.no_grad():
        assert w.fill_(2.0) is w
    assert w.numpy().tolist() == [2.0] * 3 and not w.stop_gradient and w.is_leaf


def test_non_leaf_in_place_is_recorded():
    """Gradients flow through in-place ops on non-leaf tensors."""
    a = tensor(X, grad=True)
    b = a * 2
    b.add_(a)
    b.exp_()
    b.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), 3 * np.exp(3 * X), rtol=1e-12)
    c = tensor(X, grad=True)
    d = c * 1
    d.zero_()
    (d + c).sum().backward()
    np.testing.assert_allclose(c.grad.numpy(), np.ones_like(X))


def test_bad_inputs_raise():
    """Broadcasting that would change x's shape, or a dtype change, is refused."""
    with pytest.raises(ValueError, match="broadcast output shape"):
        tensor(Y.copy()).add_(tensor(X))
    with pytest.raises(TypeError, match="dtype"):
        tensor(np.arange(3)).add_(tensor(Y))


def test_static_in_place_renames():
    """In static mode the Variable object takes over the op's output."""
    def fn(x, y):
        z = x * 1.0
        z.add_(y)
        z.scale_(2.0)
        return z
    check_static(fn, X, Y)


def test_storage_methods():
    """to(dtype/device/other), element_size, is_contiguous, contiguous."""
    x = tensor(X.astype("float32"))
    assert x.element_size() == 4 and paddle.to_tensor([1], "int64").element_size() == 8
    assert x.is_contiguous() and x.contiguous() is x
    assert x.to("cpu") is x and x.to("float32") is x
    assert x.to("float64").dtype == paddle.float64
    assert x.to("cpu", "int32").dtype == paddle.int32
    assert x.to(paddle.CPUPlace(), dtype=paddle.float16).dtype == paddle.float16
    assert x.to(paddle.to_tensor([1], "int64")).dtype == paddle.int64
    assert x.to("float64", blocking=False).dtype == paddle.float64
    with pytest.raises(ValueError, match="cpu"):
        x.to("gpu:0")
    y = tensor(X.astype("float32"), grad=True)
    y.to("float64").sum().backward()
    assert y.grad.dtype == paddle.float32
