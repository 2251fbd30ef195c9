"""paddle.jit.TracedLayer: run a layer once eagerly while recording its ops into a Program;
the Program runs new inputs, saves as an inference model, and freezes Python control flow
to the path the trace took."""
import warnings

import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.inference import create_predictor
from sampan.jit import TracedLayer
from sampan.jit.tracing import TracingWarning
from sampan.static.control_flow.nest import flatten

F = nn.functional


def rows(seed, *shape):
    return paddle.to_tensor(np.random.default_rng(seed).normal(size=shape).astype("float32"))


def close(got, want):
    np.testing.assert_allclose(got, want.numpy() if hasattr(want, "numpy") else want,
                               rtol=1e-5, atol=1e-6)


def trace_quietly(layer, inputs):
    """Trace with warnings as errors: the models here let no value leave the trace."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return TracedLayer.trace(layer, inputs)


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(6, 16), nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class CNN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2D(8)
        self.drop = nn.Dropout(0.5)
        self.fc = nn.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        y = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return self.fc(self.drop(paddle.flatten(y, 1)))


class ShapeSwitch(nn.Layer):
    """A Python `if` on a shape: the trace keeps the branch of the traced shape."""

    def __init__(self):
        super().__init__()
        self.wide, self.narrow = nn.Linear(8, 2), nn.Linear(8, 2)

    def forward(self, x):
        if x.shape[-1] > 4:
            return self.wide(x)
        return self.narrow(paddle.concat([x, x], axis=-1))


class ValueSwitch(nn.Layer):
    def forward(self, x):
        if x.mean() > 0:
            return x * 2.0
        return x - 1.0


def test_mlp_runs_new_inputs_of_any_batch_size():
    paddle.seed(1)
    model = MLP()
    out, static_layer = trace_quietly(model, [rows(0, 4, 6)])
    close(out, model(rows(0, 4, 6)))
    assert [op.type for op in static_layer.program.global_block().ops] == [
        "matmul", "add", "relu", "matmul", "add"]
    assert static_layer.program.global_block().var("input_0").shape == [-1, 6]
    for n in (4, 1, 9):
        (got,) = static_layer([rows(n, n, 6)])
        assert isinstance(got, np.ndarray)
        close(got, model(rows(n, n, 6)))


def test_the_dygraph_output_is_exactly_eager_and_differentiable():
    paddle.seed(2)
    model = MLP()
    x = rows(3, 5, 6)
    out, _ = TracedLayer.trace(model, x)
    close(out, model(x))
    out.sum().backward()
    assert model.fc1.weight.grad is not None


def test_cnn_with_batchnorm_and_dropout_in_eval_mode():
    paddle.seed(3)
    model = CNN()
    model.train()
    model(rows(9, 4, 3, 8, 8))  # running statistics move away from 0 / 1
    model.eval()
    out, static_layer = trace_quietly(model, [rows(4, 2, 3, 8, 8)])
    close(out, model(rows(4, 2, 3, 8, 8)))
    for n in (2, 5):
        (got,) = static_layer([rows(10 + n, n, 3, 8, 8)])
        close(got, model(rows(10 + n, n, 3, 8, 8)))


def test_a_python_if_on_a_shape_keeps_the_traced_branch():
    paddle.seed(4)
    model = ShapeSwitch()
    _, static_layer = trace_quietly(model, [rows(5, 3, 8)])
    ops = static_layer.program.global_block().ops
    assert "concat" not in [op.type for op in ops]
    assert {n for op in ops for n in op.input_arg_names} >= {model.wide.weight.name}
    (got,) = static_layer([rows(6, 3, 8)])
    close(got, model(rows(6, 3, 8)))


def test_a_tensor_dependent_if_is_frozen_to_the_traced_branch_with_a_warning():
    positive = paddle.to_tensor([1.0, 2.0, 3.0])
    with pytest.warns(TracingWarning, match="keeps only the branch taken") as caught:
        out, static_layer = TracedLayer.trace(ValueSwitch(), [positive])
    assert caught[0].filename == __file__
    close(out, [2.0, 4.0, 6.0])
    negative = np.array([-1.0, -2.0, -3.0], "float32")
    (got,) = static_layer([negative])
    close(got, [-2.0, -4.0, -6.0])  # the traced `x * 2`; eagerly: x - 1
    close(ValueSwitch()(paddle.to_tensor(negative)), [-2.0, -3.0, -4.0])


def test_values_leaving_the_trace_warn_at_the_user_line_once():
    class Scale(nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = self.create_parameter([3])

        def forward(self, x):
            _ = self.w.numpy()  # a parameter is no traced value: no warning
            return x * float(x.max()) + x.numpy().sum()

    with pytest.warns(TracingWarning) as caught:
        TracedLayer.trace(Scale(), [paddle.ones([2, 3])])
    assert len(caught) == 1  # float() and numpy() on one line: one warning
    assert "float(t)" in str(caught[0].message) and caught[0].filename == __file__


def test_save_inference_model_loads_through_static_and_the_predictor(tmp_path):
    paddle.seed(5)
    model = CNN()
    model.eval()
    _, static_layer = trace_quietly(model, [rows(0, 2, 3, 8, 8)])
    prefix = str(tmp_path / "cnn" / "infer")
    static_layer.save_inference_model(prefix)
    x = rows(1, 3, 3, 8, 8)
    want = model(x).numpy()

    exe = paddle.static.Executor()
    program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    (got,) = exe.run(program, feed={feeds[0]: x.numpy()}, fetch_list=fetches)
    close(got, want)

    predictor = create_predictor(prefix)
    assert predictor.get_input_names() == ["input_0"]
    (got,) = predictor.run([x.numpy()])
    close(got, want)


def test_save_inference_model_picks_feeds_and_fetches_by_index(tmp_path):
    class Two(nn.Layer):
        def forward(self, x, y):
            return x + 1.0, y * 2.0

    _, static_layer = trace_quietly(Two(), [paddle.ones([2]), paddle.ones([2])])
    static_layer.save_inference_model(str(tmp_path / "m"), feed=[1], fetch=[1])
    predictor = create_predictor(str(tmp_path / "m"))
    assert predictor.get_input_names() == ["input_1"]
    (got,) = predictor.run([np.array([3.0, 4.0], "float32")])
    close(got, [6.0, 8.0])
    with pytest.raises(ValueError, match="out of range"):
        static_layer.save_inference_model(str(tmp_path / "bad"), fetch=[2])
    with pytest.raises(TypeError, match="unsupported config"):
        static_layer.save_inference_model(str(tmp_path / "bad"), combine=True)


def test_a_batch_size_baked_in_by_python_pins_the_feed_shape():
    class Flat(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(12, 2)

        def forward(self, x):
            return self.fc(x.reshape([x.shape[0], -1]))

    model = Flat()
    x = rows(0, 4, 3, 4)
    _, static_layer = trace_quietly(model, [x])
    assert static_layer.program.global_block().var("input_0").shape == [4, 3, 4]
    close(static_layer([rows(1, 4, 3, 4)])[0], model(rows(1, 4, 3, 4)))
    with pytest.raises(ValueError, match="runs only the traced batch size 4"):
        static_layer([rows(2, 5, 3, 4)])


def test_inputs_of_different_first_dims_keep_their_shapes():
    class Affine(nn.Layer):
        def forward(self, x, w):
            return paddle.matmul(x, w)

    _, static_layer = trace_quietly(Affine(), [rows(0, 4, 3), rows(1, 3, 2)])
    block = static_layer.program.global_block()
    assert block.var("input_0").shape == [4, 3] and block.var("input_1").shape == [3, 2]


def test_in_place_updates_and_created_tensors_are_recorded():
    class InPlace(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)
            self.scale = paddle.to_tensor([2.0, 1.0, 1.0, 1.0])

        def forward(self, x):
            y = self.fc(x)
            y[:, 0] = 0.5
            y.add_(paddle.to_tensor(1.0))
            return {"scaled": y * self.scale, "rest": [y.sum(axis=1), x]}

    paddle.seed(6)
    model = InPlace()
    _, static_layer = trace_quietly(model, [rows(0, 3, 4)])
    x = rows(1, 5, 4)
    for got, want in zip(static_layer([x]), flatten(model(x))):
        close(got, want)


def test_parameters_are_shared_with_the_dygraph_layer():
    model = nn.Linear(3, 2)
    x = rows(0, 2, 3)
    _, static_layer = trace_quietly(model, [x])
    model.weight.set_value(np.ones([3, 2], "float32"))
    close(static_layer([x])[0], model(x))


def test_a_to_static_sublayer_is_traced_op_by_op():
    class Inner(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        @paddle.jit.to_static
        def forward(self, x):
            return paddle.tanh(self.fc(x))

    model = Inner()
    _, static_layer = trace_quietly(model, [rows(0, 2, 4)])
    assert [op.type for op in static_layer.program.global_block().ops] == [
        "matmul", "add", "tanh"]
    close(static_layer([rows(1, 2, 4)])[0], model(rows(1, 2, 4)))


def test_set_strategy_runs_with_threads_and_without_passes():
    paddle.seed(7)
    model = CNN()
    model.eval()
    _, static_layer = trace_quietly(model, [rows(0, 2, 3, 8, 8)])
    build = paddle.static.BuildStrategy()
    build.enable_inplace = False
    static_layer.set_strategy(build, paddle.static.ExecutionStrategy(num_threads=2))
    close(static_layer([rows(1, 2, 3, 8, 8)])[0], model(rows(1, 2, 3, 8, 8)))
    with pytest.raises(TypeError, match="BuildStrategy"):
        static_layer.set_strategy(build_strategy="fast")


def test_state_updated_while_tracing_is_an_error():
    model = CNN()  # training mode: BatchNorm writes its running statistics
    with pytest.raises(RuntimeError, match="modified in place while tracing.*layer.eval"):
        TracedLayer.trace(model, [rows(0, 2, 3, 8, 8)])

    class Rewrite(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 2)

        def forward(self, x):
            y = self.fc(x)
            self.fc.bias.set_value(np.ones([2], "float32"))
            return y + self.fc.bias

    with pytest.raises(RuntimeError, match="linear_.*modified in place"):
        TracedLayer.trace(Rewrite(), [paddle.ones([1, 2])])


def test_argument_errors_are_clear():
    with pytest.raises(TypeError, match="must be a paddle.nn.Layer"):
        TracedLayer.trace(lambda x: x, [paddle.ones([2])])
    with pytest.raises(TypeError, match="input 0 must be a Tensor"):
        TracedLayer.trace(MLP(), [np.ones([2, 6], "float32")])

    class Pair(nn.Layer):
        def forward(self, x):
            return x * 2.0, "done"

    with pytest.raises(TypeError, match="output 1 of the layer is a str"):
        TracedLayer.trace(Pair(), [paddle.ones([2])])
    _, static_layer = trace_quietly(MLP(), [paddle.ones([2, 6])])
    with pytest.raises(ValueError, match="expects 1 input"):
        static_layer([paddle.ones([2, 6]), paddle.ones([2, 6])])
    with pytest.raises(TypeError, match="dtype"):
        static_layer([np.ones([2, 6])])


def test_tracing_refuses_static_mode_and_nesting():
    paddle.enable_static()
    try:
        with pytest.raises(RuntimeError, match="dygraph mode"):
            TracedLayer.trace(MLP(), [paddle.ones([2, 6])])
    finally:
        paddle.disable_static()

    class Nested(nn.Layer):
        def forward(self, x):
            TracedLayer.trace(MLP(), [x])
            return x

    with pytest.raises(RuntimeError, match="inside another trace"):
        TracedLayer.trace(Nested(), [paddle.ones([2, 6])])


def test_to_tensor_of_a_traced_tensor_is_recorded():
    """paddle.to_tensor(t) copies through an op, so the Program follows new inputs."""
    class Copying(nn.Layer):
        def forward(self, x):
            return paddle.to_tensor(x * 2.0, dtype="float64") + 1.0

    _, static_layer = trace_quietly(Copying(), [rows(0, 2, 3)])
    x = rows(1, 2, 3)
    close(static_layer([x])[0], Copying()(x))
