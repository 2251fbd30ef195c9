"""Inference models exported by real Paddle 3.3.1 (tests/interop/fixtures, made by
make_fixtures.py) run through sampan's three entry points and match Paddle Inference's
outputs."""
import json
import pathlib
import shutil

import numpy as np
import pytest

import sampan as paddle
from sampan.inference import Config, create_predictor
from sampan.interop import UnsupportedPaddleOp
from sampan.serialization import CorruptFileError

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
PIR = sorted(p.stem for p in (FIXTURES / "pir").glob("*.json"))
LEGACY = sorted(p.stem for p in (FIXTURES / "legacy").glob("*.pdmodel"))


def reference(prefix, tag=""):
    """(inputs, Paddle's outputs) of a fixture's first case (or the case keyed `tag`)."""
    data = np.load(f"{prefix}.npz", allow_pickle=False)
    count = {kind: len([k for k in data.files if k.startswith(tag + kind)])
             for kind in ("in", "out")}
    return ([data[f"{tag}in{i}"] for i in range(count["in"])],
            [data[f"{tag}out{i}"] for i in range(count["out"])])


def all_cases(prefix):
    """Every case of a fixture: control-flow models hold inputs for each branch and several
    trip counts (c1_in0, c1_out0, ...)."""
    data = np.load(f"{prefix}.npz", allow_pickle=False)
    tags = sorted({k.split("_")[0] + "_" for k in data.files if k[0] == "c"})
    return [reference(prefix)] + [reference(prefix, tag) for tag in tags]


def check(outputs, expected):
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    assert len(outputs) == len(expected)
    for got, want in zip(outputs, expected):
        got = got.numpy() if hasattr(got, "numpy") else got
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def run_jit_load(prefix, inputs):
    return paddle.jit.load(prefix)(*[paddle.to_tensor(x) for x in inputs])


def run_static(prefix, inputs):
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        return exe.run(program, feed=dict(zip(feeds, inputs)), fetch_list=fetches)
    finally:
        paddle.disable_static()


def run_predictor(prefix, inputs, suffix):
    predictor = create_predictor(Config(f"{prefix}{suffix}", f"{prefix}.pdiparams"))
    for name, value in zip(predictor.get_input_names(), inputs):
        predictor.get_input_handle(name).copy_from_cpu(value)
    predictor.run()
    return [predictor.get_output_handle(n).copy_to_cpu() for n in predictor.get_output_names()]


ENTRY_POINTS = {"jit.load": run_jit_load, "static.load_inference_model": run_static}


MODELS = [("pir", name, ".json") for name in PIR] + [("legacy", name, ".pdmodel")
                                                     for name in LEGACY]


@pytest.mark.parametrize("entry", ["jit.load", "static.load_inference_model", "predictor"])
@pytest.mark.parametrize("folder,name,suffix", MODELS, ids=[f"{f}-{n}" for f, n, _ in MODELS])
def test_model_matches_paddle(folder, name, suffix, entry):
    prefix = str(FIXTURES / folder / name)
    for inputs, expected in all_cases(prefix):
        if entry == "predictor":
            check(run_predictor(prefix, inputs, suffix), expected)
        else:
            check(ENTRY_POINTS[entry](prefix, inputs), expected)


def test_dynamic_batch_and_control_flow_follow_the_inputs():
    prefix = str(FIXTURES / "pir" / "while_loop")
    layer = paddle.jit.load(prefix)
    h, count = layer(paddle.to_tensor(np.full((4, 3), 100.0, "float32")))
    assert h.shape == [4, 3] and count.numpy().tolist() == [0]   # the loop never runs
    (x,), _ = reference(prefix)
    big = np.concatenate([x, x * 3.0])
    assert layer(paddle.to_tensor(big))[0].shape == [2, 3]


def program_ops(prefix, suffix):
    """{op type: count} over every block of the Program sampan builds from a model."""
    from sampan.inference.model_format import load_model
    methods, _ = load_model(f"{prefix}{suffix}", f"{prefix}.pdiparams")
    counts = {}
    for block in methods["forward"].program.blocks:
        for op in block.ops:
            counts[op.type] = counts.get(op.type, 0) + 1
    return counts


@pytest.mark.parametrize("name,expected", [
    ("mlp_if", {"cond": 1}), ("while_loop", {"while": 1}),
    ("static_control_flow", {"cond": 2, "while": 1}),
    ("static_switch_case", {"cond": 5}),
    ("list_loop", {"while": 1, "create_array": 1, "array_write": 1, "array_join": 1}),
    ("static_tensor_array", {"while": 1, "create_array": 1, "array_write": 2,
                             "array_read": 1, "array_length": 1, "array_join": 1})])
def test_legacy_control_flow_becomes_cond_and_while(name, expected):
    """Each legacy cond (two conditional_blocks and a select_input per result) is one
    `cond`, each legacy while one `while`, as a PIR model of the same layer; tensor arrays
    (written in place by write_to_array) are sampan's arrays."""
    counts = program_ops(FIXTURES / "legacy" / name, ".pdmodel")
    assert {k: counts.get(k, 0) for k in expected} == expected
    if name in ("mlp_if", "while_loop", "list_loop"):
        pir = program_ops(FIXTURES / "pir" / name, ".json")
        assert {k: pir.get(k, 0) for k in expected} == expected


def test_legacy_cases_take_both_branches_and_several_trip_counts():
    """The fixtures' cases exercise what they claim, by Paddle's own outputs: the false
    branch of static_control_flow gives (-h, max(-h, axis=1)); the loops' counters."""
    cases = all_cases(FIXTURES / "legacy" / "static_control_flow")
    false_branch = {bool(np.allclose(out[1], (-out[0]).max(axis=1))) for _, out in cases}
    assert false_branch == {True, False}
    assert len({int(out[2][0]) for _, out in cases}) >= 3
    trips = {int(out[1][0]) for _, out in all_cases(FIXTURES / "legacy" / "while_loop")}
    assert len(trips) >= 3 and 0 in trips


