"""to_static(full_graph=False): graph breaks give eager's values and gradients, segments are
cached behind guards, and a function without breaks runs as one Program."""
import contextlib
import functools
import math

import numpy as np
import pytest

import sampan as paddle
from sampan.autograd import PyLayer
from sampan.jit.segments.breaks import GraphBreakError


def _t(values, grad=False, dtype="float32"):
    return paddle.to_tensor(np.asarray(values, dtype), stop_gradient=not grad)


def _same(eager, static):
    """Assert two (nested) results hold equal values."""
    if isinstance(eager, (list, tuple)):
        assert len(eager) == len(static)
        for a, b in zip(eager, static):
            _same(a, b)
    elif isinstance(eager, paddle.Tensor):
        np.testing.assert_allclose(static.numpy(), eager.numpy(), rtol=1e-6, atol=1e-6)
    else:
        assert eager == static


def _check(fn, *inputs):
    """Eager and full_graph=False agree on `fn(*inputs)`; returns the StaticFunction."""
    static = paddle.jit.to_static(fn, full_graph=False)
    _same(fn(*inputs), static(*inputs))
    return static


def numpy_break(x):
    y = x * 2
    v = y.sum().numpy()
    return y + float(v)


def item_break(x):
    return x * x.mean().item()


def tolist_break(x):
    rows = (x * 2).tolist()
    return x + len(rows) + rows[0][1]


def float_break(x):
    return x * math.sqrt(x.abs().mean())  # math.sqrt asks float() of the Variable


def builtin_casts_break(x):
    scale = float(x.mean())  # written in the converted source: the builtin runs, not a cast op
    count = int(x.abs().max())
    positive = bool(x.sum() > 0)
    return x * scale + count, positive, type(scale).__name__, type(count).__name__


def try_break(x):
    try:
        if x.sum() > 0:
            x = x * 3
    except ValueError:
        x = x - 100
    return x + 1


def generator_values(x):
    for k in range(2):
        if x.max().item() > k:  # read inside a generator: it runs as Python
            yield x * (k + 1)


def generator_break(x):
    total = x * 0
    for part in generator_values(x):
        if part.mean() > 0:
            total = total + part
    return total


class Doubling:
    """A user context manager: `with` around code that reads values."""

    def __enter__(self):
        self.entered = True
        return 2.0

    def __exit__(self, *exc):
        return False


def with_break(x):
    with Doubling() as k:
        y = x * k
        if y.numpy().sum() > 0:
            y = y + 1
    return y


@pytest.mark.parametrize("fn", [numpy_break, item_break, tolist_break, float_break,
                                builtin_casts_break, try_break, generator_break, with_break])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_each_kind_of_break_matches_eager(fn, sign):
    x = _t([[1.0, -2.0, 3.0], [0.5, 0.25, 4.0]]) * sign
    static = _check(fn, x)
    assert static.graph_breaks, "a break was expected"
    assert all(b.filename == __file__ for b in static.graph_breaks)


def test_break_reasons_name_the_line_and_operation():
    static = _check(numpy_break, _t([1.0, 2.0]))
    (found,) = static.graph_breaks
    assert found.lineno == numpy_break.__code__.co_firstlineno + 2
    assert "numpy()" in found.operation and "y.sum().numpy()" in found.source
    static = _check(try_break, _t([1.0, 2.0]))
    assert "'try'" in static.graph_breaks[0].operation


def test_function_without_source_from_exec():
    namespace = {}
    exec("def f(x):\n    if x.sum() > 0:\n        return x * 2\n    return x - 1\n", namespace)
    static = _check(namespace["f"], _t([1.0, 2.0]))
    _same(namespace["f"](_t([-1.0, -2.0])), static(_t([-1.0, -2.0])))
    assert "no source" in static.graph_breaks[0].operation


def several_breaks(x):
    a = x.sum().item()
    y = x * a
    b = y.max().item()
    z = y - b
    if z.numpy().min() < -1:
        z = z * 0.5
    return z, a + b


def test_several_breaks():
    static = _check(several_breaks, _t([1.0, 2.0, 3.0]))
    assert len(static.graph_breaks) == 3
    assert static.last_call.segments == 4


def helper_reading(x):
    return x * x.max().item()


def calls_helper(x):
    return helper_reading(x + 1) - 1


