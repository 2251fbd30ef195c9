"""Every malformed model is refused at load time with CorruptFileError naming the op and the
field, by jit.load and the predictor alike (they share one validation): slot names and
counts, attributes (unknown, missing, of the wrong type), sub-block contracts, keys."""
import json

import numpy as np
import pytest

from sampan.inference import Config, create_predictor
from sampan.jit.save_load import load
from sampan.serialization import CorruptFileError

from .model_mutations import load_outcomes, measure, save_base


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    folder = tmp_path_factory.mktemp("base")
    return save_base(folder)


def _op(doc, op_type, block=0):
    return next(op for op in doc["program"]["blocks"][block]["ops"] if op["type"] == op_type)


def _last_op(doc, op_type):
    """The last op of `op_type` in the global block (the head's, after the cond)."""
    return [op for op in doc["program"]["blocks"][0]["ops"] if op["type"] == op_type][-1]


def _rename(table, old, new):
    table[new] = table.pop(old)


CASES = [
    ("attribute renamed", lambda d: _rename(_op(d, "batch_norm")["attrs"], "epsilon", "eps"),
     r"block 0 op \d+ \(batch_norm\): unknown attribute\(s\) \['eps'\].*\['epsilon'\] missing"),
    ("attribute dropped", lambda d: _op(d, "matmul")["attrs"].pop("transpose_y"),
     r"\(matmul\): attribute\(s\) \['transpose_y'\] missing"),
    ("attribute of the wrong type", lambda d: _op(d, "matmul")["attrs"].update(transpose_x=1),
     r"\(matmul\): attribute 'transpose_x' must be bool, got 1"),
    ("input slot renamed", lambda d: _rename(_op(d, "matmul")["inputs"], "x", "X"),
     r"\(matmul\): unknown input slot\(s\) \['X'\]; input slot 'x' is missing"),
    ("two names in a one-name slot", lambda d: _op(d, "add")["inputs"]["y"].append("x"),
     r"\(add\): input slot 'y' holds 2 names, expected one"),
    ("output slot dropped", lambda d: _op(d, "relu")["outputs"].pop("out"),
     r"\(relu\): output slot 'out' is missing"),
    ("control-flow attribute dropped", lambda d: _op(d, "cond")["attrs"].pop("true_block"),
     r"\(cond\): attribute\(s\) \['true_block'\] missing"),
    ("sub-block not a block", lambda d: _op(d, "cond")["attrs"].update(false_block=3.5),
     r"\(cond\): attribute 'false_block' must be block, got 3.5"),
    ("branch output not in its block", lambda d: _op(d, "cond")["attrs"].update(
        true_outs=["x"]), r"true_outs names \['x'\], neither written in sub-block"),
    ("a tensor input naming a stash of scopes",
     lambda d: _last_op(d, "add")["inputs"].update(y=_op(d, "cond")["outputs"]["Scope"]),
     r"\(add\): input\(s\) \['cond_scope_\d+'\] hold a control-flow op's stashed scopes"),
    ("op key renamed", lambda d: _rename(_op(d, "relu"), "attrs", "attributes"),
     r"block 0 op \d+: keys .* are not"),
    ("a block without ops", lambda d: d["program"]["blocks"][0].pop("ops"),
     r"block 0: keys"),
]


@pytest.mark.parametrize("what, damage, message", CASES, ids=[c[0] for c in CASES])
def test_both_readers_refuse_a_damaged_model_naming_the_op_and_field(base, tmp_path, what,
                                                                     damage, message):
    doc, params = base
    damaged = json.loads(json.dumps(doc))
    damage(damaged)
    (tmp_path / "m.pdmodel").write_text(json.dumps(damaged))
    (tmp_path / "m.pdiparams").write_bytes(params)
    with pytest.raises(CorruptFileError, match=message):
        load(tmp_path / "m")
    with pytest.raises(CorruptFileError, match=message):
        create_predictor(Config(str(tmp_path / "m.pdmodel"), str(tmp_path / "m.pdiparams")))


def test_the_undamaged_model_loads_and_the_readers_agree(base, tmp_path):
    doc, params = base
    assert load_outcomes(tmp_path, doc, params) == {"jit": "ok", "static": "ok", "predictor": "ok"}
    x = np.ones((2, 4), "float32")
    jit_out = load(tmp_path / "m")(x).numpy()
    predictor = create_predictor(Config(str(tmp_path / "m.pdmodel"), str(tmp_path / "m.pdiparams")))
    np.testing.assert_allclose(predictor.run([x])[0], jit_out, rtol=1e-6)


def _run_time_shape_error(outcome):
    """A kernel's shape error at run time: the mutant is a well-formed program that is right
    only for other input sizes (a -1 dim met a size it does not fit), as a user's wrong
    input would be; every reader reports it the same way."""
    return outcome.startswith("other: ValueError: op ") and "failed" in outcome


@pytest.mark.parametrize("base", ["jit", "static"])
def test_structural_mutants_load_cleanly_or_fail_at_load_with_the_one_error(tmp_path, base):
    counts, examples = measure(300, seed=21, folder=tmp_path, base=base)
    bad = {key: n for key, n in counts.items()
           if key[1] not in ("ok", "clean") and not _run_time_shape_error(key[1])}
    assert not bad, examples
    assert ("all", "disagree") not in counts, examples
    assert counts[("jit", "clean")] > 150 and counts[("jit", "ok")] > 20


def test_op_device_is_an_attribute_any_op_may_carry(base, tmp_path):
    doc, params = base
    tagged = json.loads(json.dumps(doc))
    _op(tagged, "matmul")["attrs"]["op_device"] = "cpu"
    assert load_outcomes(tmp_path, tagged, params) == {"jit": "ok", "static": "ok",
                                                       "predictor": "ok"}
    _op(tagged, "matmul")["attrs"]["op_device"] = 5
    (tmp_path / "m.pdmodel").write_text(json.dumps(tagged))
    with pytest.raises(CorruptFileError, match="attribute 'op_device' must be str, got 5"):
        load(tmp_path / "m")
