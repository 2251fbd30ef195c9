"""print() in converted code prints at each run of the Program, once per call, as eager
code would: the user's text and separators, Tensors in the eager format."""
import sys

import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static


def labelled(x):
    y = x * 2
    print("label", y, end="!\n", sep=": ")
    return y


def branchy(x):
    if x.sum() > 0:
        print("positive", x.sum())
    else:
        print("not positive")
    for i in range(2):
        print("step", i)
    return x


def to_stderr(x):
    print("err", x, file=sys.stderr)
    return x


@pytest.mark.parametrize("values", [[1, 2], [0, -5]])
def test_print_matches_eager_output_on_every_run(capsys, values):
    x = paddle.to_tensor(np.array(values, "int32"))
    labelled(x)
    eager = capsys.readouterr().out
    static = to_static(labelled)
    for _ in range(2):
        static(x)
        assert capsys.readouterr().out == eager  # once per run, nothing while tracing


def test_print_follows_the_branch_taken_at_run_time(capsys):
    static = to_static(branchy)
    for values in ([1.0, 2.0], [-1.0, -2.0], [3.0, 0.0]):
        x = paddle.to_tensor(values)
        branchy(x)
        eager = capsys.readouterr().out
        static(x)
        assert capsys.readouterr().out == eager


def test_print_to_stderr(capsys):
    x = paddle.to_tensor([1.5])
    to_stderr(x)
    eager = capsys.readouterr()
    to_static(to_stderr)(x)
    got = capsys.readouterr()
    assert got.err == eager.err and got.out == ""


def test_print_of_a_closure_tensor_shows_its_current_value(capsys):
    bias = paddle.to_tensor([1.0])

    def show(x):
        print(bias)
        return x + bias
    static = to_static(show)
    static(paddle.ones([1]))
    bias.set_value(np.array([5.0], "float32"))
    capsys.readouterr()
    static(paddle.ones([1]))
    assert "[5.]" in capsys.readouterr().out
