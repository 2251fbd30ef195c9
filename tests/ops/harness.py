"""Run one OpCase eagerly, statically and numerically (shared by the table-driven tests)."""
import importlib
import pkgutil

import numpy as np

import sampan
from sampan.eager.mode import EAGER
from sampan.eager.tensor import Tensor
from sampan.ops.meta import MetaTensor
from sampan.ops.registry import OPS
from sampan.core.dtype import from_numpy_dtype
from tests.ops import cases as cases_pkg

EPS = 1e-6


def all_cases():
    """Every OpCase of every module in tests/ops/cases."""
    found = []
    for info in pkgutil.iter_modules(cases_pkg.__path__):
        module = importlib.import_module(f"{cases_pkg.__name__}.{info.name}")
        found.extend(getattr(module, "CASES", []))
    return found


def _tensorise(value, requires):
    if value is None:
        return None
    if isinstance(value, list):
        return [_tensorise(v, requires) for v in value]
    return Tensor(np.array(value), stop_gradient=not requires)


def inputs_in_order(case):
    """The case's tensor inputs in the op's argument order."""
    op = OPS[case.op]
    missing = [n for n in op.tensor_names if n not in case.inputs]
    if missing:
        raise AssertionError(f"{case}: inputs {missing} missing")
    return [case.inputs[n] for n in op.tensor_names]


def flat_arrays(result):
    """Outputs of an eager run as a flat list of arrays."""
    if isinstance(result, Tensor):
        return [result.numpy()]
    out = []
    for r in result:
        out.extend([t.numpy() for t in r] if isinstance(r, list) else [r.numpy()])
    return out


def run_eager(case, requires=()):
    """(tensor inputs, raw eager result) of the case; `requires` names inputs needing grad."""
    op = OPS[case.op]
    tensors = [_tensorise(v, n in requires) for n, v in zip(op.tensor_names,
                                                           inputs_in_order(case))]
    return tensors, EAGER.run_op(op, tuple(tensors), op.attrs_tuple(case.attrs))


def metas_of(values):
    """MetaTensors for a list of input arrays (lists, None kept)."""
    out = []
    for v in values:
        if v is None:
            out.append(None)
        elif isinstance(v, list):
            out.append([MetaTensor(a.shape, from_numpy_dtype(a.dtype)) for a in v])
        else:
            out.append(MetaTensor(v.shape, from_numpy_dtype(v.dtype)))
    return out


def differentiable_inputs(case):
    """Names of float inputs the case's gradient check covers."""
    op = OPS[case.op]
    if op.backward is None or case.grad == ():
        return []
    names = [op.tensor_names[i] for i in op.grad_inputs]
    if case.grad is not None:
        names = [n for n in names if n in case.grad]
    return [n for n in names if case.inputs.get(n) is not None and not isinstance(
        case.inputs[n], list) and case.inputs[n].dtype.kind in "fc" and case.inputs[n].size]


def _weight(rng, array):
    """Random weights shaped and typed like `array` (complex arrays get both parts)."""
    w = rng.uniform(0.5, 1.5, size=array.shape)
    if array.dtype.kind == "c":
        w = w + 1j * rng.uniform(-1.0, 1.0, size=array.shape)
    return w.astype(array.dtype)


def grad_weights(case, outputs):
    """Fixed random weights, one per differentiable output (by output position)."""
    rng = np.random.default_rng(7)
    op = OPS[case.op]
    weights = {}
    for pos in op.grad_outputs:
        out = outputs[pos]
        items = out if isinstance(out, list) else [out]
        weights[pos] = [_weight(rng, t.numpy()) for t in items]
    return weights


def weighted_total(weights, result):
    """The real loss sum_k sum(re(conj(w_k) * out_k)) whose output gradients are the weights
    (for complex outputs too: d/d(re) + i d/d(im), Paddle's convention)."""
    total = 0.0
    for p, ws in weights.items():
        items = result[p] if isinstance(result[p], list) else [result[p]]
        total += sum(float(np.real(np.sum(np.conj(w) * r))) for w, r in zip(ws, items))
    return total


def weighted_sum(case, arrays):
    """sum_k sum(w_k * out_k) of a kernel call on `arrays` (for central differences)."""
    op = OPS[case.op]
    return op.result_tuple(op.kernel(*arrays, *op.attrs_tuple(case.attrs)))


def numeric_grad(case, name, weights):
    """Central-difference gradient of the weighted output sum w.r.t. input `name` (for a
    complex input, d/d(re) + i d/d(im))."""
    op = OPS[case.op]
    base = [None if v is None else (list(v) if isinstance(v, list) else v.copy())
            for v in inputs_in_order(case)]
    pos = op.tensor_names.index(name)
    x = base[pos]
    grad = np.zeros_like(x)
    units = (1.0, 1j) if x.dtype.kind == "c" else (1.0,)
    for i in range(x.size):
        old = x.flat[i]
        for unit in units:
            vals = []
            for delta in (EPS, -EPS):
                x.flat[i] = old + delta * unit
                vals.append(weighted_total(weights, weighted_sum(case, base)))
            x.flat[i] = old
            grad.flat[i] += unit * (vals[0] - vals[1]) / (2 * EPS)
    return grad


def analytic_grads(case, names, weights, create_graph=False, weights_require_grad=False):
    """Gradients from the eager autograd engine for the inputs `names`.

    With `weights_require_grad`, also returns the output-gradient tensors (which then
    take part in the graph, for second-order checks)."""
    op = OPS[case.op]
    tensors, result = run_eager(case, requires=set(names))
    outs = [result] if op.single_output else list(result)
    out_tensors, grad_tensors = [], []
    for p, ws in weights.items():
        items = outs[p] if isinstance(outs[p], list) else [outs[p]]
        for t, w in zip(items, ws):
            out_tensors.append(t)
            grad_tensors.append(Tensor(w, stop_gradient=not weights_require_grad))
    inputs = [tensors[op.tensor_names.index(n)] for n in names]
    grads = sampan.grad(out_tensors, inputs, grad_tensors, create_graph=create_graph,
                        allow_unused=True)
    if weights_require_grad:
        return inputs, grads, grad_tensors
    return inputs, grads


def static_inputs(case, block, requires=()):
    """Data variables for the case's tensor inputs in `block`, and the matching feed dict."""
    op = OPS[case.op]
    args, feed = [], {}
    for n, v in zip(op.tensor_names, inputs_in_order(case)):
        if v is None:
            args.append(None)
            continue
        made = []
        for k, a in enumerate(v if isinstance(v, list) else [v]):
            var = block.create_var(f"in_{n}_{k}", a.shape, from_numpy_dtype(a.dtype),
                                   is_data=True, stop_gradient=n not in requires)
            feed[var.name] = a
            made.append(var)
        args.append(made if isinstance(v, list) else made[0])
    return args, feed
