"""paddle.version and paddle.utils.run_check."""
import sampan as paddle


def test_version_fields_match_sampan_version():
    v = paddle.version
    assert v.full_version == paddle.__version__
    assert ".".join([v.major, v.minor, v.patch]) == v.full_version
    assert isinstance(v.commit, str) and v.cuda() == "False"


def test_version_show(capsys):
    paddle.version.show()
    assert f"full_version: {paddle.__version__}" in capsys.readouterr().out


def test_run_check(capsys):
    paddle.utils.run_check()
    assert "works well on 1 CPU" in capsys.readouterr().out
