"""set_verbosity / set_code_level write to stderr by default, as Paddle's logger does."""
import sampan as paddle


def test_verbosity_and_code_level_print_to_stderr(capsys):
    def add_one(x):
        return x + 1
    paddle.jit.set_verbosity(1)
    paddle.jit.set_code_level(100)
    try:
        paddle.jit.to_static(add_one)(paddle.ones([1]))
    finally:
        paddle.jit.set_verbosity(0)
        paddle.jit.set_code_level(-1)
    err = capsys.readouterr().err
    assert "tracing " in err and "add_one" in err and "converting " in err
    assert "def add_one(x):" in err and "sampan.jit INFO" in err
    paddle.jit.to_static(add_one)(paddle.ones([2]))
    assert capsys.readouterr().err == ""
