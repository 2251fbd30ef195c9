"""The table-driven op test: every OpCase of tests/ops/cases against NumPy, numeric
gradients, and the static reference interpreter."""
import numpy as np
import pytest

import sampan
from sampan.ops.registry import OPS
from sampan import static
from sampan.static import framework
from sampan.static.interpreter import interpret
from sampan.static.mode import STATIC
from sampan.static.program_state import program_guard
from sampan.core.dispatch import mode_guard
from tests.ops import harness

CASES = harness.all_cases()
IDS = [repr(c) for c in CASES]


def _widened(a):
    """Values compared in float64 (complex128 for complex, bools as they are)."""
    if a.dtype.kind == "b":
        return a
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def _compare(got, want, case, what):
    want = np.asarray(want)
    assert got.shape == want.shape, f"{case}: {what} shape {got.shape} != {want.shape}"
    np.testing.assert_allclose(_widened(got), _widened(want), rtol=case.rtol, atol=case.atol,
                               err_msg=f"{case}: {what}")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_values(case):
    """Eager outputs match the NumPy reference and the infer_meta prediction."""
    op = OPS[case.op]
    _, result = harness.run_eager(case)
    outs = harness.flat_arrays(result)
    if case.ref is not None:
        ref = case.ref(*[v for v in harness.inputs_in_order(case)], **case.attrs)
        ref = ref if isinstance(ref, (tuple, list)) else (ref,)
        for k, want in enumerate(ref):
            _compare(outs[k], want, case, f"output {k}")
    if case.check is not None:
        case.check(outs, case.inputs, case.attrs)
    metas = op.infer_meta(*harness.metas_of(harness.inputs_in_order(case)),
                          *op.attrs_tuple(case.attrs))
    metas = op.result_tuple(metas)
    flat_metas = []
    for kind, m in zip(op.output_kinds, metas):
        flat_metas.extend(m if kind == "Tensor[]" else [m])
    for k, (meta, arr) in enumerate(zip(flat_metas, outs)):
        assert meta.dtype.np == arr.dtype, f"{case}: output {k} dtype {arr.dtype} but " \
                                          f"infer_meta says {meta.dtype}"
        assert len(meta.shape) == arr.ndim and all(
            m in (-1, a) for m, a in zip(meta.shape, arr.shape)), \
            f"{case}: output {k} shape {arr.shape} but infer_meta says {meta.shape}"


GRAD_CASES = [c for c in CASES if harness.differentiable_inputs(c)]


@pytest.mark.parametrize("case", GRAD_CASES, ids=[repr(c) for c in GRAD_CASES])
def test_gradients(case):
    """Autograd gradients equal float64 central differences for every float input."""
    names = harness.differentiable_inputs(case)
    _, result = harness.run_eager(case)
    outs = [result] if OPS[case.op].single_output else list(result)
    weights = harness.grad_weights(case, outs)
    _, grads = harness.analytic_grads(case, names, weights)
    for name, g in zip(names, grads):
        want = harness.numeric_grad(case, name, weights)
        got = np.zeros_like(want) if g is None else g.numpy()
        assert got.shape == want.shape, f"{case}: grad of {name} shape {got.shape}"
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-5,
                                   err_msg=f"{case}: gradient of {name}")


DOUBLE = [c for c in GRAD_CASES if OPS[c.op].backward.backward is not None]


def _first_grad_sum(case, names, weights, vs):
    """sum_i sum(v_i * dL/dx_i) with the weights (output gradients) as tensors."""
    inputs, grads, w_tensors = harness.analytic_grads(case, names, weights, create_graph=True,
                                                      weights_require_grad=True)
    total = None
    for g, v in zip(grads, vs):
        if g is None:
            continue
        term = (g * sampan.to_tensor(v.astype(g.numpy().dtype))).sum()
        total = term if total is None else total + term
    return inputs, w_tensors, total


@pytest.mark.parametrize("case", DOUBLE, ids=[repr(c) for c in DOUBLE])
def test_double_gradients(case):
    """Gradients of the weighted first gradient w.r.t. the inputs and the output gradients
    equal central differences of the first gradient."""
    names = harness.differentiable_inputs(case)
    _, result = harness.run_eager(case)
    outs = [result] if OPS[case.op].single_output else list(result)
    weights = harness.grad_weights(case, outs)
    rng = np.random.default_rng(3)
    _, probe = harness.analytic_grads(case, names, weights)
    vs = [rng.uniform(0.5, 1.5, size=g.shape) if g is not None else None for g in probe]
    inputs, w_tensors, total = _first_grad_sum(case, names, weights, vs)
    if total is None or total.stop_gradient:
        pytest.skip("the first gradient does not depend on anything differentiable")
    targets = inputs + w_tensors
    second = sampan.grad(total, targets, allow_unused=True)

    def value():
        _, gs = harness.analytic_grads(case, names, weights)
        return sum(float(np.sum(g.numpy() * v)) for g, v in zip(gs, vs) if g is not None)

    arrays = [case.inputs[n] for n in names] + [w for ws in weights.values() for w in ws]
    for k, x in enumerate(arrays):
        numeric = np.zeros_like(x)
        for i in range(x.size):
            old = x.flat[i]
            vals = []
            for delta in (harness.EPS, -harness.EPS):
                x.flat[i] = old + delta
                vals.append(value())
            x.flat[i] = old
            numeric.flat[i] = (vals[0] - vals[1]) / (2 * harness.EPS)
        got = np.zeros_like(numeric) if second[k] is None else second[k].numpy()
        np.testing.assert_allclose(got, numeric, rtol=1e-3, atol=1e-4,
                                   err_msg=f"{case}: second gradient w.r.t. argument {k}")


