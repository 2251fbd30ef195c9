"""dispatch hands each op to the current mode: the process default, or a thread's own
mode inside mode_guard (which no other thread sees)."""
import threading

import pytest

from sampan.core.dispatch import current_mode, dispatch, mode_guard, set_default_mode


class _Tagged:
    """A mode that answers every op with its tag."""

    def __init__(self, tag):
        self.tag = tag

    def run_op(self, op, tensors, attrs):
        return self.tag, op, tensors, attrs


@pytest.fixture
def default():
    """A fresh default mode, the original one restored afterwards."""
    original = current_mode()
    mode = _Tagged("default")
    set_default_mode(mode)
    yield mode
    set_default_mode(original)


def _tag():
    return dispatch("op", (), ())[0]


def test_dispatch_passes_the_call_to_the_default_mode(default):
    assert dispatch("op", (1, 2), (True,)) == ("default", "op", (1, 2), (True,))
    set_default_mode(_Tagged("other"))
    assert _tag() == "other"


def test_mode_guard_is_seen_by_its_thread_only(default):
    seen = {}

    def other_thread():
        seen["inside"] = _tag()

    with mode_guard(_Tagged("guarded")):
        assert _tag() == "guarded"
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
    assert seen["inside"] == "default"
    assert _tag() == "default"


def test_nested_guards_restore_the_outer_mode_even_after_an_error(default):
    with mode_guard(_Tagged("outer")):
        with pytest.raises(ValueError):
            with mode_guard(_Tagged("inner")):
                assert _tag() == "inner"
                raise ValueError
        assert _tag() == "outer"
        assert current_mode().tag == "outer"
    assert _tag() == "default"
    assert current_mode() is default


def test_a_guard_open_in_another_thread_leaves_this_thread_on_the_default(default):
    entered, leave = threading.Event(), threading.Event()

    def guarded_thread():
        with mode_guard(_Tagged("theirs")):
            entered.set()
            leave.wait(10)

    worker = threading.Thread(target=guarded_thread)
    worker.start()
    try:
        assert entered.wait(10)
        assert _tag() == "default"
    finally:
        leave.set()
        worker.join()
    assert _tag() == "default"
