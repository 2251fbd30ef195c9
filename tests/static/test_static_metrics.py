"""paddle.static.accuracy and paddle.static.auc against NumPy references."""
import numpy as np
import pytest

import sampan as paddle
from sampan import static


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _np_accuracy(scores, labels, k):
    top = np.argsort(-scores, axis=1)[:, :k]
    hits = (top == labels.reshape(-1, 1)).any(axis=1)
    return hits.mean(), int(hits.sum())


def _np_auc(scores, labels, num_thresholds):
    pos = np.zeros(num_thresholds + 1)
    neg = np.zeros(num_thresholds + 1)
    for s, y in zip(scores, labels):
        (pos if y else neg)[int(s * num_thresholds)] += 1
    tp = fp = area = 0.0
    for b in range(num_thresholds, -1, -1):
        new_tp, new_fp = tp + pos[b], fp + neg[b]
        area += (new_fp - fp) * (new_tp + tp) / 2.0
        tp, fp = new_tp, new_fp
    return area / tp / fp if tp and fp else 0.0


@pytest.mark.parametrize("k", [1, 2, 3])
def test_accuracy_in_a_program_matches_numpy(static_mode, k):
    rng = np.random.default_rng(k)
    scores = rng.random((7, 5)).astype("float32")
    labels = rng.integers(0, 5, (7, 1)).astype("int64")
    main = static.Program()
    with static.program_guard(main, static.Program()):
        x = static.data("x", [None, 5], "float32")
        y = static.data("y", [None, 1], "int64")
        correct = static.create_global_var([1], 0, "int32", persistable=True, name="correct")
        total = static.create_global_var([1], 0, "int32", persistable=True, name="total")
        acc = static.accuracy(x, y, k=k, correct=correct, total=total)
    exe = static.Executor()
    exe.run(static.default_startup_program())
    got, c, t = exe.run(main, feed={"x": scores, "y": labels}, fetch_list=[acc, correct, total])
    want, hits = _np_accuracy(scores, labels, k)
    assert got.dtype == np.float32 and got.shape == ()
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert int(np.asarray(c).reshape(-1)[0]) == hits and int(np.asarray(t).reshape(-1)[0]) == 7


def test_accuracy_dynamic_and_metric_alias():
    scores = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], "float32")
    labels = np.array([[1], [1], [1]], "int64")
    x, y = paddle.to_tensor(scores), paddle.to_tensor(labels)
    correct, total = paddle.zeros([1], "int32"), paddle.zeros([1], "int32")
    acc = static.accuracy(x, y, correct=correct, total=total)
    np.testing.assert_allclose(acc.numpy(), 2 / 3, rtol=1e-6)
    assert int(correct.numpy().reshape(-1)[0]) == 2 and int(total.numpy().reshape(-1)[0]) == 3
    np.testing.assert_allclose(paddle.metric.accuracy(x, paddle.to_tensor(labels[:, 0])).numpy(),
                               2 / 3, rtol=1e-6)


@pytest.mark.parametrize("kwargs, arg", [({"k": 0}, "'k'"), ({"k": 3}, "'k'"),
                                         ({"k": 1.5}, "'k'")])
def test_accuracy_bad_k_names_the_argument(kwargs, arg):
    x = paddle.to_tensor(np.ones((2, 2), "float32"))
    y = paddle.to_tensor(np.zeros((2, 1), "int64"))
    with pytest.raises(ValueError, match=arg):
        static.accuracy(x, y, **kwargs)


def test_accuracy_bad_input_and_label_name_the_argument():
    x = paddle.to_tensor(np.ones((2, 2), "float32"))
    with pytest.raises(ValueError, match="'input'"):
        static.accuracy(paddle.to_tensor(np.ones(2, "float32")), x)
    with pytest.raises(ValueError, match="'label'"):
        static.accuracy(x, paddle.to_tensor(np.zeros((2, 3), "int64")))
    with pytest.raises(TypeError, match="'label'"):
        static.accuracy(x, paddle.to_tensor(np.zeros((2, 1), "float32")))


def _auc_program(num_thresholds=200, slide_steps=1, weight=False):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 2], "float32")
        y = static.data("y", [None, 1], "int64")
        w = static.data("w", [None, 1], "float32") if weight else None
        outs = static.auc(x, y, num_thresholds=num_thresholds, slide_steps=slide_steps,
                          ins_tag_weight=w)
    return main, startup, outs


def test_auc_accumulates_over_runs_and_slides_per_batch(static_mode):
    rng = np.random.default_rng(0)
    batches = [(rng.random(16).astype("float32"), rng.integers(0, 2, 16)) for _ in range(3)]
    main, startup, (global_auc, batch_auc, stats) = _auc_program(slide_steps=1)
    exe = static.Executor()
    exe.run(startup)
    seen_s, seen_y = [], []
    for s, y in batches:
        x = np.stack([1 - s, s], axis=1)
        g, b = exe.run(main, feed={"x": x, "y": y.reshape(-1, 1).astype("int64")},
                       fetch_list=[global_auc, batch_auc])
        seen_s.append(s)
        seen_y.append(y)
        np.testing.assert_allclose(b, _np_auc(s, y, 200), rtol=1e-12)
        np.testing.assert_allclose(g, _np_auc(np.concatenate(seen_s), np.concatenate(seen_y),
                                              200), rtol=1e-12)
    assert len(stats) == 4 and all(v.persistable for v in stats)


def test_auc_window_of_two_batches_and_tag_weights(static_mode):
    rng = np.random.default_rng(1)
    main, startup, (_, batch_auc, _) = _auc_program(num_thresholds=50, slide_steps=2,
                                                    weight=True)
    exe = static.Executor()
    exe.run(startup)
    history = []
    for _ in range(3):
        s, y = rng.random(10).astype("float32"), rng.integers(0, 2, 10)
        w = (rng.random(10) > 0.3).astype("float32")
        history.append((s[w != 0], y[w != 0]))
        b, = exe.run(main, feed={"x": np.stack([1 - s, s], 1),
                                 "y": y.reshape(-1, 1).astype("int64"),
                                 "w": w.reshape(-1, 1)}, fetch_list=[batch_auc])
        window = history[-2:]
        np.testing.assert_allclose(b, _np_auc(np.concatenate([h[0] for h in window]),
                                              np.concatenate([h[1] for h in window]), 50))


def test_auc_errors(static_mode):
    with static.program_guard(static.Program(), static.Program()):
        x = static.data("x", [None, 2], "float32")
        y = static.data("y", [None, 1], "int64")
        with pytest.raises(ValueError, match="'curve'"):
            static.auc(x, y, curve="PR")
        with pytest.raises(ValueError, match="'num_thresholds'"):
            static.auc(x, y, num_thresholds=0)
        with pytest.raises(TypeError, match="'label'"):
            static.auc(x, x)


def test_auc_needs_static_mode():
    with pytest.raises(RuntimeError, match="paddle.metric.Auc"):
        static.auc(paddle.to_tensor(np.ones((1, 2), "float32")),
                   paddle.to_tensor(np.ones((1, 1), "int64")))
