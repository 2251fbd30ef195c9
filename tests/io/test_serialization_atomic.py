"""atomic_open / atomic_write: old file intact on errors, no temp files left, survives SIGKILL."""

import os
import pathlib
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import sampan.serialization
from sampan.serialization import atomic_open, atomic_write, load_tree, save_tree

REPO_ROOT = pathlib.Path(sampan.serialization.__file__).parent.parent.parent


def test_atomic_write_replaces_the_file_and_returns_the_result(tmp_path):
    path = tmp_path / "out.bin"
    path.write_bytes(b"old")
    assert atomic_write(path, lambda f: f.write(b"new content")) == 11
    assert path.read_bytes() == b"new content"
    assert os.listdir(tmp_path) == ["out.bin"]


def test_atomic_open_text_mode_creates_a_new_file(tmp_path):
    path = tmp_path / "program.json"
    with atomic_open(str(path), "w") as f:
        f.write("{\"é\": 1}")
    assert path.read_text(encoding="utf-8") == "{\"é\": 1}"


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_new_files_get_ordinary_permissions(tmp_path):
    umask = os.umask(0o022)
    os.umask(umask)
    path = tmp_path / "perm.bin"
    atomic_write(path, lambda f: f.write(b"x"))
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


@pytest.mark.parametrize("error", [RuntimeError("disk on fire"), KeyboardInterrupt()])
def test_exception_inside_the_write_leaves_the_old_file(tmp_path, error):
    path = tmp_path / "model.pdparams"
    path.write_bytes(b"old")

    def failing_write(f):
        f.write(b"partial new content")
        raise error

    with pytest.raises(type(error)):
        atomic_write(path, failing_write)
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["model.pdparams"]


def test_exception_inside_atomic_open_block_leaves_no_file(tmp_path):
    path = tmp_path / "never.bin"
    with pytest.raises(ValueError, match="boom"):
        with atomic_open(path) as f:
            f.write(b"data")
            raise ValueError("boom")
    assert os.listdir(tmp_path) == []


def test_failing_save_tree_keeps_the_old_state(tmp_path):
    path = tmp_path / "state.pdparams"
    save_tree({"w": np.ones(3)}, path)
    with pytest.raises(TypeError):
        save_tree({"w": np.ones(3), "bad": object()}, path)
    assert load_tree(path)["w"].tolist() == [1.0, 1.0, 1.0]
    assert os.listdir(tmp_path) == ["state.pdparams"]


def test_bad_mode_and_directory_target(tmp_path):
    with pytest.raises(ValueError, match="mode"):
        with atomic_open(tmp_path / "x", "ab"):
            pass
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError):
        atomic_write(tmp_path / "folder", lambda f: f.write(b"x"))
    assert os.listdir(tmp_path) == ["folder"]


CHILD = """
import sys
import numpy as np
from sampan.serialization import save_tree
weights = np.empty(4_000_000, np.float32)
print("ready", flush=True)
for step in range(1, 10**9):
    weights.fill(step)
    save_tree({"step": step, "w": weights}, sys.argv[1])
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_during_large_saves_leaves_a_loadable_file(tmp_path):
    path = tmp_path / "ckpt.pdparams"
    save_tree({"step": 0, "w": np.zeros(4_000_000, np.float32)}, path)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    rng = random.Random(1234)
    for _ in range(5):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], env=env,
                                 stdout=subprocess.PIPE, cwd=tmp_path)
        assert child.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0.0, 0.25))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        tree = load_tree(path)
        assert tree["w"].shape == (4_000_000,)
        assert (tree["w"] == tree["step"]).all()


HOLDER = """
import sys
from sampan.serialization import atomic_open
with atomic_open(sys.argv[1]) as file:
    file.write(b"half")
    print("writing", flush=True)
    sys.stdin.readline()
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_later_save_removes_temporaries_of_dead_writers_but_not_of_live_ones(tmp_path):
    path = tmp_path / "ckpt.pdparams"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}

    def writer():
        child = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], env=env,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=tmp_path)
        assert child.stdout.readline() == b"writing\n"
        return child

    dead, live = writer(), writer()
    dead.send_signal(signal.SIGKILL)
    dead.wait()
    dead.stdout.close()
    (tmp_path / ".other.pdparams.0123456789ab.tmp").write_bytes(b"another target's")
    temporaries = {n for n in os.listdir(tmp_path) if n.startswith(".ckpt.pdparams.")}
    assert len(temporaries) == 2
    save_tree({"w": np.ones(2)}, path)
    left = set(os.listdir(tmp_path))
    assert len(left & temporaries) == 1  # the live writer's
    live.communicate(b"\n")
    assert live.returncode == 0 and path.read_bytes() == b"half"
    assert sorted(os.listdir(tmp_path)) == [".other.pdparams.0123456789ab.tmp", "ckpt.pdparams"]
