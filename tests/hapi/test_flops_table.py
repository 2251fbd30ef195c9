"""flops(print_detail=True) prints Paddle's table (header, +---+ rules, name, first input
and output shapes, parameter count, FLOPs per leaf layer), byte for byte as Paddle 3.3.1
prints it for the same network (fixtures/flops_detail.txt, made by make_flops_detail.py)."""
import os

import sampan as paddle

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                       "flops_detail.txt")


def test_print_detail_matches_paddles_table(capsys):
    with paddle.utils.unique_name.guard():
        net = paddle.nn.Sequential(paddle.nn.Conv2D(3, 8, 3), paddle.nn.BatchNorm2D(8),
                                   paddle.nn.ReLU(), paddle.nn.MaxPool2D(2),
                                   paddle.nn.Flatten(), paddle.nn.Linear(8 * 15 * 15, 10))
    total = paddle.flops(net, [1, 3, 32, 32], print_detail=True)
    printed = capsys.readouterr().out
    with open(FIXTURE) as file:
        expected = file.read()
    assert printed + f"returned {total}\n" == expected


def test_without_detail_only_the_totals_are_printed(capsys):
    net = paddle.nn.Linear(4, 2)
    assert paddle.flops(net, [3, 4]) == 24
    assert capsys.readouterr().out == "Total Flops: 24     Total Params: 10\n"
