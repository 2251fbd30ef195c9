"""Output gradients no op produced reach the kernels that declare them optional
(`Tensor?` in backward.yaml) as None (no full_like of zeros); the results equal eager
autograd, which passes zeros."""
import numpy as np
import pytest

import sampan
from sampan import static
from sampan.core.dispatch import mode_guard
from sampan.executor.bind import bind_op
from sampan.executor.passes import Node
from sampan.ops.registry import OPS
from sampan.static import framework
from sampan.static.backward import optional_output_grads
from sampan.static.mode import STATIC
from sampan.static.program_state import program_guard
from tests.ops import harness

FORWARD = {op.forward.name: op.name for op in OPS.values()
           if op.forward is not None and optional_output_grads(op)}
CASES = [c for c in harness.all_cases() if c.op in FORWARD]
GRAD_CASES = [c for c in CASES if c.static and harness.differentiable_inputs(c)]


def _unbound_outputs(op):
    """Forward output positions whose gradient may stay unbound."""
    slots = optional_output_grads(op.backward)
    return [i for i in op.grad_outputs if f"{op.output_names[i]}_grad" in slots]


def _grad_args(case, op, fill):
    """The backward kernel's arguments; unbound gradients are `fill(output array)`."""
    inputs = harness.inputs_in_order(case)
    attrs = op.attrs_tuple(case.attrs)
    outs = op.result_tuple(op.kernel(*inputs, *attrs))
    rng = np.random.default_rng(3)
    unbound = _unbound_outputs(op)
    picked = {"in": inputs, "out": outs, "attr": attrs}
    return [(fill(outs[i]) if i in unbound else rng.uniform(0.5, 1.5, outs[i].shape)
             .astype(outs[i].dtype)) if kind == "grad" else picked[kind][i]
            for kind, i in op.backward.bw_sources]


@pytest.mark.parametrize("case", CASES, ids=[repr(c) for c in CASES])
def test_kernel_none_equals_zeros(case):
    """Each listed kernel gives the same gradient for None as for zeros."""
    op = OPS[case.op]
    with_none = op.backward.kernel(*_grad_args(case, op, lambda out: None))
    with_zeros = op.backward.kernel(*_grad_args(case, op, np.zeros_like))
    np.testing.assert_array_equal(with_none, with_zeros)


@pytest.mark.parametrize("case", GRAD_CASES, ids=[repr(c) for c in GRAD_CASES])
def test_static_gradients_skip_zero_fill(case):
    """static.gradients of the other outputs emits no full_like and equals eager grads."""
    op = OPS[case.op]
    names = harness.differentiable_inputs(case)
    _, result = harness.run_eager(case)
    unbound = _unbound_outputs(op)
    weights = {p: w for p, w in harness.grad_weights(case, list(result)).items()
               if p not in unbound}
    _, eager_grads = harness.analytic_grads(case, names, weights)
    main = framework.Program()
    with program_guard(main), mode_guard(STATIC):
        block = main.global_block()
        args, feed = harness.static_inputs(case, block, requires=names)
        outs = STATIC.run_op(op, tuple(args), op.attrs_tuple(case.attrs))
        targets, seeds = [], []
        for pos, (w,) in weights.items():
            seeds.append(block.create_var(f"seed_{pos}", w.shape, outs[pos].dtype,
                                          is_data=True))
            feed[seeds[-1].name] = w
            targets.append(outs[pos])
        grads = static.gradients(targets, [block.var(f"in_{n}_0") for n in names], seeds)
    grad_op = block.ops[-1]
    assert grad_op.type == op.backward.name
    assert all(not grad_op.input(f"{op.output_names[i]}_grad") for i in unbound)
    assert "full_like" not in [o.type for o in block.ops[block.ops.index(grad_op) - 1:]]
    main.verify()
    executed = static.Executor().run(main, feed, grads, scope=static.Scope())
    for name, got, want in zip(names, executed, eager_grads):
        np.testing.assert_array_equal(got, want.numpy(), err_msg=f"{case}: {name}")


def _ce_grad_node(inputs):
    """A cross_entropy_with_softmax_grad Node over `inputs` with the forward's defaults."""
    attrs = {"soft_label": False, "use_softmax": True, "numeric_stable_mode": True,
             "ignore_index": -100, "axis": -1}
    return Node("cross_entropy_with_softmax_grad", inputs, {"input_grad": ["x@GRAD"]}, attrs)


def test_unbound_gradient_runs_without_regrouping():
    """A trailing unbound argument is bound as None, like the attributes after it: the
    bound function takes the three arrays and calls the kernel itself."""
    bw = OPS["cross_entropy_with_softmax_grad"]
    bound = bind_op(_ce_grad_node({"label": ["l"], "softmax": ["s"], "loss_grad": ["g"],
                                   "softmax_grad": []}))
    assert bound.fn.__code__.co_argcount == 3
    cells = dict(zip(bound.fn.__code__.co_freevars,
                     (c.cell_contents for c in bound.fn.__closure__)))
    assert cells["kernel"] is bw.kernel and cells["a0"] is None
    assert bound.in_names == ["l", "s", "g"]


def test_unbound_required_input_still_raises():
    """Only output-gradient arguments may be unbound."""
    node = _ce_grad_node({"label": ["l"], "softmax": [], "loss_grad": ["g"],
                          "softmax_grad": ["sg"]})
    with pytest.raises(ValueError, match="softmax"):
        bind_op(node)


def test_model_step_emits_no_softmax_zero_fill():
    """The training program of F.cross_entropy has one full_like: the loss seed."""
    main = framework.Program()
    with program_guard(main), mode_guard(STATIC):
        x = static.data("x", [4, 3], "float32")
        x.stop_gradient = False
        label = static.data("label", [4, 1], "int64")
        loss = sampan.nn.functional.cross_entropy(x, label, reduction="sum")
        static.gradients([loss], [x])
    assert [o.type for o in main.global_block().ops].count("full_like") == 1
