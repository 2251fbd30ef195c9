"""A jit.save killed at a random point leaves the previous model files loadable."""
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from sampan.jit.save_load import load

SAVER = textwrap.dedent("""
    import sys
    import numpy as np
    from sampan import nn
    from sampan.jit.save_load import save
    from sampan.static import InputSpec

    net = nn.Sequential(nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 1024),
                        nn.Linear(1024, 1024))
    version = 0
    while True:
        for param in net.parameters():
            param.set_value(np.full(param.shape, version, "float32"))
        save(net, sys.argv[1], input_spec=[InputSpec([None, 1024], "float32", "x")])
        print(version, flush=True)
        version += 1
""")


def start_saver(prefix):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    return subprocess.Popen([sys.executable, "-c", SAVER, str(prefix)], stdout=subprocess.PIPE,
                            text=True, env=env)


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
@pytest.mark.parametrize("trial", range(5))
def test_killed_save_leaves_loadable_files(tmp_path, trial):
    prefix = tmp_path / "big"
    saver = start_saver(prefix)
    try:
        assert saver.stdout.readline().strip() == "0"  # a complete save exists now
        time.sleep(random.Random(trial).uniform(0.0, 0.4))
    finally:
        saver.send_signal(signal.SIGKILL)
        saver.wait()
    finished = [int(line) for line in saver.stdout.read().split()]
    newest = max([0] + finished)
    loaded = load(prefix)
    values = {float(np.unique(p.numpy())[0]) for p in loaded.parameters()}
    assert len(values) == 1 and values <= {float(newest), float(newest + 1)}
    assert all(np.unique(p.numpy()).size == 1 for p in loaded.parameters())
    out = loaded(np.ones((1, 1024), "float32")).numpy()
    assert np.isfinite(out).all()


KILLED_BETWEEN_RENAMES = textwrap.dedent("""
    import os, signal, sys
    import numpy as np
    from sampan import nn
    from sampan.jit.save_load import save
    from sampan.static import InputSpec

    spec = [InputSpec([None, 4], "float32", "x")]
    save(nn.Linear(4, 3), sys.argv[1], input_spec=spec)
    net = nn.Linear(4, 5)  # same parameter names, other shapes
    for param in net.parameters():
        param.set_value(np.full(param.shape, 2.0, "float32"))
    real_replace, renamed = os.replace, []

    def replace(src, dst):
        if not dst.endswith(".journal"):
            if len(renamed) == int(sys.argv[2]):
                os.kill(os.getpid(), signal.SIGKILL)
            renamed.append(dst)
        real_replace(src, dst)

    os.replace = replace
    save(net, sys.argv[1], input_spec=spec)
""")


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
@pytest.mark.parametrize("renamed", [1, 2])
def test_a_kill_between_the_renames_of_a_save_loads_the_new_model(tmp_path, renamed):
    prefix = str(tmp_path / "m")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root)
    run = subprocess.run([sys.executable, "-c", KILLED_BETWEEN_RENAMES, prefix, str(renamed)],
                         env=env)
    assert run.returncode == -signal.SIGKILL
    out = load(prefix)(np.ones((1, 4), "float32")).numpy()
    np.testing.assert_allclose(out, np.full((1, 5), 10.0))  # the new model, whole