def test_legacy_inputs_and_outputs_follow_the_feed_and_fetch_columns():
    """save_inference_model writes the feed ops last input first: the inputs follow their
    `col`, not the op order (k would otherwise take x's place)."""
    predictor = create_predictor(Config(str(FIXTURES / "legacy" / "static_switch_case.pdmodel"),
                                        str(FIXTURES / "legacy" / "static_switch_case.pdiparams")))
    assert predictor.get_input_names() == ["x", "k"]
    assert len(predictor.get_output_names()) == 2


def test_legacy_if_cases_match_numpy_on_both_branches():
    """mlp_if's cases against NumPy (y = bn(fc(x)); y * 2 if y.mean() > 0 else y - 1), with
    the parameters the file holds: both branches are taken."""
    prefix = FIXTURES / "legacy" / "mlp_if"
    p = {k: v.numpy() for k, v in paddle.jit.load(str(prefix)).state_dict().items()}
    taken = set()
    for (x,), (relu, total) in all_cases(prefix):
        h = x @ p["linear_0.w_0"] + p["linear_0.b_0"]
        y = (h - p["batch_norm1d_0.w_1"]) / np.sqrt(p["batch_norm1d_0.w_2"] + 1e-5) \
            * p["batch_norm1d_0.w_0"] + p["batch_norm1d_0.b_0"]
        taken.add(bool(y.mean() > 0))
        y = y * 2.0 if y.mean() > 0 else y - 1.0
        np.testing.assert_allclose(total, y.sum(axis=1), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(relu, np.maximum(y, 0), rtol=1e-4, atol=1e-5)
    assert taken == {True, False}


def copy_model(tmp_path, name):
    for suffix in (".json", ".pdiparams"):
        shutil.copy(FIXTURES / "pir" / f"{name}{suffix}", tmp_path / f"m{suffix}")
    return tmp_path / "m"


def edit_ops(prefix, edit):
    path = pathlib.Path(f"{prefix}.json")
    doc = json.loads(path.read_text())
    edit(doc["program"]["regions"][0]["blocks"][0]["ops"])
    path.write_text(json.dumps(doc))


def test_unsupported_ops_are_all_named_at_once(tmp_path):
    prefix = copy_model(tmp_path, "mlp_if")

    def rename(ops):
        kinds = [op for op in ops if op["#"] in ("1.relu", "1.matmul")]
        kinds[0]["#"], kinds[1]["#"] = "1.fancy_op", "1.other_op"
    edit_ops(prefix, rename)
    with pytest.raises(UnsupportedPaddleOp) as info:
        paddle.jit.load(str(prefix))
    assert info.value.ops == ["pd_op.fancy_op", "pd_op.other_op"]
    assert "pd_op.fancy_op, pd_op.other_op" in str(info.value)


def test_params_that_do_not_match_the_program_are_refused(tmp_path):
    prefix = copy_model(tmp_path, "resnet_tiny")
    shutil.copy(FIXTURES / "pir" / "vgg_tiny.pdiparams", f"{prefix}.pdiparams")
    with pytest.raises(CorruptFileError, match="Paddle params file"):
        paddle.jit.load(str(prefix))


def test_in_place_variant_uses_its_ops_rule(tmp_path):
    prefix = copy_model(tmp_path, "mlp_if")
    edit_ops(prefix, lambda ops: [op.update({"#": "1.relu_"}) for op in ops
                                  if op["#"] == "1.relu"])
    inputs, expected = reference(FIXTURES / "pir" / "mlp_if")
    check(run_jit_load(str(prefix), inputs), expected)


def test_predictor_folds_batch_norms_and_jit_load_keeps_them():
    from sampan.inference.model_format import load_model
    prefix = FIXTURES / "pir" / "mobilenet_v3_small"
    files = (f"{prefix}.json", f"{prefix}.pdiparams")
    kept, params = load_model(*files)
    folded, folded_params = load_model(*files, inference=True)

    def types(methods):
        return [op.type for op in methods["forward"].program.global_block().ops]
    assert types(kept).count("batch_norm") == 34
    assert "batch_norm" not in types(folded)
    assert not any("@bn_fold" in n for n in params)
    assert len(folded_params) < len(params)
    assert sorted(paddle.jit.load(str(prefix)).state_dict()) == sorted(params)


def test_pir_array_written_in_a_branch_becomes_an_if_output():
    """An in-place pd_op.array_write_ inside an `if` on an array made before it: the if
    returns the array (written on one side, unchanged on the other) and later reads see it."""
    from sampan.interop.paddle.graph import PaddleBlock, PaddleOp
    from sampan.interop.paddle.pir_arrays import carry_array_writes
    write = PaddleOp("pd_op.array_write_", [1, 2, 3], [(4, None)], {})
    taken = PaddleBlock([], [write, PaddleOp("cf.yield", [], [], {})])
    kept = PaddleBlock([], [PaddleOp("cf.yield", [], [], {})])
    branch = PaddleOp("pd_op.if", [5], [], {}, [taken, kept])
    length = PaddleOp("pd_op.array_length", [1], [(6, None)], {})
    block = PaddleBlock([], [PaddleOp("pd_op.create_array", [], [(1, None)], {}), branch,
                             length])
    carry_array_writes(block)
    (out, _), = branch.outputs
    assert taken.ops[-1].inputs == [4] and kept.ops[-1].inputs == [1]
    assert length.inputs == [out]
