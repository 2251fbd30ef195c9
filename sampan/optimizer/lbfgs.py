"""L-BFGS with an optional strong-Wolfe line search (Nocedal & Wright, Numerical
Optimization, 2nd ed.: Algorithm 7.4/7.5 for the direction, 3.5/3.6 for the line search).

The optimizer works on one flat NumPy vector of every parameter (in the parameters'
dtype); `step(closure)` re-evaluates the loss as often as the search needs.
"""
import math
import warnings
from collections import namedtuple

import numpy as np

from ..eager.grad_mode import enable_grad, no_grad
from ..eager.tensor import Tensor, wrap
from ..regularizer import L1Decay
from .optimizer import Optimizer

__all__ = ["LBFGS"]

# A trial point of the line search: step t, loss f, flat gradient g, slope g·d.
_Point = namedtuple("_Point", "t f g gtd")


def _cubic_minimum(a, b, bounds=None):
    """The minimiser of the cubic through points a and b (values and slopes), clamped to
    `bounds` (default: between the two steps); the bounds' midpoint when the cubic has no
    minimiser (or the points coincide)."""
    low, high = bounds if bounds is not None else sorted((a.t, b.t))
    left, right = (a, b) if a.t <= b.t else (b, a)
    try:
        d1 = a.gtd + b.gtd - 3 * (a.f - b.f) / (a.t - b.t)
        d2 = math.sqrt(d1 * d1 - a.gtd * b.gtd)
        t = right.t - (right.t - left.t) * ((right.gtd + d2 - d1)
                                            / (right.gtd - left.gtd + 2 * d2))
    except (ValueError, ZeroDivisionError):
        return (low + high) / 2.0
    return min(max(t, low), high) if math.isfinite(t) else (low + high) / 2.0


class _StrongWolfe:
    """Line search along d from `start` for a step meeting the strong Wolfe conditions
    f(t) ≤ f(0) + c1·t·f'(0) and |f'(t)| ≤ −c2·f'(0): bracket, then zoom by cubic
    interpolation. `evaluate(t)` returns the _Point at step t."""

    def __init__(self, evaluate, start, d_norm, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                 max_ls=25):
        self.evaluate, self.start, self.d_norm = evaluate, start, d_norm
        self.c1, self.c2, self.tolerance_change, self.max_ls = c1, c2, tolerance_change, max_ls
        self.evals = self.iters = 0

    def _trial(self, t):
        self.evals += 1
        return self.evaluate(t)

    def _sufficient(self, point):
        return point.f <= self.start.f + self.c1 * point.t * self.start.gtd

    def _curvature(self, point):
        return abs(point.gtd) <= -self.c2 * self.start.gtd

    def search(self, t):
        """(best point found, number of evaluations)."""
        bracket = self._bracket(t)
        if len(bracket) == 1:
            return bracket[0], self.evals
        return self._zoom(bracket), self.evals

    def _bracket(self, t):
        """[point] meeting both conditions, or two points enclosing one."""
        prev, point = self.start, self._trial(t)
        while self.iters < self.max_ls:
            if not self._sufficient(point) or (self.iters > 1 and point.f >= prev.f):
                return [prev, point]
            if self._curvature(point):
                return [point]
            if point.gtd >= 0:
                return [prev, point]
            t = _cubic_minimum(prev, point, (point.t + 0.01 * (point.t - prev.t), point.t * 10))
            prev, point = point, self._trial(t)
            self.iters += 1
        return [self.start, point]

    def _zoom(self, bracket):
        """Shrink the bracket [low, high] (low: the lower loss) until a point meets both
        conditions, the bracket is too small, or the trials run out; returns low."""
        low, high = (0, 1) if bracket[0].f <= bracket[1].f else (1, 0)
        stalled = False
        while self.iters < self.max_ls:
            if abs(bracket[1].t - bracket[0].t) * self.d_norm < self.tolerance_change:
                break
            t, stalled = self._safeguarded(bracket, stalled)
            point = self._trial(t)
            self.iters += 1
            if not self._sufficient(point) or point.f >= bracket[low].f:
                bracket[high] = point
                low, high = (0, 1) if bracket[0].f <= bracket[1].f else (1, 0)
                continue
            if self._curvature(point):
                bracket[low] = point
                break
            if point.gtd * (bracket[high].t - bracket[low].t) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = point
        return bracket[low]

    @staticmethod
    def _safeguarded(bracket, stalled):
        """The interpolated trial step, moved 10% of the bracket inside when it lands on
        (or, twice running, near) an end; returns (step, stalled)."""
        t = _cubic_minimum(bracket[0], bracket[1])
        top, bottom = max(bracket[0].t, bracket[1].t), min(bracket[0].t, bracket[1].t)
        margin = 0.1 * (top - bottom)
        if min(top - t, t - bottom) >= margin:
            return t, False
        if not (stalled or t >= top or t <= bottom):
            return t, True
        return (top - margin if abs(t - top) < abs(t - bottom) else bottom + margin), False


