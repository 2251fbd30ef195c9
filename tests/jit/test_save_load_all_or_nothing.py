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


def _interrupt_after_renames(monkeypatch, count):
    """Make `os.replace` of the save's temporaries stop the process (as a kill would) after
    `count` of them; the journal's own rename goes through."""
    real_replace, done = os.replace, []

    class Killed(BaseException):
        """Stands for the process dying: nothing after it runs."""

    def replace(src, dst):
        if not str(dst).endswith(".journal"):
            if len(done) == count:
                raise Killed
            done.append(dst)
        return real_replace(src, dst)

    monkeypatch.setattr(atomic_module.os, "replace", replace)
    monkeypatch.setattr(atomic_module, "_commit_or_roll_back",
                        lambda staged, backups: [t.commit() for t in staged])
    monkeypatch.setattr(atomic_module._Temporary, "release", lambda self: os.close(self.fd))
    monkeypatch.setattr(atomic_module, "_remove_quietly", lambda path: None)
    return Killed


@pytest.mark.parametrize("renamed", [0, 1, 2])
@pytest.mark.parametrize("width", [3, 5])
def test_a_save_cut_between_its_renames_loads_as_the_new_model(tmp_path, monkeypatch,
                                                               renamed, width):
    prefix = str(tmp_path / "m")
    save(_net(1.0), prefix, input_spec=SPEC)
    killed = _interrupt_after_renames(monkeypatch, renamed)
    with pytest.raises(killed):
        save(_net(2.0, width), prefix, input_spec=SPEC)
    monkeypatch.undo()
    assert os.path.exists(tmp_path / ".m.pdiparams.journal")
    expected = np.full((1, width), 10.0)
    np.testing.assert_allclose(_output(prefix), expected)  # the new set, whole
    save(_net(3.0), prefix, input_spec=SPEC)  # finishes the cut save, then writes anew
    np.testing.assert_allclose(_output(prefix), np.full((1, 3), 15.0))
    assert sorted(os.listdir(tmp_path)) == ["m.json", "m.pdiparams", "m.pdmodel"]


def test_a_damaged_journal_is_a_corrupt_file_error_and_the_next_save_drops_it(tmp_path):
    from sampan.serialization import CorruptFileError
    prefix = str(tmp_path / "m")
    save(_net(1.0), prefix, input_spec=SPEC)
    journal = tmp_path / ".m.pdiparams.journal"
    for text in ('{"format": "sampan.save_journal", "files": [["../x", "m.json"]]}',
                 '{"format": "sampan.save_journal", "files": [[".m.json.0123456789ab.tmp",'
                 ' "/etc/passwd"]]}', "not json", '{"files": []}'):
        journal.write_text(text)
        with pytest.raises(CorruptFileError, match="journal"):
            _output(prefix)
    save(_net(2.0), prefix, input_spec=SPEC)
    assert not journal.exists()
    np.testing.assert_allclose(_output(prefix), np.full((1, 3), 10.0))


def test_files_of_one_save_must_share_a_folder(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(ValueError, match="one folder"):
        atomic_write_all({tmp_path / "a": b"1", tmp_path / "d" / "b": b"2"})
    assert sorted(os.listdir(tmp_path)) == ["d"]
