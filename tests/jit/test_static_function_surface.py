"""paddle.jit.to_static's signature and the StaticFunction object, as Paddle 3 has them."""
import copy

import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static
from sampan.static import BuildStrategy, InputSpec
from sampan.jit.program_translator import StaticFunction


def add_one(x):
    return x + 1


def test_to_static_signature_matches_paddle():
    import inspect
    params = list(inspect.signature(to_static).parameters)
    assert params == ["function", "input_spec", "build_strategy", "backend", "kwargs"]


def test_decorator_with_and_without_arguments():
    @to_static
    def f(x):
        return x * 2

    @to_static(input_spec=[InputSpec([None, 2])], full_graph=True, backend=None)
    def g(x):
        return x * 3
    x = paddle.ones([1, 2])
    np.testing.assert_allclose(f(x).numpy(), [[2.0, 2.0]])
    np.testing.assert_allclose(g(x).numpy(), [[3.0, 3.0]])


def test_cinn_backend_and_build_strategy_are_accepted():
    strategy = BuildStrategy()
    strategy.build_cinn_pass = True
    strategy.fuse_bn_act_ops = True
    strategy.reduce_strategy = BuildStrategy.ReduceStrategy.Reduce
    f = to_static(add_one, build_strategy=strategy, backend="CINN")
    np.testing.assert_allclose(f(paddle.ones([2])).numpy(), [2.0, 2.0])


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(backend="TVM"), ValueError, "backend"),
    (dict(build_strategy={"a": 1}), TypeError, "build_strategy"),
    (dict(input_spec=InputSpec([2])), TypeError, "input_spec"),
    (dict(enable_fallback=True), TypeError, "enable_fallback"),
])
def test_bad_arguments_name_themselves(kwargs, error, text):
    with pytest.raises(error, match=text):
        to_static(add_one, **kwargs)


def test_build_strategy_typo_is_an_error():
    with pytest.raises(AttributeError, match="fuse_bn_act_opz"):
        BuildStrategy().fuse_bn_act_opz = True


def test_static_function_attributes():
    f = to_static(add_one)
    assert f.class_instance is None and not f.is_property
    assert f.get_traced_count() == 0
    with pytest.raises(ValueError, match="add_one"):
        f.concrete_program
    f(paddle.ones([2]))
    f(paddle.ones([3]))
    assert f.get_traced_count() == 2
    assert f.main_program is f.concrete_program.main_program
    assert [v.shape for v in f.inputs] == [[3]]
    assert [v.shape for v in f.outputs] == [[3]]
    assert f.dygraph_function is add_one and "def add_one" in f.code


def test_concrete_program_specify_input_spec():
    f = to_static(add_one)
    program = f.concrete_program_specify_input_spec([InputSpec([None, 4], "float32")])
    assert program.inputs[0].shape == [-1, 4]
    g = to_static(add_one, input_spec=[InputSpec([5])])
    assert g.concrete_program_specify_input_spec().inputs[0].shape == [5]


def test_property_runs_as_python():
    f = to_static(lambda: 7, property=True)
    assert f.is_property and f() == 7


def test_train_eval_of_a_plain_function_switch_dropout():
    f = to_static(lambda x: paddle.nn.functional.dropout(x, 0.5))
    x = paddle.ones([1000])
    assert (f(x).numpy() == 0).any()
    f.eval()
    np.testing.assert_array_equal(f(x).numpy(), x.numpy())
    f.train()
    assert (f(x).numpy() == 0).any()


def test_train_eval_of_a_layer_method_follow_the_layer():
    net = to_static(paddle.nn.Linear(2, 2))
    net.eval()
    with pytest.raises(RuntimeError, match="train"):
        net.forward.train()
    net.forward.eval()


def test_redecorating_a_layer_takes_the_new_input_spec():
    net = to_static(paddle.nn.Linear(2, 2), input_spec=[InputSpec([3, 2])])
    net = to_static(net, input_spec=[InputSpec([None, 2])])
    assert net.forward.concrete_program.inputs[0].shape == [-1, 2]


def test_redecorating_a_static_function_takes_the_new_input_spec():
    f = to_static(to_static(add_one), input_spec=[InputSpec([None])])
    assert f.dygraph_function is add_one
    assert f.concrete_program.inputs[0].shape == [-1]


def test_deepcopy_of_a_converted_layer_runs_the_copy():
    """The copy's forward was bound to the original layer: after a retrace it read the
    original's parameters."""
    net = to_static(paddle.nn.Linear(2, 2))
    x = paddle.ones([1, 2])
    net(x)
    twin = copy.deepcopy(net)
    assert twin.forward.class_instance is twin
    with paddle.no_grad():
        twin.weight.set_value(paddle.zeros([2, 2]))
        twin.bias.set_value(paddle.ones([2]))
    for rows in (1, 3):
        np.testing.assert_allclose(twin(paddle.ones([rows, 2])).numpy(), np.ones([rows, 2]))
    assert not np.allclose(net(x).numpy(), 1.0)


