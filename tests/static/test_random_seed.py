"""Program.random_seed makes every run of the program draw the same random values (the
startup program initialises the same parameters each time), as in Paddle; without it runs
draw from the global generator."""
import numpy as np

import sampan as paddle
from sampan import static


def _build(seed):
    main, startup = static.Program(), static.Program()
    main.random_seed = startup.random_seed = seed
    with static.program_guard(main, startup):
        x = static.data("x", [None, 4], "float32")
        y = static.nn.fc(x, 3)
        z = static.nn.fc(y, 3)
        out = paddle.nn.functional.dropout(z, 0.5)
    return main, startup, out


def _initial_values(startup, main):
    scope = static.Scope()
    exe = static.Executor()
    with static.scope_guard(scope):
        exe.run(startup)
        return [np.array(scope.find_var(p.name).get_tensor())
                for p in main.global_block().all_parameters()]


def test_a_seeded_startup_program_initialises_the_same_values_on_every_run():
    paddle.enable_static()
    try:
        main, startup, _ = _build(7)
        first, second = _initial_values(startup, main), _initial_values(startup, main)
        rebuilt_main, rebuilt_startup, _ = _build(7)
        third = _initial_values(rebuilt_startup, rebuilt_main)
        other_main, other_startup, _ = _build(8)
        other = _initial_values(other_startup, other_main)
    finally:
        paddle.disable_static()
    for a, b, c in zip(first, second, third):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)
    assert not np.array_equal(first[0], other[0])
    assert not np.array_equal(first[0][:, :3], first[2])  # two weights differ from each other


def test_without_a_seed_runs_draw_new_values_and_a_seeded_run_leaves_the_global_stream():
    paddle.seed(3)
    expected = paddle.rand([4]).numpy()
    paddle.seed(3)
    paddle.enable_static()
    try:
        main, startup, _ = _build(0)
        first, second = _initial_values(startup, main), _initial_values(startup, main)
        paddle.seed(3)
        seeded_main, seeded_startup, _ = _build(7)
        _initial_values(seeded_startup, seeded_main)
    finally:
        paddle.disable_static()
    after = paddle.rand([4]).numpy()
    assert not np.array_equal(first[0], second[0])
    np.testing.assert_array_equal(after, expected)


def test_dropout_of_a_seeded_main_program_repeats_its_mask_as_in_paddle():
    paddle.enable_static()
    try:
        main, startup, out = _build(7)
        exe = static.Executor()
        scope = static.Scope()
        with static.scope_guard(scope):
            exe.run(startup)
            feed = {"x": np.ones((8, 4), "float32")}
            a, = exe.run(main, feed=feed, fetch_list=[out])
            b, = exe.run(main, feed=feed, fetch_list=[out])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(a == 0, b == 0)
