"""to_static(full_graph=False) repeats the Python between graph breaks at every call: a
signature whose Python has effects (a list appended to, an attribute or global written,
output written, a log call) runs eagerly, a value read that changes at every call stops
being a guard, and a function whose Python is pure keeps its cached segments."""
import logging
import warnings

import numpy as np
import pytest

import sampan as paddle
from sampan.jit.segments.call import MAX_VALUES_PER_CUT


def _t(values, grad=False):
    return paddle.to_tensor(np.asarray(values, "float32"), stop_gradient=not grad)


HISTORY = []


def appends_to_a_global_list(x):
    loss = (x * x).mean()
    HISTORY.append(loss.item())
    return loss * 2


class Counter:
    calls = 0


COUNTER = Counter()


def counts_in_an_attribute(x):
    y = x * float(x.max())
    COUNTER.calls += 1
    return y


def prints_a_value(x):
    print("mean", float(x.mean()))
    return x + 1


LOG = logging.getLogger("sampan.tests.effects")


def logs_a_value(x):
    LOG.info("max %.1f", x.max().item())
    return x - 1


TOTAL = 0.0


def rebinds_a_global(x):
    global TOTAL
    TOTAL = TOTAL + x.sum().item()
    return x * 3


class Entering:
    """A user context manager that counts its entries."""

    entries = 0

    def __enter__(self):
        Entering.entries += 1
        return 2.0

    def __exit__(self, *exc):
        return False


def enters_a_context(x):
    with Entering() as k:
        if x.numpy().sum() > 0:
            x = x * k
    return x


def _observed():
    """What `fn` did outside itself so far."""
    return (list(HISTORY), COUNTER.calls, TOTAL, Entering.entries)


def _reset():
    global TOTAL
    HISTORY.clear()
    COUNTER.calls = Entering.entries = 0
    TOTAL = 0.0


@pytest.mark.parametrize("fn", [appends_to_a_global_list, counts_in_an_attribute,
                                rebinds_a_global, enters_a_context])
def test_effects_between_breaks_happen_at_every_call_as_eagerly(fn):
    inputs = [_t(v) for v in ([1.0, 2.0], [1.0, 2.0], [3.0, -1.0], [1.0, 2.0])]
    _reset()
    eager = [fn(x).numpy() for x in inputs]
    want = _observed()
    _reset()
    static = paddle.jit.to_static(fn, full_graph=False)
    got = [static(x).numpy() for x in inputs]
    for a, b in zip(eager, got):
        np.testing.assert_allclose(b, a)
    assert _observed() == want
    assert static.last_call.eager and __file__ in static.last_call.eager
    assert static.graph_breaks, "the breaks of the signature stay listed"
    effects = [e for e in static.report().entries if e.construct == "Python effect"]
    assert effects and effects[0].filename == __file__ and "runs eagerly" in effects[0].became


def test_print_of_a_value_read_at_a_break_prints_at_every_call(capsys):
    static = paddle.jit.to_static(prints_a_value, full_graph=False)
    for values in ([1.0, 3.0], [1.0, 3.0], [5.0, 3.0]):
        static(_t(values))
    assert capsys.readouterr().out.splitlines() == ["mean 2.0", "mean 2.0", "mean 4.0"]


def test_a_log_call_between_breaks_logs_at_every_call(caplog):
    static = paddle.jit.to_static(logs_a_value, full_graph=False)
    with caplog.at_level("INFO", logger=LOG.name):
        for values in ([1.0, 3.0], [1.0, 3.0], [5.0, 3.0]):
            static(_t(values))
    assert [r.getMessage() for r in caplog.records if r.name == LOG.name] == \
        ["max 3.0", "max 3.0", "max 5.0"]


def test_a_layer_counting_its_calls_in_an_attribute_trains_as_eagerly():
    class Counted(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(3, 1)
            self.seen = 0

        def forward(self, x):
            y = self.fc(x)
            if y.mean().item() > 100:
                y = y / 100
            self.seen += 1
            return y.sum()

    paddle.seed(2)
    eager = Counted()
    paddle.seed(2)
    static = paddle.jit.to_static(Counted(), full_graph=False)
    x = _t(np.random.RandomState(0).rand(4, 3))
    for net in (eager, static):
        opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
        for _ in range(3):
            net(x).backward()
            opt.step()
            opt.clear_grad()
    assert static.seen == eager.seen == 3
    np.testing.assert_allclose(static.fc.weight.numpy(), eager.fc.weight.numpy(), rtol=1e-6)


def pure_reads(x):
    a = x.sum().item()
    rows = x.tolist()
    return x * a + len(rows)


def test_pure_python_between_breaks_keeps_the_cached_segments():
    static = paddle.jit.to_static(pure_reads, full_graph=False)
    x = _t([1.0, 2.0])
    for _ in range(3):
        np.testing.assert_allclose(static(x).numpy(), pure_reads(x).numpy())
    assert static.last_call.eager is None and not static.last_call.traced
    assert static.last_call.segments == 2
    assert not [e for e in static.report().entries if e.construct == "Python effect"]


def scales_by_its_mean(x):
    return x * float(x.mean())


def mean_of(x):
    return float(x.mean())


def scales_by_a_helpers_mean(x):
    y = x * 2
    return y * mean_of(x)  # the value is read in the helper, not in this function's body


def _calls_with_changing_values(fn):
    """(the StaticFunction, traces made, "runs eagerly" warnings) after ten calls of `fn`
    under full_graph=False on inputs whose mean changes, each checked against eager."""
    static = paddle.jit.to_static(fn, full_graph=False)
    traces = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(10):
            x = _t([1.0 + k, 2.0])
            np.testing.assert_allclose(static(x).numpy(), fn(x).numpy())
            traces += static.last_call.traced
    return static, traces, [w for w in caught if "runs eagerly" in str(w.message)]


def test_a_value_read_that_changes_every_call_goes_on_as_python_after_the_read():
    static, traces, warned = _calls_with_changing_values(scales_by_its_mean)
    assert traces == MAX_VALUES_PER_CUT
    assert static.last_call.eager is None and "float()" in str(static.last_call.resumed)
    assert not warned
    assert static.get_traced_count() == 1


def test_a_changing_value_read_where_python_cannot_go_on_runs_eagerly_with_one_warning():
    static, traces, warned = _calls_with_changing_values(scales_by_a_helpers_mean)
    assert traces == MAX_VALUES_PER_CUT
    assert static.last_call.eager and "float()" in static.last_call.eager
    (warning,) = warned
    line = mean_of.__code__.co_firstlineno + 1
    assert f"{__file__}:{line}" in str(warning.message) and warning.filename == __file__
    assert static.get_traced_count() == 1


def test_a_decision_taking_few_values_keeps_its_branches():
    def sign(x):
        return x * 2 if (x.sum() > 0).item() else x - 1  # a bool: two values
    static = paddle.jit.to_static(sign, full_graph=False)
    for values in ([1.0], [-1.0], [2.0], [-2.0], [1.0]):
        static(_t(values))
    assert static.last_call.eager is None and not static.last_call.traced
