"""Tensors a to_static function stores on objects (`self.last = y * 2`): after every run,
first and cached, the attribute holds that run's eager Tensor, as eager execution leaves
it, with its gradient link; jit.save still saves only the returned outputs."""
import numpy as np
import pytest

import sampan as paddle


class _Inner(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 3)

    def forward(self, x):
        y = self.fc(x)
        self.last = y * 2
        return y


class _Outer(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.inner = _Inner()

    def forward(self, x):
        y = self.inner(x)
        self.top = y + 1
        return y.sum()


def _pair(full_graph):
    paddle.seed(1)
    eager = _Outer()
    static = _Outer()
    static.set_state_dict(eager.state_dict())
    return eager, paddle.jit.to_static(static, full_graph=full_graph)


@pytest.mark.parametrize("full_graph", [True, False])
def test_stored_tensors_equal_eager_on_every_call(full_graph):
    eager, static = _pair(full_graph)
    rng = np.random.default_rng(0)
    for _ in range(3):
        x = paddle.to_tensor(rng.standard_normal((2, 3)).astype("float32"))
        np.testing.assert_allclose(static(x).numpy(), eager(x).numpy(), rtol=1e-6)
        for got, want in ((static.top, eager.top), (static.inner.last, eager.inner.last)):
            assert isinstance(got, paddle.Tensor)
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
            assert got.stop_gradient == want.stop_gradient
    assert static.forward.get_traced_count() == 1


@pytest.mark.parametrize("full_graph", [True, False])
def test_gradients_flow_through_a_stored_tensor(full_graph):
    eager, static = _pair(full_graph)
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    for layer in (eager, static):
        layer(x)
        layer(x * 2)  # the second (cached) run's tensor carries the gradient
        (layer.top * layer.inner.last).sum().backward()
    np.testing.assert_allclose(static.inner.fc.weight.grad.numpy(),
                               eager.inner.fc.weight.grad.numpy(), rtol=1e-5)
    np.testing.assert_allclose(static.inner.fc.bias.grad.numpy(),
                               eager.inner.fc.bias.grad.numpy(), rtol=1e-5)


def test_an_attribute_of_the_object_of_a_method_is_refreshed():
    class Counter:
        @paddle.jit.to_static(full_graph=True)
        def step(self, x):
            self.seen = x * 3
            return x + 1

    counter = Counter()
    for value in (1.0, 2.0):
        out = counter.step(paddle.to_tensor([value]))
        np.testing.assert_allclose(out.numpy(), [value + 1])
        np.testing.assert_allclose(counter.seen.numpy(), [value * 3])


def test_a_tensor_stored_in_a_container_attribute_warns_and_the_call_runs():
    class Cache(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.cache = {}

        def forward(self, x):
            self.cache["k"] = x * 2
            return x

    net = paddle.jit.to_static(Cache(), full_graph=True)
    with pytest.warns(UserWarning, match=r"Cache\.cache \(a dict\)"):
        out = net(paddle.to_tensor([1.0]))
    np.testing.assert_array_equal(out.numpy(), [1.0])


def test_jit_save_keeps_only_the_returned_outputs(tmp_path):
    eager, static = _pair(True)
    x = paddle.to_tensor(np.ones((2, 3), "float32"))
    static(x)
    path = str(tmp_path / "outer")
    paddle.jit.save(static, path, input_spec=[paddle.static.InputSpec([2, 3], "float32")])
    loaded = paddle.jit.load(path)
    out = loaded(x)
    assert not isinstance(out, (list, tuple))
    np.testing.assert_allclose(out.numpy(), eager(x).numpy(), rtol=1e-6)


def test_a_graph_breaking_function_stores_its_tensors_from_the_first_call():
    class Branchy(paddle.nn.Layer):
        def forward(self, x):
            y = x * 2
            self.before = y
            if float(y.sum()) > 0:  # a graph break under full_graph=False
                self.after = y + 1
            else:
                self.after = y - 1
            return y

    eager, static = Branchy(), paddle.jit.to_static(Branchy(), full_graph=False)
    for value in (1.0, 2.0, -3.0):
        x = paddle.to_tensor([value])
        static(x), eager(x)
        for name in ("before", "after"):
            got = getattr(static, name)
            assert isinstance(got, paddle.Tensor), name
            np.testing.assert_allclose(got.numpy(), getattr(eager, name).numpy())


@pytest.mark.parametrize("full_graph", [True, False])
def test_a_stored_input_or_output_is_that_very_tensor(full_graph):
    class Keeps(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(2, 2)

        def forward(self, x):
            y = self.fc(x)
            self.inp, self.last = x, y
            z = y * 3
            self.a = self.b = z
            return y

    paddle.seed(3)
    eager, static = Keeps(), paddle.jit.to_static(Keeps(), full_graph=full_graph)
    static.set_state_dict(eager.state_dict())
    for value in (1.0, 2.0):
        x = paddle.to_tensor(np.full((1, 2), value, "float32"), stop_gradient=False)
        for layer in (eager, static):
            out = layer(x)
            assert layer.inp is x and layer.last is out and layer.a is layer.b
            (out.sum() + layer.last.sum() * 2 + layer.a.sum()).backward()
        np.testing.assert_allclose(static.a.numpy(), eager.a.numpy(), rtol=1e-6)
        np.testing.assert_allclose(static.fc.weight.grad.numpy(),
                                   eager.fc.weight.grad.numpy(), rtol=1e-5)


@pytest.mark.parametrize("full_graph", [True, False])
def test_a_tensor_stored_under_a_tensor_if_is_the_branch_taken(full_graph):
    class Branches(paddle.nn.Layer):
        def forward(self, x):
            if x.sum() > 0:
                self.w = x * 2
            else:
                self.w = x * 3
            return x

    eager, static = Branches(), paddle.jit.to_static(Branches(), full_graph=full_graph)
    for value in (1.0, -1.0, 2.0):
        x = paddle.to_tensor([value])
        eager(x), static(x)
        assert isinstance(static.w, paddle.Tensor)
        np.testing.assert_allclose(static.w.numpy(), eager.w.numpy())
