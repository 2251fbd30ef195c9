"""paddle.static.save / load / load_program_state / set_program_state: a trained Program's
persistable values survive a save/load round trip exactly, and bad files or mismatched
programs fail with errors naming the file or the variable."""
import os

import numpy as np
import pytest

import sampan as paddle
from sampan import static
from sampan.serialization import CorruptFileError

RNG = np.random.default_rng(3)
X, Y = RNG.normal(size=(8, 4)).astype("float32"), RNG.normal(size=(8, 1)).astype("float32")
W1, W2 = RNG.normal(0, 0.5, (4, 5)).astype("float32"), RNG.normal(0, 0.5, (5, 1)).astype(
    "float32")


def build(hidden=5, dtype="float32"):
    """(main, startup, loss) of a two-layer regression trained by Adam."""
    main, startup = static.Program(), static.Program()
    paddle.enable_static()
    try:
        with static.program_guard(main, startup):
            x = static.data("x", [None, 4], dtype)
            y = static.data("y", [None, 1], dtype)
            w1 = static.create_parameter([4, hidden], dtype, name="w1",
                                         default_initializer=lambda s, d: W1[:, :hidden])
            w2 = static.create_parameter([hidden, 1], dtype, name="w2",
                                         default_initializer=lambda s, d: W2[:hidden])
            loss = ((paddle.matmul(paddle.tanh(paddle.matmul(x, w1)), w2) - y) ** 2).mean()
            paddle.optimizer.Adam(0.05, parameters=[w1, w2]).minimize(loss)
    finally:
        paddle.disable_static()
    return main, startup, loss


@pytest.fixture
def scope():
    """A fresh global scope for the test."""
    fresh = static.Scope()
    with static.scope_guard(fresh):
        yield fresh


def train(exe, main, loss, steps):
    return [float(exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0])
            for _ in range(steps)]


def persistable_names(program):
    return sorted({v.name for v in program.list_vars() if v.persistable and not v.is_data})


def snapshot(scope, names):
    return {n: np.array(scope.find_var(n).get_tensor()) for n in names}


def perturb(scope, names):
    for n in names:
        holder = scope.find_var(n).get_tensor()
        holder.set(RNG.normal(size=holder.shape()).astype(np.array(holder).dtype))


@pytest.fixture
def trained(scope, tmp_path):
    """A program trained three steps and saved; (main, loss, exe, prefix, saved values)."""
    main, startup, loss = build()
    exe = static.Executor()
    exe.run(startup)
    train(exe, main, loss, 3)
    prefix = str(tmp_path / "ckpt" / "model")
    static.save(main, prefix)
    return main, loss, exe, prefix, snapshot(scope, persistable_names(main))


def test_save_writes_parameters_optimizer_state_and_program(trained):
    main, _, _, prefix, saved = trained
    params = paddle.load(prefix + ".pdparams", return_numpy=True)
    opt = paddle.load(prefix + ".pdopt", return_numpy=True)
    assert sorted(params) == ["w1", "w2"]
    assert any(n.startswith("learning_rate_") for n in opt)
    assert any("moment1" in n for n in opt)
    assert sorted([*params, *opt]) == sorted(saved)
    for name, value in {**params, **opt}.items():
        np.testing.assert_array_equal(value, saved[name])
    with open(prefix + ".pdmodel", encoding="utf-8") as file:
        program = static.program_from_json(file.read())
    assert [op.type for op in program.global_block().ops] == [
        op.type for op in main.global_block().ops]


def test_load_restores_values_and_training_continues_identically(trained, scope):
    main, loss, exe, prefix, saved = trained
    continued = train(exe, main, loss, 3)
    after = snapshot(scope, list(saved))
    perturb(scope, list(saved))
    static.load(main, prefix, exe)
    for name, value in snapshot(scope, list(saved)).items():
        np.testing.assert_array_equal(value, saved[name])
    assert train(exe, main, loss, 3) == continued
    for name, value in snapshot(scope, list(saved)).items():
        np.testing.assert_array_equal(value, after[name])


def test_load_into_a_fresh_scope_without_running_startup(trained):
    main, loss, _, prefix, saved = trained
    continued = train(static.Executor(), main, loss, 2)
    with static.scope_guard(static.Scope()):
        static.load(main, prefix + ".pdparams")
        exe = static.Executor()
        assert train(exe, main, loss, 2) == continued


