"""Return, break/continue, for loops, builtins and ternaries: converted == original."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static


def t(values):
    return paddle.to_tensor(np.asarray(values, "float32"))


def same(fn, *args):
    """The converted function returns what the original returns (tensors or Python values)."""
    expected, got = fn(*args), to_static(fn)(*args)
    if isinstance(expected, paddle.Tensor):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)
    else:
        assert got == expected
    return got


def early_python(x, n):
    if n > 2:
        return x * 3
    for i in range(5):
        if i == n:
            return x + i
    return x - 1


def early_tensor(x):
    if x.sum() > 0:
        return x + 1
    y = x * 2
    if x.mean() < -5:
        return y * 10
    return y - 1


def early_tuple(x):
    if x.max() > 1:
        return x, x * 2
    return x * 0, x


def bare_return(x, out):
    if x.shape[0] > 1:
        out.append(1)
        return
    out.append(2)


def loop_jumps(x, stop, skip):
    for i in range(8):
        if i == stop:
            break
        if i % skip == 0:
            continue
        x = x + i
    k = 0
    while True:
        k += 1
        if k > 3:
            break
    return x * k


def nested_loops(x):
    total = 0
    for i in range(4):
        for j in range(4):
            if j > i:
                break
            total += j
        if total > 6:
            break
    return x + total


def iterables(x, items):
    for k, v in enumerate(items, start=1):
        x = x + k * v
    for a, b in zip(items, [10, 20, 30]):
        x = x + a * b
    for v in (1, 2):
        x = x - v
    for key in {"a": 1, "bb": 2}:
        x = x + len(key)
    return x


def tensor_rows(x):
    acc = x[0] * 0
    for row in x:
        acc = acc + row * 2
    for i, row in enumerate(x):
        acc = acc + row * i
    return acc


def builtins_use(x, n):
    assert n >= 0, "n must be non-negative"
    assert x.sum() > -100
    print("n is", n)
    size = len(x) + len([1, 2])
    return x * size + float(x.sum()) + int(n) + bool(n)


def casts(x):
    return int(x.sum()), float(x.mean()), bool(x.max() > 0)


def is_tensor(x, y):
    flags = 0
    if isinstance(x, paddle.Tensor):
        flags += 1
    if isinstance(y, (int, paddle.Tensor)):
        flags += 10
    return x * flags


def ternary(x, n):
    y = x * 2 if n > 0 else x - 2
    z = y + 1 if y.sum() > 0 else y - 1
    return z


@pytest.mark.parametrize("n", [3, 1, 7])
def test_early_return_python(n):
    same(early_python, t([1.0, 2.0]), n)


@pytest.mark.parametrize("values", [[1.0, 2.0], [-1.0, -2.0], [-10.0, -20.0]])
def test_early_return_tensor(values):
    same(early_tensor, t(values))


@pytest.mark.parametrize("values", [[1.0, 2.0], [0.5, -2.0]])
def test_early_return_tuple_on_tensor(values):
    expected, got = early_tuple(t(values)), to_static(early_tuple)(t(values))
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a.numpy(), b.numpy())


def test_bare_return_gives_none():
    for rows in ([1.0], [1.0, 2.0]):
        eager, static = [], []
        assert bare_return(t(rows), eager) is None
        assert to_static(bare_return)(t(rows), static) is None
        assert eager == static


@pytest.mark.parametrize("stop, skip", [(5, 2), (8, 3), (0, 1)])
def test_break_continue(stop, skip):
    same(loop_jumps, t([1.0]), stop, skip)


def test_nested_breaks():
    same(nested_loops, t([0.0]))


def test_enumerate_zip_tuple_dict():
    same(iterables, t([1.0, 2.0]), [1, 2, 3])


def test_for_over_tensor_rows_unrolls():
    same(tensor_rows, t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert "_jst.Sequence(x)" in to_static(tensor_rows).code


def test_builtins(capsys):
    same(builtins_use, t([1.0, 2.0]), 2)
    assert "Tensor(name=" not in capsys.readouterr().out
    with pytest.raises(AssertionError, match="non-negative"):
        to_static(builtins_use)(t([1.0]), -1)


def test_casts_of_tensors_are_cast_ops():
    got = to_static(casts, full_graph=True)(t([1.5, 2.0]))
    assert [v.shape for v in got] == [[], [], []]
    assert [v.dtype.name for v in got] == ["int32", "float32", "bool"]
    assert [v.item() for v in got] == [3, 1.75, True]


def elementwise_casts(x):
    return int(x), float(x), bool(x), complex(x)


def test_casts_of_tensors_keep_their_shape():
    """As Paddle converts them: a cast op of the whole tensor, whatever its size."""
    values = np.array([[0.0, 1.5], [-2.5, 3.0]], "float32")
    got = to_static(elementwise_casts, full_graph=True)(paddle.to_tensor(values))
    expected = [values.astype(d) for d in ("int32", "float32", "bool", "complex64")]
    for value, want in zip(got, expected):
        assert value.dtype.name == want.dtype.name
        np.testing.assert_array_equal(value.numpy(), want)


def test_isinstance_tensor():
    same(is_tensor, t([1.0]), 3)
    same(is_tensor, t([1.0]), t([2.0]))


@pytest.mark.parametrize("n, values", [(1, [1.0]), (-1, [1.0]), (1, [-3.0])])
def test_ternary(n, values):
    same(ternary, t(values), n)


def test_len_of_unknown_dim_is_a_shape_element():
    from sampan.static import InputSpec

    def count(x):
        return x.sum() * len(x)
    fn = to_static(count, input_spec=[InputSpec([None, 2], "float32")])
    x = t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    np.testing.assert_allclose(fn(x).numpy(), count(x).numpy())
    ops = [op.type for op in fn.concrete_program.main_program.global_block().ops]
    assert "shape" in ops


def one_branch_unused(x):
    if x.sum() > 0:
        tmp = x * 2
        y = tmp + 1
    else:
        y = x - 1
    return y


def used_later(x):
    if x.sum() > 0:
        y = x + 1
    return y * 2


def test_undefined_only_fails_when_used():
    same(one_branch_unused, t([1.0]))
    same(one_branch_unused, t([-1.0]))
    for spec in (None, [paddle.static.InputSpec([None], "float32")]):
        with pytest.raises(NameError, match=r"'y' .*test_converters.py:\d+"):
            to_static(used_later, input_spec=spec)(t([1.0]))


def test_python_if_with_unbound_branch_matches_python():
    def f(x, flag):
        if flag:
            y = x + 1
        return y
    same(f, t([1.0]), True)
    with pytest.raises(NameError):
        to_static(f)(t([1.0]), False)
