"""A jit.save that fails part-way leaves the previous model loadable (not a mix of old
parameters and new program), and a failure is reported only when the save failed."""
import os

import numpy as np
import pytest

from sampan import nn
from sampan.jit.save_load import load, save
from sampan.serialization import atomic_write_all
from sampan.serialization import atomic as atomic_module
from sampan.static import InputSpec

SPEC = [InputSpec([None, 4], "float32", "x")]


def _net(value, width=3):
    net = nn.Linear(4, width)
    for param in net.parameters():
        param.set_value(np.full(param.shape, value, "float32"))
    return net


def _output(prefix):
    return load(prefix)(np.ones((1, 4), "float32")).numpy()


@pytest.mark.parametrize("width", [3, 5])  # same names and shapes / different shapes
def test_a_save_blocked_at_its_json_file_keeps_the_previous_model(tmp_path, width):
    prefix = str(tmp_path / "m")
    save(_net(1.0), prefix, input_spec=SPEC)
    before = _output(prefix)
    os.remove(prefix + ".json")
    os.mkdir(prefix + ".json")  # the .json rename will fail
    with pytest.raises(OSError):
        save(_net(2.0, width), prefix, input_spec=SPEC)
    np.testing.assert_array_equal(_output(prefix), before)
    assert sorted(os.listdir(tmp_path)) == ["m.json", "m.pdiparams", "m.pdmodel"]


def test_a_rename_failing_mid_commit_puts_every_file_back(tmp_path, monkeypatch):
    paths = [str(tmp_path / n) for n in ("a", "b", "c")]
    with open(paths[0], "wb") as file:
        file.write(b"old a")
    with open(paths[2], "wb") as file:
        file.write(b"old c")
    real_replace, calls = os.replace, []

    def replace_failing_third(src, dst):
        calls.append(dst)
        if len(calls) == 3:
            raise OSError("disk gone")
        return real_replace(src, dst)

    monkeypatch.setattr(atomic_module.os, "replace", replace_failing_third)
    with pytest.raises(OSError, match="disk gone"):
        atomic_write_all({p: b"new" for p in paths})
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == ["a", "c"]
    assert open(paths[0], "rb").read() == b"old a" and open(paths[2], "rb").read() == b"old c"


def test_an_error_after_the_commit_does_not_report_a_failed_save(tmp_path, monkeypatch):
    prefix = str(tmp_path / "m")
    save(_net(1.0), prefix, input_spec=SPEC)

    def fsync_failing(fd):
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            raise OSError("folder fsync failed")
        return real_fsync(fd)

    real_fsync = os.fsync
    monkeypatch.setattr(atomic_module.os, "fsync", fsync_failing)
    save(_net(2.0), prefix, input_spec=SPEC)  # renamed into place: it did not fail
    monkeypatch.undo()
    np.testing.assert_allclose(_output(prefix), np.full((1, 3), 10.0))
