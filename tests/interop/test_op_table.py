"""The Paddle op table is consistent with sampan's op registry and builder."""
import pytest

from sampan.interop.paddle import builder
from sampan.interop.paddle.op_table import LEGACY_OPS, PIR_OPS, Direct, Special, rule_for
from sampan.executor.bind import EXEC_RULES
from sampan.ops.registry import OPS
import sampan.static.control_flow  # noqa: F401  (registers the control-flow op types)


@pytest.mark.parametrize("paddle_op", sorted(PIR_OPS))
def test_every_rule_targets_the_registry(paddle_op):
    rule = PIR_OPS[paddle_op]
    if isinstance(rule, Direct):
        target = OPS[rule.target]
        for name in rule.ins or ():
            assert name is None or name in target.tensor_names or name in target.attr_names
        for name in list(rule.renames.values()) + list(rule.fixed):
            assert name in target.attr_names
    else:
        assert isinstance(rule, Special)
        assert callable(getattr(builder._Builder, "op_" + rule.method))
        assert all(name in OPS or name in EXEC_RULES for name in rule.emits)


@pytest.mark.parametrize("legacy_op", sorted(LEGACY_OPS))
def test_every_legacy_op_becomes_a_known_pir_op(legacy_op):
    entry = LEGACY_OPS[legacy_op]
    assert entry.pir in PIR_OPS
    rule = PIR_OPS[entry.pir]
    if isinstance(rule, Direct) and rule.ins:
        # slots plus attribute inputs cover the PIR op's positional inputs in order
        assert len(entry.ins) + len(entry.attr_inputs) <= len(rule.ins)


def test_in_place_variants_fall_back_and_unknown_ops_have_no_rule():
    assert rule_for(PIR_OPS, "pd_op.relu_") is PIR_OPS["pd_op.relu"]
    assert rule_for(PIR_OPS, "pd_op.batch_norm_") is PIR_OPS["pd_op.batch_norm"]
    assert rule_for(PIR_OPS, "pd_op.no_such_op") is None
    assert rule_for(PIR_OPS, "pd_op.no_such_op_") is None


def test_docs_coverage_table_is_current():
    import importlib.util
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("gen", root / "tools" / "gen_interop_docs.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = (root / "docs" / "interop.md").read_text()
    assert gen.render(text) == text, "run python tools/gen_interop_docs.py"
