"""The objects behind a to_static call as Paddle exposes them: the partial program's mode
and programs, a ConcreteProgram's replaceable parameters, and parameters made mid-call."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static
from sampan.jit.dy2static.partial_program import partial_program_from


class DropNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.linear = paddle.nn.Linear(4, 3)
        self.drop = paddle.nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.linear(x))


def _dropout_is_test(program):
    return [op.attrs["is_test"] for op in program.global_block().ops if op.type == "dropout"]


def test_partial_program_mode_and_programs_follow_train_and_eval():
    net = to_static(DropNet(), full_graph=True)
    x = paddle.rand([2, 4])
    net(x)
    _, train_layer = net.forward.program_cache.last()[-1]
    assert train_layer.training is True
    assert train_layer.program is train_layer.train_program
    assert _dropout_is_test(train_layer.program) == [False]
    infer = train_layer.infer_program
    assert infer is not train_layer.program and _dropout_is_test(infer) == [True]
    assert train_layer.infer_program is infer
    net.eval()
    net(x)
    _, eval_layer = net.forward.program_cache.last()[-1]
    assert eval_layer is not train_layer and eval_layer.training is False
    assert eval_layer.program is eval_layer.infer_program
    with pytest.raises(RuntimeError, match="traced in eval mode"):
        eval_layer.train_program
    net.train()
    net(x)
    assert net.forward.program_cache.last()[-1][1] is train_layer


def double(x):
    return x * 2


def test_plain_function_partial_program_mode():
    f = to_static(double, full_graph=True)
    f.eval()
    f(paddle.ones([2]))
    assert f.program_cache.last()[-1][1].training is False
    f.train()
    f(paddle.ones([2]))
    assert f.program_cache.last()[-1][1].training is True


def test_partial_program_from_runs_on_replaced_parameters():
    net = to_static(paddle.nn.Linear(3, 2), full_graph=True)
    x = paddle.rand([4, 3])
    net(x)
    _, (concrete, _) = net.forward.program_cache.last()
    weight, bias = concrete.parameters
    concrete.parameters = [paddle.ones(weight.shape), paddle.zeros(bias.shape)]
    out = partial_program_from(concrete)([x])
    np.testing.assert_allclose(out.numpy(), x.numpy() @ np.ones([3, 2]), rtol=1e-6)
    concrete.parameters = weight
    with pytest.raises(TypeError, match="list or tuple of Tensors, one per variable .*; got "
                                        "Parameter"):
        partial_program_from(concrete)
    concrete.parameters = ["linear.w.0", bias]
    with pytest.raises(TypeError, match=r"got \[str, Parameter\]"):
        partial_program_from(concrete)
    concrete.parameters = [weight]
    with pytest.raises(ValueError, match="has 1 Tensors, but the program reads 2"):
        partial_program_from(concrete)


class MakesLayerInForward(paddle.nn.Layer):
    def forward(self, x):
        linear = paddle.nn.Linear(3, 2)
        return linear(x)


def test_a_parameter_created_during_the_call_is_a_value_error():
    net = to_static(MakesLayerInForward(), full_graph=True)
    with pytest.raises(ValueError, match=r"creates parameter '.*w_0' while it runs \(used "
                                         r"at .*test_partial_program_model.py:\d+: return "
                                         r"linear\(x\)\)"):
        net(paddle.rand([4, 3]))