def _penalty(reg, array):
    """(value, gradient) of a weight-decay penalty at `array`: L2Decay(c) is ½c‖p‖²,
    L1Decay(c) is c‖p‖₁ (the gradients the regularizers add)."""
    if reg is None:
        return 0.0, None
    if isinstance(reg, L1Decay):
        return reg._coeff * float(np.abs(array).sum()), reg._coeff * np.sign(array)
    return 0.5 * reg._coeff * float((array * array).sum()), reg._coeff * array


def _exported(value):
    """A state value for state_dict: arrays become tensors (lists element by element)."""
    if isinstance(value, np.ndarray):
        return wrap(value.copy())
    if isinstance(value, list):
        return [_exported(v) for v in value]
    return value


def _imported(value):
    """A state value from set_state_dict: tensors and arrays become owned arrays."""
    if isinstance(value, (Tensor, np.ndarray)):
        return np.array(value.numpy() if isinstance(value, Tensor) else value)
    if isinstance(value, (list, tuple)):
        return [_imported(v) for v in value]
    return value


class LBFGS(Optimizer):
    """Limited-memory BFGS: a quasi-Newton method whose inverse-Hessian estimate comes
    from the last `history_size` steps and gradient changes.

    `step(closure)` runs up to `max_iter` iterations; `closure()` must clear the
    gradients, compute the loss, call `loss.backward()` and return the loss.

    Args:
        learning_rate (float): step length (the first iteration scales it by
            min(1, 1/‖g‖₁)); with a line search, its initial trial step.
        max_iter (int): iterations per `step`.
        max_eval (int): loss evaluations per `step` (default max_iter * 5 // 4).
        tolerance_grad (float): stop when max|g| falls to it.
        tolerance_change (float): stop when the loss, the step or the slope changes less.
        history_size (int): (s, y) pairs kept.
        line_search_fn (str): None (fixed steps) or 'strong_wolfe'.
        parameters (list): the parameters (or parameter-group dicts) to optimise.
        weight_decay (float|L1Decay|L2Decay): a penalty added to the loss and its gradient
            (Paddle accepts and ignores it; here the objective includes it consistently).
        grad_clip: accepted for Paddle compatibility and not applied (clipped gradients
            would break the line search's conditions), as in Paddle.
        name (str): unused.

    Returns of step: the loss of the first closure call.

    Example:
        >>> opt = paddle.optimizer.LBFGS(line_search_fn='strong_wolfe',
        ...                              parameters=net.parameters())
        >>> def closure():
        ...     opt.clear_grad()
        ...     loss = paddle.nn.functional.mse_loss(net(x), y)
        ...     loss.backward()
        ...     return loss
        >>> opt.step(closure)
    """

    def __init__(self, learning_rate=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-07,
                 tolerance_change=1e-09, history_size=100, line_search_fn=None,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        if isinstance(parameters, Tensor) or parameters is None:
            raise TypeError("LBFGS: parameters must be a list of parameters or parameter "
                            f"groups, got {type(parameters).__name__}")
        _check_positive_int("max_iter", max_iter)
        _check_positive_int("history_size", history_size)
        max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        _check_positive_int("max_eval", max_eval)
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(f"LBFGS: line_search_fn must be None or 'strong_wolfe', got "
                             f"{line_search_fn!r}")
        if grad_clip is not None:
            warnings.warn("LBFGS does not clip gradients (clipping would break the line "
                          "search); grad_clip is ignored, as in Paddle", stacklevel=2)
        super().__init__(learning_rate, parameters, weight_decay, None, name)
        if not self._parameter_list:
            raise ValueError("LBFGS: parameters is empty")
        self._max_iter, self._max_eval, self._history_size = max_iter, max_eval, history_size
        self._tolerance_grad, self._tolerance_change = tolerance_grad, tolerance_change
        self._line_search_fn = line_search_fn
        self.state = {}

    # -- the flat vector ----------------------------------------------------------------
    def _members(self):
        """(parameter, its regularizer) pairs in order."""
        return [(p, getattr(p, "regularizer", None) or group["weight_decay"])
                for group in self._param_groups for p in group["params"]]

    def _evaluate(self, closure):
        """(closure's result, loss with penalties, flat gradient with penalties)."""
        with enable_grad():
            result = closure()
        loss, pieces = float(result), []
        for param, reg in self._members():
            grad = param.grad
            piece = (np.zeros(param._data.shape, param._data.dtype) if grad is None
                     else np.array(grad.numpy(), dtype=param._data.dtype))
            value, extra = _penalty(reg, param._data)
            loss += value
            pieces.append((piece if extra is None else piece + extra).reshape(-1))
        return result, loss, np.concatenate(pieces)

    def _place(self, bases, t, d):
        """Set every parameter to its base array plus t·d (its slice of d)."""
        offset = 0
        for param, base in zip(self._parameter_list, bases):
            piece = d[offset:offset + base.size].reshape(base.shape)
            param._set_data((base + piece * t).astype(base.dtype, copy=False))
            offset += base.size

    def _line_point(self, closure, start, t, d):
        """The _Point at step t along d from the parameter arrays `start` (the parameters
        are put back afterwards)."""
        self._place(start, t, d)
        _, loss, grad = self._evaluate(closure)
        for param, base in zip(self._parameter_list, start):
            param._set_data(base)
        return _Point(t, loss, grad, float(grad @ d))

    # -- one iteration ------------------------------------------------------------------
    def _direction(self, grad):
        """The search direction −H·g: the memory takes the last (s, y) pair when its
        curvature s·y is positive, then the two-loop recursion applies it."""
        state = self.state
        if state["n_iter"] == 1:
            state.update(old_yk=[], old_sk=[], ro=[], H_diag=1.0)
            return -grad
        y = grad - state["prev_flat_grad"]
        s = state["d"] * state["alpha"]
        ys = float(y @ s)
        if ys > 1e-10:
            if len(state["old_yk"]) == self._history_size:
                for key in ("old_yk", "old_sk", "ro"):
                    state[key].pop(0)
            state["old_yk"].append(y)
            state["old_sk"].append(s)
            state["ro"].append(1.0 / ys)
            state["H_diag"] = ys / float(y @ y)
        return self._two_loop(-grad)

    def _two_loop(self, q):
        """H·q by the L-BFGS two-loop recursion (H₀ = H_diag·I)."""
        state = self.state
        pairs = list(zip(state["old_sk"], state["old_yk"], state["ro"]))
        alphas = []
        for s, y, rho in reversed(pairs):
            alphas.append(rho * float(s @ q))
            q = q - y * alphas[-1]
        r = q * state["H_diag"]
        for (s, y, rho), a in zip(pairs, reversed(alphas)):
            r = r + s * (a - rho * float(y @ r))
        return r

    def _advance(self, closure, d, t, loss, grad, gtd, last):
        """Move along d; returns (loss, gradient, step taken, evaluations, optimal)."""
        start = [param._data for param in self._parameter_list]  # _place never writes them
        if self._line_search_fn == "strong_wolfe":
            search = _StrongWolfe(lambda step: self._line_point(closure, start, step, d),
                                  _Point(0.0, loss, grad, gtd), float(np.abs(d).max()),
                                  tolerance_change=self._tolerance_change)
            best, evals = search.search(t)
            self._place(start, best.t, d)
            return best.f, best.g, best.t, evals, self._optimal(best.g)
        self._place(start, t, d)
        if last:
            return loss, grad, t, 0, False
        _, loss, grad = self._evaluate(closure)
        return loss, grad, t, 1, self._optimal(grad)

    def _optimal(self, grad):
        return float(np.abs(grad).max()) <= self._tolerance_grad

    def _iterate(self, closure, loss, grad):
        """Up to max_iter L-BFGS iterations from the evaluated (loss, grad)."""
        state, evals = self.state, 1
        for n_iter in range(1, self._max_iter + 1):
            state["n_iter"] += 1
            d = self._direction(grad)
            state["prev_flat_grad"], state["prev_loss"] = grad, loss
            t = self.get_lr()
            if state["n_iter"] == 1:
                t *= min(1.0, 1.0 / float(np.abs(grad).sum()))
            state["d"], state["alpha"] = d, t
            gtd = float(grad @ d)
            if gtd > -self._tolerance_change:
                return
            loss, grad, t, used, optimal = self._advance(closure, d, t, loss, grad, gtd,
                                                         n_iter == self._max_iter)
            state["alpha"] = t
            evals += used
            state["func_evals"] += used
            if (optimal or float(np.abs(d * t).max()) <= self._tolerance_change
                    or abs(loss - state["prev_loss"]) < self._tolerance_change
                    or evals >= self._max_eval):
                return

    def step(self, closure=None):
        """Run up to max_iter iterations; returns the loss of the first closure call."""
        if not callable(closure):
            raise TypeError("LBFGS.step needs a closure: a function that clears the "
                            "gradients, computes the loss, calls loss.backward() and "
                            "returns the loss")
        with no_grad():
            self.state.setdefault("func_evals", 0)
            self.state.setdefault("n_iter", 0)
            result, loss, grad = self._evaluate(closure)
            self.state["func_evals"] += 1
            if not self._optimal(grad):
                self._iterate(closure, loss, grad)
        return result

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Not supported, as in Paddle: L-BFGS re-evaluates the loss, so use step(closure)."""
        raise NotImplementedError("LBFGS does not minimize a loss tensor: it re-evaluates the "
                                  "loss, so call step(closure)")

    # -- state --------------------------------------------------------------------------
    def state_dict(self):
        """{"state": ...} with Paddle's keys: func_evals, n_iter, d, alpha, old_yk, old_sk,
        ro, H_diag, prev_flat_grad, prev_loss (vectors as tensors)."""
        return {"state": {key: _exported(value) for key, value in self.state.items()}}

    def set_state_dict(self, state_dict):
        """Restore a state saved by state_dict() (the next step resumes identically)."""
        if "state" not in state_dict:
            raise ValueError(f"LBFGS.set_state_dict expects {{'state': ...}} as state_dict() "
                             f"returns, got keys {sorted(state_dict)}")
        self.state = {key: _imported(value) for key, value in state_dict["state"].items()}

    set_dict = set_state_dict


def _check_positive_int(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"LBFGS: {name} must be a positive integer, got {value!r}")