def test_load_program_state_and_set_program_state_round_trip(trained, scope):
    main, _, _, prefix, saved = trained
    state = static.load_program_state(prefix)
    assert sorted(state) == sorted(saved)
    assert all(isinstance(v, np.ndarray) for v in state.values())
    perturb(scope, list(saved))
    static.set_program_state(main, state)
    for name, value in snapshot(scope, list(saved)).items():
        np.testing.assert_array_equal(value, saved[name])
    state["w1"][...] = 0.0  # the scope holds copies, not the dict's arrays
    assert np.array_equal(snapshot(scope, ["w1"])["w1"], saved["w1"])
    only = static.load_program_state(prefix, var_list=["w2"])
    assert list(only) == ["w2"]


def test_var_list_restricts_what_load_restores(trained, scope):
    main, _, _, prefix, saved = trained
    perturb(scope, list(saved))
    noisy = snapshot(scope, ["w2"])["w2"]
    static.load(main, prefix, var_list=[main.global_block().var("w1")])
    np.testing.assert_array_equal(snapshot(scope, ["w1"])["w1"], saved["w1"])
    np.testing.assert_array_equal(snapshot(scope, ["w2"])["w2"], noisy)
    with pytest.raises(ValueError, match="not persistable variables"):
        static.load(main, prefix, var_list=["nope"])


def test_set_program_state_warns_about_unknown_names(trained):
    main, _, _, prefix, _ = trained
    state = static.load_program_state(prefix)
    state["stranger"] = np.zeros(2, "float32")
    with pytest.warns(UserWarning, match="stranger"):
        static.set_program_state(main, state)


def test_mismatched_shape_names_the_variable_and_writes_nothing(trained, scope):
    main, _, _, prefix, saved = trained
    state = static.load_program_state(prefix)
    state["w2"] = np.zeros((7, 1), "float32")
    perturb(scope, ["w1"])
    noisy = snapshot(scope, ["w1"])["w1"]
    with pytest.raises(ValueError, match=r"'w2'.*shape \[7, 1\].*\[5, 1\]"):
        static.set_program_state(main, state)
    np.testing.assert_array_equal(snapshot(scope, ["w1"])["w1"], noisy)


def test_loading_into_a_program_of_other_shapes_names_the_variable(trained):
    _, _, _, prefix, _ = trained
    wider, _, _ = build(hidden=6)  # its optimizer variables have other unique names
    with pytest.raises(ValueError, match=r"'w1'.*\[4, 5\].*\[4, 6\]"):
        static.load(wider, prefix, var_list=["w1", "w2"])


def test_mismatched_dtype_names_the_variable(trained):
    main, _, _, prefix, _ = trained
    state = static.load_program_state(prefix)
    state["w1"] = state["w1"].astype("float64")
    with pytest.raises(ValueError, match=r"'w1'.*float64.*float32"):
        static.set_program_state(main, state)


def test_truncated_file_is_reported(trained):
    main, _, _, prefix, _ = trained
    path = prefix + ".pdparams"
    with open(path, "rb") as file:
        data = file.read()
    with open(path, "wb") as file:
        file.write(data[:-5])
    with pytest.raises(CorruptFileError, match="model.pdparams"):
        static.load(main, prefix)
    with pytest.raises(CorruptFileError, match="model.pdparams"):
        static.load_program_state(prefix)


def test_missing_files_and_variables_are_reported(trained, tmp_path):
    main, _, _, prefix, _ = trained
    with pytest.raises(FileNotFoundError, match="nowhere.pdparams"):
        static.load(main, str(tmp_path / "nowhere"))
    os.remove(prefix + ".pdopt")
    with pytest.raises(FileNotFoundError, match="model.pdopt"):
        static.load(main, prefix)
    assert sorted(static.load_program_state(prefix)) == ["w1", "w2"]
    paddle.save({"w1": np.zeros((4, 5), "float32")}, prefix + ".pdparams")
    with pytest.raises(KeyError, match="w2"):
        static.load(main, prefix)


def test_save_needs_initialized_values_and_keeps_old_files(trained):
    main, _, _, prefix, saved = trained
    with static.scope_guard(static.Scope()):
        with pytest.raises(ValueError, match="run the startup program"):
            static.save(main, prefix)
    assert sorted(static.load_program_state(prefix)) == sorted(saved)


def test_bad_arguments(trained, tmp_path):
    main, _, _, _, _ = trained
    with pytest.raises(ValueError, match="file prefix is empty"):
        static.save(main, str(tmp_path) + os.sep)
    with pytest.raises(ValueError, match="protocol"):
        static.save(main, str(tmp_path / "m"), protocol=5)
    with pytest.raises(TypeError, match="static Program"):
        static.save("main", str(tmp_path / "m"))
    with pytest.raises(TypeError, match="dict"):
        static.set_program_state(main, [("w1", np.zeros((4, 5)))])