class WithMethod(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 3)

    def scale(self, h):
        return h / (h.abs().max().item() + 1)

    def forward(self, x):
        return self.scale(self.fc(x))


class Outer(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.inner = WithMethod()
        self.out = paddle.nn.Linear(3, 1)

    def forward(self, x):
        return self.out(self.inner(x))


def test_breaks_in_nested_calls_methods_and_sublayers():
    _check(calls_helper, _t([1.0, 5.0]))
    paddle.seed(3)
    net = Outer()
    x = _t(np.random.RandomState(0).rand(4, 3))
    eager = net(x)
    static = paddle.jit.to_static(net, full_graph=False)
    _same(eager, static(x))
    assert static.forward.graph_breaks[0].function == "scale"


class ScaleByMax(PyLayer):
    @staticmethod
    def forward(ctx, x):
        k = float(x.abs().max().numpy())
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.k * 10  # not the true gradient: shows the custom backward runs


def pylayer_user(x):
    return ScaleByMax.apply(x * 2).sum()


def test_break_inside_pylayer_forward_runs_it_eagerly_with_its_backward():
    x_e, x_s = _t([1.0, -3.0], grad=True), _t([1.0, -3.0], grad=True)
    static = paddle.jit.to_static(pylayer_user, full_graph=False)
    for _ in range(2):
        pylayer_user(x_e).backward()
        static(x_s).backward()
        np.testing.assert_allclose(x_s.grad.numpy(), x_e.grad.numpy())
    assert "ScaleByMax.forward" in static.graph_breaks[0].operation
    # `ctx.k = k` ran in the abandoned static forward: not an effect of the walk
    assert static.last_call.eager is None and not static.last_call.traced


def decides(x):
    if x.mean().item() > 0:
        return x * 2
    return x - 5


def test_a_decision_at_a_break_changing_between_calls_uses_the_cached_branches():
    static = paddle.jit.to_static(decides, full_graph=False)
    pos, neg = _t([1.0, 2.0]), _t([-1.0, -2.0])
    _same(decides(pos), static(pos))
    assert static.last_call.traced
    _same(decides(neg), static(neg))
    assert static.last_call.traced
    for x in (pos, neg, pos):
        _same(decides(x), static(x))
        assert not static.last_call.traced and static.last_call.segments == 2
    assert static.get_traced_count() == 1


def inside_tensor_if(x):
    if x.sum() > 0:  # a Tensor if: a cond op, unless a branch needs a value
        y = x * x.max().item()
    else:
        y = x - 1
    i = 0
    while x.sum() > i:  # a Tensor while whose body reads a value: a Python loop
        i = i + int(x.max().numpy()) + 1
    return y, i


def test_break_inside_tensor_if_or_while_runs_that_construct_as_python():
    static = paddle.jit.to_static(inside_tensor_if, full_graph=False)
    for values in ([1.0, 2.0], [-1.0, -2.0], [1.0, 2.0], [3.0, 0.5]):
        x = _t(values)
        _same(inside_tensor_if(x), static(x))


def no_breaks(x, y):
    h = paddle.tanh(x) * y
    if h.sum() > 0:  # a Tensor if stays a cond op
        h = h * 2
    return h.mean()


def test_function_without_breaks_runs_one_program_and_never_retraces():
    static = paddle.jit.to_static(no_breaks, full_graph=False)
    strict = paddle.jit.to_static(no_breaks, full_graph=True)
    x, y = _t([[1.0, 2.0]]), _t([[3.0, -4.0]])
    _same(no_breaks(x, y), static(x, y))
    assert static.last_call.segments == 1 and static.last_call.traced
    for _ in range(3):
        static(x, y)
        assert static.last_call.segments == 1 and not static.last_call.traced
    strict(x, y)
    ops = [op.type for op in static.concrete_program.main_program.global_block().ops]
    assert ops == [op.type for op in strict.concrete_program.main_program.global_block().ops]
    assert static.get_traced_count() == 1 and static.graph_breaks == []


def test_repeated_calls_with_breaks_do_not_retrace():
    static = paddle.jit.to_static(several_breaks, full_graph=False)
    x = _t([1.0, 2.0, 3.0])
    static(x)
    for _ in range(3):
        _same(several_breaks(x), static(x))
        assert not static.last_call.traced and static.last_call.segments == 4


def smooth(x, w):
    h = paddle.tanh(x * w)
    s = h.sum().item()  # break: the rest is a second segment
    return (h * h).sum() + paddle.sin(w).sum() * (1.0 if s > -100 else 2.0)


@pytest.mark.filterwarnings("ignore:to_static function 'smooth' was traced")
def test_gradients_across_breaks_match_numeric_differences():
    x = np.array([0.3, -0.7, 1.1])
    w0 = np.array([0.5, 1.5, -0.2])
    static = paddle.jit.to_static(smooth, full_graph=False)
    w = _t(w0, grad=True, dtype="float64")
    static(_t(x, dtype="float64"), w).backward()
    eps, numeric = 1e-6, []
    for k in range(3):
        plus, minus = w0.copy(), w0.copy()
        plus[k] += eps
        minus[k] -= eps
        f = [float(static(_t(x, dtype="float64"), _t(v, dtype="float64"))) for v in (plus, minus)]
        numeric.append((f[0] - f[1]) / (2 * eps))
    np.testing.assert_allclose(w.grad.numpy(), numeric, rtol=1e-5, atol=1e-7)


class Logged(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 8)
        self.fc2 = paddle.nn.Linear(8, 1)

    def forward(self, x, y):
        h = paddle.nn.functional.relu(self.fc1(x))
        if not bool(paddle.isfinite(h).all().item()):
            raise ValueError("activations diverged")
        return ((self.fc2(h) - y) ** 2).mean()


def _train(net, steps, x, y):
    opt = paddle.optimizer.Adam(0.05, parameters=net.parameters())
    losses = []
    for _ in range(steps):
        loss = net(x, y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses


def test_training_a_layer_with_a_break_equals_eager():
    rng = np.random.RandomState(1)
    x, y = _t(rng.rand(16, 4)), _t(rng.rand(16, 1))
    paddle.seed(7)
    eager = Logged()
    paddle.seed(7)
    static = paddle.jit.to_static(Logged(), full_graph=False)
    np.testing.assert_allclose(_train(static, 5, x, y), _train(eager, 5, x, y), rtol=1e-5)
    for a, b in zip(eager.parameters(), static.parameters()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)
    assert static.forward.last_call.segments == 2 and not static.forward.last_call.traced


def test_no_grad_call_and_region():
    def region(x):
        with paddle.no_grad():
            k = (x * 2).sum().item()
            frozen = x * k
        return frozen + x * x.mean().item()

    static = paddle.jit.to_static(region, full_graph=False)
    x_e, x_s = _t([1.0, 2.0], grad=True), _t([1.0, 2.0], grad=True)
    region(x_e).sum().backward()
    static(x_s).sum().backward()
    np.testing.assert_allclose(x_s.grad.numpy(), x_e.grad.numpy())
    with paddle.no_grad():
        out = static(_t([1.0, 2.0], grad=True))
    assert out.stop_gradient


def test_full_graph_true_keeps_reads_symbolic():
    """full_graph=True never breaks: .numpy() stays the Variable (as in Paddle's AST mode),
    so one Program gives eager's result; a read that needs Python values still fails."""
    strict = paddle.jit.to_static(numpy_break, full_graph=True)
    x = _t([1.0, 2.0])
    np.testing.assert_allclose(strict(x).numpy(), numpy_break(x).numpy())
    assert len(strict.program_cache) == 1

    def listed(x):
        return x.tolist()
    with pytest.raises(AssertionError, match="tolist"):
        paddle.jit.to_static(listed, full_graph=True)(x)


def test_save_of_a_function_with_breaks_names_the_first_break(tmp_path):
    static = paddle.jit.to_static(several_breaks, full_graph=False)
    static(_t([1.0, 2.0, 3.0]))
    with pytest.raises(GraphBreakError, match=r"test_graph_breaks.py:\d+.*item"):
        paddle.jit.save(static, str(tmp_path / "m"),
                        input_spec=[paddle.static.InputSpec([3], "float32")])
    with pytest.raises(GraphBreakError, match="item"):
        paddle.jit.save(static, str(tmp_path / "m"))


def test_verbosity_reports_breaks(caplog):
    paddle.jit.set_verbosity(1)
    try:
        with caplog.at_level("INFO", logger="sampan.jit"):
            _check(item_break, _t([1.0, 2.0]))
    finally:
        paddle.jit.set_verbosity(0)
    assert any("graph break" in r.getMessage() and "item()" in r.getMessage()
               for r in caplog.records)


@contextlib.contextmanager
def _env(name, value):
    import os
    saved = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if saved is None:
            del os.environ[name]
        else:
            os.environ[name] = saved


def test_constructs_full_graph_refuses_run_as_eager():
    from tests.jit import test_errors as strict_cases
    for fn in (strict_cases.swallow_exception, strict_cases.swallow_bare,
               strict_cases.swallow_named):
        for values in ([1.0], [0.5], [20.0]):
            _check(fn, _t(values))
    strict_cases.COUNTER = 0
    _check(strict_cases.rebinds_global, _t([1.0]))
    assert strict_cases.COUNTER == 1


def test_enable_fall_back_false_makes_the_default_full_graph():
    with _env("ENABLE_FALL_BACK", "False"):
        strict = paddle.jit.to_static(numpy_break)
        explicit = paddle.jit.to_static(numpy_break, full_graph=False)
    with _env("ENABLE_FALL_BACK", "True"):
        default = paddle.jit.to_static(numpy_break)
    assert strict.full_graph and not explicit.full_graph and not default.full_graph
    x = _t([1.0])
    _same(numpy_break(x), strict(x))
    _same(numpy_break(x), default(x))
    assert strict.graph_breaks == [] and len(default.graph_breaks) == 1


class NormThenDecide(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.norm = paddle.nn.BatchNorm1D(3)

    def forward(self, x):
        h = self.norm(x)
        if x.mean().item() > 0:  # a decision after the statistics were updated
            return h * 2
        return h - 1


def test_a_retrace_after_a_guard_miss_updates_batchnorm_statistics_once():
    paddle.seed(5)
    eager = NormThenDecide()
    paddle.seed(5)
    static = paddle.jit.to_static(NormThenDecide(), full_graph=False)
    rng = np.random.RandomState(2)
    for sign in (1.0, 1.0, -1.0, 1.0, -1.0):  # the first -1.0 misses the tree: a retrace
        x = _t(rng.rand(4, 3) * sign)
        _same(eager(x), static(x))
        np.testing.assert_allclose(static.norm._mean.numpy(), eager.norm._mean.numpy(),
                                   rtol=1e-6)
        np.testing.assert_allclose(static.norm._variance.numpy(),
                                   eager.norm._variance.numpy(), rtol=1e-6)


class DropThenDecide(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.drop = paddle.nn.Dropout(0.5)

    def forward(self, x):
        h = self.drop(x)
        if x.mean().item() > 0:
            return h * 2
        return h - 1


def test_a_retrace_after_a_guard_miss_draws_the_random_numbers_of_eager():
    eager, static = DropThenDecide(), paddle.jit.to_static(DropThenDecide(), full_graph=False)
    rng = np.random.RandomState(4)
    inputs = [_t(rng.rand(8, 8) * sign) for sign in (1.0, 1.0, -1.0, 1.0, -1.0)]
    paddle.seed(11)
    want = [eager(x) for x in inputs]
    paddle.seed(11)
    for x, expected in zip(inputs, want):
        _same(expected, static(x))


def complex_reads(x):
    total = complex(x.sum())
    return x * abs(total), total


def test_complex_of_a_complex_tensor_reads_both_parts():
    x = paddle.to_tensor(np.array([1 + 2j, 3 - 1j], "complex64"))
    static = _check(complex_reads, x)
    assert static(x)[1] == 4 + 1j and "complex()" in static.graph_breaks[0].operation
    y = paddle.to_tensor(np.array([1j, 2j], "complex64"))
    _same(complex_reads(y), static(y))


def counts_up(x, n):
    for k in range(n):
        if x.sum().item() > k:
            yield x * k


class YieldingLayer(paddle.nn.Layer):
    def forward(self, x):
        yield x + 1
        yield x.max().item()


def test_a_generator_function_or_forward_runs_eagerly_and_says_why():
    x = _t([1.0, 2.0])
    static = paddle.jit.to_static(counts_up, full_graph=False)
    for _ in range(2):
        _same(list(counts_up(x, 4)), list(static(x, 4)))
        assert "generator" in static.last_call.eager
        (found,) = static.graph_breaks
        assert found.lineno == counts_up.__code__.co_firstlineno
    layer = paddle.jit.to_static(YieldingLayer(), full_graph=False)
    _same(list(YieldingLayer()(x)), list(layer(x)))
    assert "generator" in layer.forward.last_call.eager
    with pytest.raises(NotImplementedError, match="yield"):
        paddle.jit.to_static(counts_up, full_graph=True)(x, 2)


def scaled(x, k=2.0, *, bias):
    return x * k * x.mean().item() + bias


def picks_by_argmax(x):
    weights = [1.0, 2.0, 3.0]
    return x * weights[paddle.argmax(x)]  # list indexed by a Tensor: __index__


def closes_over_a_tensor():
    k = _t([2.0, 3.0, 1.0])

    def inner(x, *, power=2):
        return x ** power * k + k.sum().item() * x.max().item()
    return inner


@pytest.mark.parametrize("fn", [functools.partial(scaled, k=3.0, bias=1.0), picks_by_argmax,
                                closes_over_a_tensor(), lambda x: x * x.sum().item()])
def test_partials_lambdas_closures_and_tensor_indices_match_eager(fn):
    static = paddle.jit.to_static(fn, full_graph=False)
    for values in ([1.0, -2.0, 3.0], [1.0, -2.0, 3.0], [4.0, 5.0, -6.0]):
        x_e, x_s = _t(values, grad=True), _t(values, grad=True)
        expected, got = fn(x_e), static(x_s)
        _same(expected, got)
        expected.sum().backward()
        got.sum().backward()
        np.testing.assert_allclose(x_s.grad.numpy(), x_e.grad.numpy(), rtol=1e-6)


def accumulates(x, total):
    total.add_(x)  # an in-place op on an input: the caller's Tensor changes, as eagerly
    return total * 2


def accumulates_then_reads(x, total):
    total.add_(x)
    return total * (2.0 if (total.sum() > 0).item() else -1.0)


def sets_an_item(x, cache):
    cache[0] = x.sum()  # a cache updated in place (a key/value cache while decoding)
    if x.mean() > 0:  # a Tensor if that may change `cache`: a cond op carrying it
        x = x * 2
    return x + cache


@pytest.mark.parametrize("fn", [accumulates, accumulates_then_reads, sets_an_item])
def test_an_input_changed_in_place_is_changed_for_the_caller(fn):
    static = paddle.jit.to_static(fn, full_graph=False)
    eager_total, static_total = _t([0.0, -5.0]), _t([0.0, -5.0])
    for _ in range(4):
        _same(fn(_t([1.0, 2.0]), eager_total), static(_t([1.0, 2.0]), static_total))
        _same(eager_total, static_total)
    assert not static.last_call.traced and static.last_call.eager is None
    assert static.last_call.segments == (2 if fn is accumulates_then_reads else 1)


@pytest.mark.parametrize("fn", [accumulates, sets_an_item])
def test_an_input_changed_in_place_is_changed_for_the_caller_under_full_graph(fn):
    """The one Program fetches the inputs' final values and writes them back each run (Paddle
    3.3.1 leaves the caller's Tensor, and for `add_` even the result, unchanged)."""
    static = paddle.jit.to_static(fn, full_graph=True)
    eager_total, static_total = _t([0.0, -5.0]), _t([0.0, -5.0])
    for k in range(4):
        x = _t([1.0 + k, -2.0 * k])
        _same(fn(x, eager_total), static(x, static_total))
        _same(eager_total, static_total)
    assert len(static.program_cache) == 1


def test_save_of_a_function_writing_an_input_asks_for_an_input_spec(tmp_path):
    static = paddle.jit.to_static(accumulates, full_graph=False)
    static(_t([1.0, 2.0]), _t([0.0, 0.0]))
    with pytest.raises(ValueError, match="changes an input Tensor in place.*input_spec"):
        paddle.jit.save(static, str(tmp_path / "m"))
    spec = [paddle.static.InputSpec([2], "float32")] * 2
    paddle.jit.save(static, str(tmp_path / "m"), input_spec=spec)


def test_a_tensor_if_carrying_an_input_unchanged_keeps_the_one_program():
    from tests.jit.test_decorators_and_no_grad import calls_decorated
    static = paddle.jit.to_static(calls_decorated, full_graph=False)
    x = _t([1.0, 2.0], grad=True)
    _same(calls_decorated(x), static(x))
    assert len(static.program_cache) == 1 and static.concrete_program is not None
