"""PyLayer under to_static: one static_pylayer op whose blocks come from the converted
forward/backward; trains like eager."""
import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.autograd import PyLayer
from sampan.jit import to_static
from tests.pylayers import CusTanh as cus_tanh, MulAdd


class SimpleNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 8)

    def forward(self, x):
        return paddle.mean(cus_tanh.apply(self.linear(x)))


def train(net, steps=10):
    opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    rng, losses = np.random.RandomState(0), []
    for _ in range(steps):
        loss = net(paddle.to_tensor(rng.randn(2, 4).astype("float32")))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses, [p.numpy() for p in net.parameters()]


def ops(fn):
    program = fn.concrete_program.main_program
    return [op.type for block in program.blocks for op in block.ops]


def test_seed_cus_tanh_trains_like_eager():
    paddle.seed(1)
    eager = SimpleNet()
    static = SimpleNet()
    static.set_state_dict(eager.state_dict())
    static.forward = to_static(static.forward)
    (l1, p1), (l2, p2) = train(eager), train(static)
    np.testing.assert_allclose(l1, l2, rtol=1e-5)
    for a, b in zip(p1, p2):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
    assert ops(static.forward).count("static_pylayer") == 1


def grads_agree(fn, *inputs):
    """fn's outputs and input gradients equal eager's; returns the StaticFunction."""
    def run(f):
        xs = [paddle.to_tensor(np.asarray(v, "float32"), stop_gradient=False) for v in inputs]
        out = f(*xs)
        outs = out if isinstance(out, (list, tuple)) else [out]
        sum(o.sum() for o in outs).backward()
        return [o.numpy() for o in outs] + [x.grad.numpy() for x in xs]
    sf = to_static(fn)
    for a, b in zip(run(fn), run(sf)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    return sf


def test_two_inputs_two_outputs():
    grads_agree(lambda a, b: MulAdd.apply(a * 2, b), [1.0, 2.0], [3.0, -1.0])


class SignScale(PyLayer):
    @staticmethod
    def forward(ctx, x):
        if x.sum() > 0:
            y = x * 3
        else:
            y = x * -2
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        if y.sum() > 0:
            return dy * 3
        return dy * -2


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_tensor_if_in_forward_and_backward(sign):
    sf = grads_agree(lambda x: SignScale.apply(x), [sign, 2 * sign])
    assert "cond" in ops(sf)


def test_used_twice():
    sf = grads_agree(lambda x: cus_tanh.apply(cus_tanh.apply(x) * 2), [0.3, -0.5])
    assert ops(sf).count("static_pylayer") == 2


def test_inside_tensor_while_body():
    def loop(x):
        i = paddle.zeros([], "int64")
        while i < 3:
            x = cus_tanh.apply(x) + 0.5
            i += 1
        return x
    sf = grads_agree(loop, [0.3, -0.5])
    assert "while" in ops(sf)


class Scale(PyLayer):
    @staticmethod
    def forward(ctx, x, factor, power=1):
        ctx.factor = factor * power
        return x * ctx.factor

    @staticmethod
    def backward(ctx, dy):
        return dy * ctx.factor


def test_non_tensor_arguments():
    grads_agree(lambda x: Scale.apply(x, 2.5, power=2), [1.0, -2.0])


class BadCtx(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.kept = x * 2
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


def test_tensor_attribute_on_ctx_points_to_save_for_backward():
    wanted = r"`ctx.kept = tensor` is not allowed.*save_for_backward"
    with pytest.raises(AttributeError, match=wanted):
        to_static(lambda x: BadCtx.apply(x))(paddle.ones([2]))


class _TanhWithExtras(paddle.autograd.PyLayer):
    """Returns non-Tensor values beside its Tensors, as Paddle's PyLayer may."""

    @staticmethod
    def forward(ctx, x, scale):
        y = paddle.tanh(x) * scale
        ctx.save_for_backward(y)
        return 1, None, y, "tag"

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


def _use_extras(x):
    one, nothing, y, tag = _TanhWithExtras.apply(x, 1.0)
    return y * one if nothing is None and tag == "tag" else y


def test_pylayer_forward_with_non_tensor_outputs_under_to_static():
    values = np.array([[0.5, -1.0], [2.0, 0.1]], "float32")
    x_eager = paddle.to_tensor(values, stop_gradient=False)
    _use_extras(x_eager).sum().backward()
    x_static = paddle.to_tensor(values, stop_gradient=False)
    out = paddle.jit.to_static(_use_extras)(x_static)
    out.sum().backward()
    np.testing.assert_allclose(out.numpy(), np.tanh(values), rtol=1e-6)
    np.testing.assert_allclose(x_static.grad.numpy(), x_eager.grad.numpy(), rtol=1e-6)


class _NestedTanh(PyLayer):
    """A list input and a plain input; its backward returns the list's gradients as a list."""

    @staticmethod
    def forward(ctx, pair, z):
        ctx.save_for_backward(pair, z)
        return [paddle.tanh(pair[0]), paddle.tanh(pair[1]), paddle.tanh(z)]

    @staticmethod
    def backward(ctx, da, db, dz):
        pair, z = ctx.saved_tensor()
        return ([da * (1 - paddle.square(paddle.tanh(pair[0]))),
                 db * (1 - paddle.square(paddle.tanh(pair[1])))],
                dz * (1 - paddle.square(paddle.tanh(z))))


def _nested_model(x, w0, w1, w2):
    a, b, c = _NestedTanh.apply([x @ w0, x @ w1], x @ w2)
    return a + b * 2 + c * 3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nested_list_input_gradients_match_eager(seed):
    rng = np.random.RandomState(seed)
    grads_agree(_nested_model, rng.randn(2, 3), rng.randn(3, 3), rng.randn(3, 3),
                rng.randn(3, 3))


class _DictScale(PyLayer):
    """Dict input (flattened in key order) and a nested result holding None and a number."""

    @staticmethod
    def forward(ctx, parts, factor):
        ctx.save_for_backward({"s": parts["s"] * 1.0})
        return {"out": (parts["a"] * parts["s"], None), "n": 7}

    @staticmethod
    def backward(ctx, dout):
        (saved,) = ctx.saved_tensor()
        return {"a": dout * saved["s"], "s": None}


@pytest.mark.parametrize("values", [[1.0, -2.0], [0.5, 3.0, 4.0]])
def test_dict_input_and_nested_non_tensor_outputs(values):
    def fn(a, s):
        result = _DictScale.apply({"a": a, "s": s}, 2.0)
        assert result["n"] == 7 and result["out"][1] is None
        return result["out"][0]
    a = paddle.to_tensor(values, stop_gradient=False)
    s = paddle.to_tensor(np.full(len(values), 3.0, "float32"))
    out = to_static(fn, full_graph=True)(a, s)
    out.sum().backward()
    np.testing.assert_allclose(out.numpy(), np.array(values) * 3.0, rtol=1e-6)
    np.testing.assert_allclose(a.grad.numpy(), np.full(len(values), 3.0), rtol=1e-6)


class _WrongGradCount(PyLayer):
    @staticmethod
    def forward(ctx, pair):
        return pair[0] + pair[1]

    @staticmethod
    def backward(ctx, dy):
        return dy


def test_too_few_gradients_for_nested_inputs_name_the_count():
    with pytest.raises(ValueError, match="returns 1 gradients for 2 Tensor inputs"):
        to_static(lambda a, b: _WrongGradCount.apply([a, b]), full_graph=True)(
            paddle.ones([2]), paddle.ones([2]))


def test_eager_dict_input_needing_a_gradient_is_refused_not_silently_dropped():
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(TypeError, match="_DictScale.apply: a Tensor that needs a gradient is "
                                        "nested in a dict"):
        _DictScale.apply({"a": a, "s": paddle.ones([2])}, 2.0)
