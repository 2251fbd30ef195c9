"""StaticFunction.report() and jit.explain: each construct named with its file:line, what it
became and why; retraces with their cause; graph breaks as entries."""
import os
import warnings

import numpy as np
import pytest

import sampan as paddle
import sampan.nn as nn
from sampan.autograd import PyLayer
from sampan.jit import report as report_module
from sampan.jit.cache import key_changes, value_key

HERE = os.path.abspath(__file__)
with open(HERE) as _source:
    _LINES = _source.read().splitlines()


def line_of(marker):
    """The line number of the one source line of this file ending with `# <marker>`."""
    found = [k + 1 for k, text in enumerate(_LINES) if text.rstrip().endswith(f"# <{marker}>")]
    assert len(found) == 1, marker
    return found[0]


def entry_at(report, marker, construct):
    """The one entry of `report` at the line of `marker` for `construct`."""
    found = [e for e in report.entries
             if e.lineno == line_of(marker) and e.construct == construct]
    assert len(found) == 1, (marker, construct, report.entries)
    assert found[0].filename == HERE
    return found[0]


class Double(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        return dy * 2


def every_construct(x, n):
    if x.mean() > 0:  # <tensor-if>
        y = x * 2
    else:
        y = x - 1
    if n > 2:  # <python-if>
        y = y + 1
    i = paddle.zeros([], "int64")
    while i < 3:  # <tensor-while>
        y = y + 1
        i += 1
    for _ in range(n):  # <unrolled-for>
        y = y * 1.5
    rows = []
    j = paddle.zeros([], "int64")
    while j < 2:  # <array-loop>
        rows.append(y)
        j += 1
    z = Double.apply(paddle.stack(rows))  # <pylayer>
    s = z.sum()
    if s.item() > 1000:  # <break>
        s = s / 2
    return s


def test_every_construct_is_named_with_its_line_kind_and_reason():
    x = paddle.to_tensor(np.arange(4.0, dtype="float32").reshape(2, 2))
    fn = paddle.jit.to_static(every_construct, full_graph=False)
    np.testing.assert_allclose(fn(x, 3).numpy(), every_construct(x, 3).numpy(), rtol=1e-6)
    report = fn.report()
    cases = [("tensor-if", "if", "cond op", "a Tensor (bool, shape [])"),
             ("python-if", "if", "Python if (true branch)", "a Python bool (True)"),
             ("tensor-while", "while", "while op", "a Tensor (bool, shape [])"),
             ("unrolled-for", "for", "unrolled loop (3 iterations)", "known while building"),
             ("array-loop", "list", "tensor array", "'rows' is appended to"),
             ("array-loop", "while", "while op", "a Tensor"),
             ("pylayer", "PyLayer", "static_pylayer op", "Double: Tensor argument(s) x"),
             ("break", "graph break", "segment cut: the value goes to Python", "Tensor.item()"),
             ("break", "if", "Python if (false branch)", "a Python bool (False)")]
    for marker, construct, became, reason in cases:
        entry = entry_at(report, marker, construct)
        assert entry.became == became and reason in entry.reason, (marker, entry.reason)
        assert entry.function == "every_construct" and entry.traces == (1,)
    assert len(report.entries) == len(cases)
    assert [b.lineno for b in report.breaks] == [line_of("break")]
    assert [str(t.cause) for t in report.traces] == ["first call"]
    text = str(report)
    for marker, construct, became, _ in cases:
        assert f"test_conversion_report.py:{line_of(marker)}" in text and became in text


def test_a_full_graph_function_reports_without_breaks():
    x = paddle.ones([2, 2])
    fn = paddle.jit.to_static(every_construct, full_graph=True)
    fn(x, 1)  # s.item() is symbolic: the last if is a cond op too
    report = fn.report()
    assert entry_at(report, "break", "if").became == "cond op"
    assert entry_at(report, "unrolled-for", "for").became == "unrolled loop (1 iterations)"
    assert entry_at(report, "python-if", "if").became == "Python if (false branch)"
    assert report.breaks == []


def tensor_bound_for(x, n):
    for k in range(n):  # <tensor-for>
        x = x + k
    return x if n > 0 else -x  # <ternary>


def test_a_for_over_a_tensor_range_is_a_while_op_and_a_ternary_a_cond():
    fn = paddle.jit.to_static(tensor_bound_for, full_graph=True)
    out = fn(paddle.ones([2]), paddle.to_tensor(3))
    np.testing.assert_allclose(out.numpy(), [4.0, 4.0])
    report = fn.report()
    loop = entry_at(report, "tensor-for", "for")
    assert loop.became == "while op" and "the length is a Tensor" in loop.reason
    assert "unrolled" not in loop.reason
    assert entry_at(report, "ternary", "if expression").became == "cond op"


def breaks_under_a_tensor_if(x):
    for _ in range(5):  # <break-flag-for>
        if x.sum() > 100:
            break
        x = x + 1
    return x


def test_a_loop_whose_test_becomes_a_tensor_says_how_many_iterations_ran_as_python():
    fn = paddle.jit.to_static(breaks_under_a_tensor_if, full_graph=True)
    np.testing.assert_allclose(fn(paddle.ones([2])).numpy(), [6.0, 6.0])
    loop = entry_at(fn.report(), "break-flag-for", "for")
    assert loop.became == "while op"
    assert loop.reason.endswith("its first 1 iteration(s) ran as Python, unrolled")


def test_retraces_name_the_changed_shape_and_the_train_eval_switch():
    fn = paddle.jit.to_static(every_construct, full_graph=True)
    fn(paddle.ones([2, 2]), 3)
    fn(paddle.ones([2, 2]), 3)  # cached: no trace
    fn(paddle.ones([4, 2]), 3)
    fn.eval()
    fn(paddle.ones([4, 2]), 3)
    fn(paddle.ones([4, 2]), 5)
    report = fn.report()
    assert report.total == 4 and [t.number for t in report.retraces] == [2, 3, 4]
    assert [t.cause for t in report.retraces] == [
        "argument 'x': shape [2, 2] -> [4, 2]", "train/eval: train -> eval",
        "argument 'n': 3 -> 5"]
    assert report.retraces[0].arguments == "x: Tensor[4, 2] float32, n: 3 (train)"
    assert report.retraces[1].arguments == "x: Tensor[4, 2] float32, n: 3 (eval)"
    loops = [e for e in report.entries if e.lineno == line_of("unrolled-for")]
    assert [(e.became, e.traces) for e in loops] == [
        ("unrolled loop (3 iterations)", (1, 2, 3)), ("unrolled loop (5 iterations)", (4,))]
    text = str(report)
    assert "#2  argument 'x': shape [2, 2] -> [4, 2]" in text and "#1,#2,#3" in text


def test_a_failed_graph_break_guard_is_the_cause_of_its_retrace():
    fn = paddle.jit.to_static(every_construct, full_graph=False)
    fn(paddle.ones([2, 2]), 3)
    fn(paddle.ones([2, 2]) * 100, 3)  # s.item() > 1000 now: a branch not traced yet
    retrace, = fn.report().retraces
    assert retrace.cause.startswith(f"graph-break guard failed: the value read at {HERE}:"
                                    f"{line_of('break')}")
    assert [e.became for e in fn.report().entries if e.lineno == line_of("break")
            and e.construct == "if"] == ["Python if (false branch)", "Python if (true branch)"]


def test_calls_that_run_a_cached_program_record_nothing():
    fn = paddle.jit.to_static(every_construct, full_graph=False)
    fn(paddle.ones([2, 2]), 3)
    notes = list(fn.report().traces[0].notes)
    for _ in range(3):
        fn(paddle.ones([2, 2]), 3)
    assert fn.report().total == 1 and fn.report().traces[0].notes == notes
    assert report_module._ACTIVE.trace is None


def branch_reads_a_value(x):
    if x.sum() > 0:  # <outer-if>
        if x.mean() > 10:  # <inner-if>
            x = x * 3
        x = x + float(x.max())  # <read-in-branch>
    else:
        x = x - 1
    return x


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_an_if_made_python_by_a_break_forgets_what_its_abandoned_branches_built(sign):
    x = paddle.ones([3]) * sign
    fn = paddle.jit.to_static(branch_reads_a_value, full_graph=False)
    np.testing.assert_allclose(fn(x).numpy(), branch_reads_a_value(x).numpy())
    report = fn.report()
    outer = entry_at(report, "outer-if", "if")
    assert outer.became == "Python if (test read at a graph break)"
    assert f"float() of a Tensor at line {line_of('read-in-branch')}" in outer.reason
    inner = [e for e in report.entries if e.lineno == line_of("inner-if")]
    # the true branch ran again as Python (its inner if is a cond op); the false branch
    # alone leaves no trace of the inner if built while trying the cond op
    assert [e.became for e in inner] == (["cond op"] if sign > 0 else [])
    assert [b.lineno for b in report.breaks] == [line_of("outer-if")] + (
        [line_of("read-in-branch")] if sign > 0 else [])


class Reads(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * float(x.sum())

    @staticmethod
    def backward(ctx, dy):
        return dy


def pylayer_reading_a_value(x):
    return Reads.apply(x)  # <eager-pylayer>


def test_a_pylayer_whose_forward_reads_a_value_is_an_eager_call():
    fn = paddle.jit.to_static(pylayer_reading_a_value, full_graph=False)
    np.testing.assert_allclose(fn(paddle.ones([2])).numpy(), [2.0, 2.0])
    report = fn.report()
    call = entry_at(report, "eager-pylayer", "PyLayer")
    assert call.became == "eager call (graph break)" and "float() of a Tensor" in call.reason
    assert entry_at(report, "eager-pylayer", "graph break").became == \
        "eager call between segments"


def test_a_function_without_source_is_kept_python():
    namespace = {"paddle": paddle}
    exec("def no_source(x):\n    return x * float(x.sum())\n", namespace)
    no_source = namespace["no_source"]

    def calls_it(x):
        return no_source(x) + 1
    fn = paddle.jit.to_static(calls_it, full_graph=False)
    np.testing.assert_allclose(fn(paddle.ones([2])).numpy(), [3.0, 3.0])
    kept, = [e for e in fn.report().entries if e.construct == "function"]
    assert kept.became == "kept Python" and kept.function == "no_source"
    assert kept.reason.startswith("no source")


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        h = self.fc(x)
        if self.training:  # <layer-if>
            h = self.drop(h)
        for layer in [self.fc, self.fc]:  # <layer-for>
            h = layer(h)
        return h.mean()


def test_explain_on_a_layer_reports_one_call_and_leaves_the_layer_as_it_was():
    net = Net()
    net.eval()
    x = paddle.rand([2, 4])
    report = paddle.jit.explain(net, x)
    assert "forward" not in net.__dict__
    assert entry_at(report, "layer-if", "if").became == "Python if (false branch)"
    assert entry_at(report, "layer-for", "for").became == "unrolled loop (2 iterations)"
    assert report.function == "Net.forward" and report.total == 1
    assert report.traces[0].arguments == "x: Tensor[2, 4] float32 (eval)"


def test_explain_of_a_to_static_layer_keeps_its_traces_and_options():
    net = paddle.jit.to_static(Net(), full_graph=True)
    net(paddle.rand([2, 4]))
    report = paddle.jit.explain(net, paddle.rand([3, 4]))
    assert report.total == 2 and report.retraces[0].cause == \
        "argument 'x': shape [2, 4] -> [3, 4]"
    assert report is not net.forward.report() and str(report) == str(net.forward.report())


def test_explain_converts_a_plain_function_and_calls_it_once():
    report = paddle.jit.explain(tensor_bound_for, paddle.ones([2]), n=2)
    assert entry_at(report, "tensor-for", "for").became == "unrolled loop (2 iterations)"
    assert report.traces[0].arguments == "x: Tensor[2] float32, n: 2 (train)"


def test_a_report_before_any_call_says_so():
    fn = paddle.jit.to_static(every_construct)
    assert fn.report().entries == [] and "not traced yet" in str(fn.report())


def test_a_log_keeps_the_first_trace_and_the_most_recent_ones():
    def scale(x, factor):
        return x * factor
    fn = paddle.jit.to_static(scale, full_graph=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(report_module.KEPT_TRACES + 8):
            fn(paddle.ones([1]), k)
    report = fn.report()
    numbers = [t.number for t in report.traces]
    assert report.total == report_module.KEPT_TRACES + 8
    assert numbers == [1] + list(range(10, report.total + 1))
    assert "(8 trace(s) not kept)" in str(report)


def test_key_changes_name_nested_items_dtypes_and_gradients():
    a, b = paddle.ones([2, 3]), paddle.ones([2, 3], dtype="float64")
    b.stop_gradient = False

    def key(*args, **kwargs):
        return value_key(args), value_key(kwargs) if kwargs else (), True
    assert key_changes(key([a, a]), key([a, b]), ["xs"]) == [
        "argument 'xs'[1]: dtype float32 -> float64",
        "argument 'xs'[1]: stop_gradient True -> False"]
    assert key_changes(key(a, k={"u": 1}), key(a, k={"u": 2}), ["x"]) == [
        "argument 'k'['u']: 1 -> 2"]
    assert key_changes(key(a), key(a, 3), ["x", "n"]) == ["argument 'n' added: 3"]
    assert key_changes(key(a, [1]), key(a, (1,)), ["x", "s"]) == ["argument 's': [1] -> (1,)"]