def test_marker_unified_keeps_a_callee_unconverted():
    calls = []

    @paddle.jit.marker.unified
    def helper(x):
        calls.append(type(x).__name__)
        return x * 2

    @to_static
    def f(x):
        return helper(x)
    np.testing.assert_allclose(f(paddle.ones([2])).numpy(), [2.0, 2.0])
    assert calls == ["Variable"] and helper._not_to_static
    assert paddle.jit.not_to_static(None) is not None


def test_method_of_a_deleted_instance_is_a_clear_error():
    """`Holder().run(x)`: the temporary object is gone when the call runs (the method
    was then called without self: "missing 1 required positional argument")."""
    class Holder:
        def __init__(self):
            self.offset = paddle.ones([2])

        @to_static
        def run(self, x):
            return x + self.offset

    holder = Holder()  # a plain object (its method failed: no 'sublayers')
    np.testing.assert_allclose(holder.run(paddle.ones([2])).numpy(), [2.0, 2.0])
    with pytest.raises(RuntimeError, match="has been deleted"):
        Holder().run(paddle.ones([2]))


def test_numpy_arguments_are_program_inputs():
    """As in Paddle, an ndarray argument is fed as a Tensor (it was a Python constant and
    the function returned an ndarray)."""
    f = to_static(lambda x, scale: x * scale)
    out = f(np.array([1.0, 2.0], "float32"), 3.0)
    assert isinstance(out, paddle.Tensor)
    np.testing.assert_allclose(out.numpy(), [3.0, 6.0])
    np.testing.assert_allclose(f(np.array([5.0, 1.0], "float32"), 3.0).numpy(), [15.0, 3.0])
    assert f.get_traced_count() == 1


def test_in_place_op_on_an_input():
    """x.add_(y) on an argument renamed the data Variable's object: running the program
    failed with KeyError 'input_0'."""
    def bump(x):
        x.add_(paddle.ones_like(x))
        return x * 2
    np.testing.assert_allclose(to_static(bump)(paddle.ones([2])).numpy(), [4.0, 4.0])


@pytest.mark.parametrize("dtype", ["int64", "int32", "float64", "float32"])
def test_tensor_of_another_dtype_than_its_spec_traces_its_own_dtype(dtype):
    def steps(x):
        return x[::2], x[::-2] * 2
    static = to_static(steps, input_spec=[InputSpec([None, 4, 4])], full_graph=True)
    for rows in (5, 3):
        array = np.arange(rows * 16).reshape(rows, 4, 4).astype(dtype)
        got = static(paddle.to_tensor(array))
        assert [t.dtype for t in got] == [paddle.to_tensor(array).dtype] * 2
        np.testing.assert_array_equal(got[0].numpy(), array[::2])
        np.testing.assert_array_equal(got[1].numpy(), array[::-2] * 2)


def test_tensor_contradicting_a_fixed_dim_of_its_spec_is_refused():
    static = to_static(add_one, input_spec=[InputSpec([None, 4])], full_graph=True)
    with pytest.raises(ValueError, match=r"argument 'x': input_spec expects shape \[-1, 4\]"):
        static(paddle.ones([2, 5]))


def test_deepcopy_of_a_converted_function_is_the_original_function():
    """As in Paddle: a plain function has no state to copy, so the copy is its Python."""
    f = to_static(add_one)
    f(paddle.ones([2]))
    assert copy.deepcopy(f) is add_one


class ScaleNet(paddle.nn.Layer):
    def forward(self, x):
        return x + 1

    @to_static(full_graph=True)
    def scale(self, x):
        return x * 2


def test_rollback_of_a_method_decorated_in_its_class():
    net, other = ScaleNet(), ScaleNet()
    x = paddle.ones([2])
    net.scale(x)
    original = net.scale.rollback()
    assert not isinstance(net.scale, StaticFunction) and net.scale == original
    np.testing.assert_allclose(net.scale(x).numpy(), [2.0, 2.0])
    assert isinstance(other.scale, StaticFunction)


def test_rollback_of_a_method_converted_on_the_instance():
    net = ScaleNet()
    net.forward = to_static(net.forward)
    net.forward.rollback()
    assert "forward" not in vars(net)
    np.testing.assert_allclose(net(paddle.ones([2])).numpy(), [2.0, 2.0])


class PlainScaler:
    """Not a Layer: Paddle refuses to convert its methods (TypeError); sampan converts them,
    its tensors read as the inputs of each run."""

    def __init__(self):
        self.w = paddle.to_tensor([2.0], stop_gradient=False)

    def apply(self, x):
        return x * self.w


def test_method_of_a_plain_class_converts_and_trains():
    scaler = PlainScaler()
    f = to_static(scaler.apply, input_spec=[InputSpec([1], name="x")], full_graph=True)
    out = f(paddle.to_tensor([3.0]))
    out.backward()
    np.testing.assert_allclose(out.numpy(), [6.0])
    np.testing.assert_allclose(scaler.w.grad.numpy(), [3.0])
    scaler.w.set_value(np.array([5.0], "float32"))
    np.testing.assert_allclose(f(paddle.to_tensor([3.0])).numpy(), [15.0])