STATIC_CASES = [c for c in CASES if c.static]


@pytest.mark.parametrize("case", STATIC_CASES, ids=[repr(c) for c in STATIC_CASES])
def test_static_matches_eager(case):
    """The op appended to a Program and interpreted gives the eager result bit for bit."""
    op = OPS[case.op]
    _, result = harness.run_eager(case)
    eager = harness.flat_arrays(result)
    main = framework.Program()
    with program_guard(main), mode_guard(STATIC):
        args, feed = harness.static_inputs(case, main.global_block())
        out = STATIC.run_op(op, tuple(args), op.attrs_tuple(case.attrs))
    outs = [out] if op.single_output else [x for o in out for x in (o if isinstance(o, list)
                                                                    else [o])]
    main.verify()
    got = interpret(main, feed, outs)
    executed = static.Executor().run(main, feed, outs, scope=static.Scope())
    assert len(got) == len(eager) == len(executed)
    for k, (g, x, e) in enumerate(zip(got, executed, eager)):
        np.testing.assert_array_equal(g, e, err_msg=f"{case}: interpreted output {k}")
        np.testing.assert_array_equal(x, e, err_msg=f"{case}: executed output {k}")


# Point-to-point ops need a peer: tests/distributed/jobs/partition_job.py runs them.
NEEDS_TWO_RANKS = {"send_v2", "recv_v2"}


def test_every_op_has_a_case():
    """Each forward op in the registry is exercised by at least one OpCase."""
    covered = {c.op for c in CASES} | NEEDS_TWO_RANKS
    missing = sorted(n for n, op in OPS.items() if op.forward is None and n not in covered)
    assert not missing, f"ops without a test case: {missing}"


STATIC_GRAD_CASES = [c for c in GRAD_CASES if c.static]


@pytest.mark.parametrize("case", STATIC_GRAD_CASES, ids=[repr(c) for c in STATIC_GRAD_CASES])
def test_static_gradients_match_eager(case):
    """static.gradients (grad ops from the generated makers) equals eager autograd."""
    op = OPS[case.op]
    names = harness.differentiable_inputs(case)
    _, result = harness.run_eager(case)
    outs = [result] if op.single_output else list(result)
    weights = harness.grad_weights(case, outs)
    _, eager_grads = harness.analytic_grads(case, names, weights)
    main = framework.Program()
    with program_guard(main), mode_guard(STATIC):
        block = main.global_block()
        args, feed = harness.static_inputs(case, block, requires=names)
        out = STATIC.run_op(op, tuple(args), op.attrs_tuple(case.attrs))
        out = [out] if op.single_output else out
        targets, target_grads = [], []
        for pos, ws in weights.items():
            items = out[pos] if isinstance(out[pos], list) else [out[pos]]
            for k, (t, w) in enumerate(zip(items, ws)):
                g = block.create_var(f"seed_{pos}_{k}", w.shape,
                                     sampan.core.dtype.from_numpy_dtype(w.dtype), is_data=True)
                feed[g.name] = w
                targets.append(t)
                target_grads.append(g)
        inputs = [block.var(f"in_{n}_0") for n in names]
        grads = static.gradients(targets, inputs, target_grads)
    fetch = [g for g in grads if g is not None]
    got = interpret(main, feed, fetch)
    executed = static.Executor().run(main, feed, fetch, scope=static.Scope())
    for k, (g, x) in enumerate(zip(got, executed)):
        np.testing.assert_array_equal(x, g, err_msg=f"{case}: executed gradient {k}")
    got_iter = iter(got)
    for name, g_static, g_eager in zip(names, grads, eager_grads):
        if g_static is None:
            assert g_eager is None or not np.any(g_eager.numpy()), f"{case}: {name}"
            continue
        np.testing.assert_allclose(next(got_iter), g_eager.numpy(), rtol=1e-7, atol=1e-10,
                                   err_msg=f"{case}: static gradient of {name}")
