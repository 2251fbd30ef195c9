"""Transforms: forward / inverse round trips, log-det-Jacobians against finite-difference
Jacobians, shapes, Paddle's documented examples, argument errors, and
TransformedDistribution against known densities."""
import math

import numpy as np
import pytest

import sampan as paddle
import sampan.distribution as D
from tests.distribution._ref import close, t64

X = np.array([[-1.2, 0.3, 0.9], [0.5, -0.4, 2.0]])


def _jacobian_log_det(f, x, eps=1e-6):
    """log|det J| of f at each row of x (f maps a row to a row of equal length)."""
    out = []
    for row in x:
        cols = []
        for i in range(len(row)):
            hi, lo = row.copy(), row.copy()
            hi[i] += eps
            lo[i] -= eps
            cols.append((f(hi) - f(lo)) / (2 * eps))
        out.append(np.linalg.slogdet(np.stack(cols, 1))[1])
    return np.array(out)


ELEMENTWISE = [
    (D.ExpTransform(), np.exp, X),
    (D.SigmoidTransform(), lambda x: 1 / (1 + np.exp(-x)), X),
    (D.TanhTransform(), np.tanh, X),
    (D.AffineTransform(t64(1.5), t64(-2.0)), lambda x: 1.5 - 2.0 * x, X),
    (D.PowerTransform(t64(3.0)), lambda x: x ** 3, np.abs(X) + 0.1),
]


@pytest.mark.parametrize("t, f, x", ELEMENTWISE, ids=lambda v: type(v).__name__)
def test_elementwise_transforms(t, f, x):
    y = t.forward(t64(x))
    close(y, f(x))
    close(t.inverse(y), x, rtol=1e-9, atol=1e-9)
    h = 1e-6
    close(t.forward_log_det_jacobian(t64(x)) + t64(np.zeros_like(x)),
          np.log(np.abs((f(x + h) - f(x - h)) / (2 * h))), rtol=1e-6, atol=1e-6)
    close(t.inverse_log_det_jacobian(y) + t64(np.zeros_like(x)),
          -np.log(np.abs((f(x + h) - f(x - h)) / (2 * h))), rtol=1e-6, atol=1e-6)
    assert t(t64(x)).shape == list(x.shape)
    assert t.forward_shape((2, 3)) == (2, 3) and t.inverse_shape((2, 3)) == (2, 3)


def test_stick_breaking_transform():
    t = D.StickBreakingTransform()
    y = t.forward(t64(X))
    assert y.shape == [2, 4]
    close(y.sum(-1), [1.0, 1.0])
    assert np.all(y.numpy() > 0)
    close(t.inverse(y), X, rtol=1e-8, atol=1e-8)

    def first_k(row):  # the forward map restricted to the K free coordinates
        return t.forward(t64(row)).numpy()[:-1]

    close(t.forward_log_det_jacobian(t64(X)), _jacobian_log_det(first_k, X), rtol=1e-6)
    assert t.forward_shape((2, 3)) == (2, 4) and t.inverse_shape((2, 4)) == (2, 3)


def test_softmax_and_abs_transforms():
    s = D.SoftmaxTransform()
    e = np.exp(X)
    close(s.forward(t64(X)), e / e.sum(-1, keepdims=True))
    close(s.inverse(s.forward(t64(X))), X - np.log(e.sum(-1, keepdims=True)))
    with pytest.raises(NotImplementedError, match="non-injective"):
        s.forward_log_det_jacobian(t64(X))
    a = D.AbsTransform()
    close(a.forward(t64([-1., 0., 1.])), [1., 0., 1.])
    neg, pos = a.inverse(t64([1.0]))
    close(neg, [-1.0])
    close(pos, [1.0])
    zeros = a.inverse_log_det_jacobian(t64(1.0))
    assert all(z.item() == 0.0 for z in zeros)
    with pytest.raises(NotImplementedError, match="non-injective"):
        a.forward_log_det_jacobian(t64([1.0]))


def test_paddle_doc_examples():
    x = paddle.to_tensor([1., 2.])
    affine = D.AffineTransform(paddle.to_tensor(0.), paddle.to_tensor(1.))
    close(affine.forward(x), [1., 2.])
    close(affine.inverse(affine.forward(x)), [1., 2.])
    close(affine.forward_log_det_jacobian(x), 0.0)
    power = D.PowerTransform(paddle.to_tensor(2.))
    close(power.forward(x), [1., 4.])
    close(power.forward_log_det_jacobian(x), [0.69314718, 1.38629436], rtol=1e-6)
    xs = paddle.to_tensor([[1., 2., 3.], [4., 5., 6.]])
    multi_exp = D.IndependentTransform(D.ExpTransform(), 1)
    close(multi_exp.forward(xs), np.exp(xs.numpy()), rtol=1e-6)
    close(multi_exp.forward_log_det_jacobian(xs), [6., 15.])
    reshape = D.ReshapeTransform((2, 3), (3, 2))
    assert reshape.forward(paddle.ones((1, 2, 3))).shape == [1, 3, 2]
    close(reshape.forward_log_det_jacobian(paddle.ones((1, 2, 3))), [0.])
    assert reshape.forward_shape((1, 2, 3)) == (1, 3, 2)
    assert reshape.inverse_shape((1, 3, 2)) == (1, 2, 3)
    stacked = paddle.stack((paddle.to_tensor([1., 2., 3.]), paddle.to_tensor([1, 2., 3.])), 1)
    stack = D.StackTransform((D.ExpTransform(), D.PowerTransform(paddle.to_tensor(2.))), 1)
    close(stack.forward(stacked), [[2.71828175, 1.], [7.38905621, 4.], [20.08553696, 9.]],
          rtol=1e-6)
    close(stack.forward_log_det_jacobian(stacked),
          [[1., 0.69314718], [2., 1.38629436], [3., 1.79175949]], rtol=1e-6)
    close(stack.inverse(stack.forward(stacked)), stacked.numpy(), rtol=1e-6)


def test_chain_transform_composes_and_sums_log_dets():
    chain = D.ChainTransform((D.AffineTransform(t64(0.5), t64(2.0)), D.ExpTransform()))
    close(chain.forward(t64(X)), np.exp(0.5 + 2 * X))
    close(chain.inverse(chain.forward(t64(X))), X)
    close(chain.forward_log_det_jacobian(t64(X)), math.log(2.0) + 0.5 + 2 * X)
    close(chain.inverse_log_det_jacobian(chain.forward(t64(X))), -(math.log(2.0) + 0.5 + 2 * X))
    nested = D.ChainTransform((D.ExpTransform(), D.StickBreakingTransform()))
    assert nested._domain.event_rank == 1 and nested.forward_shape((2, 3)) == (2, 4)
    log_det = nested.forward_log_det_jacobian(t64(X))
    assert log_det.shape == [2]
    called = D.ExpTransform()(D.AffineTransform(t64(0.0), t64(3.0)))
    assert isinstance(called, D.ChainTransform)
    close(called.forward(t64([1.0])), [3.0 * math.e])  # Paddle: self first, then the argument


def test_variable_constraints():
    from sampan.distribution import variable
    close(paddle.cast(D.SigmoidTransform()._codomain.constraint(t64([0.5, 1.5])), "float64"),
          [1.0, 0.0])
    close(paddle.cast(variable.simplex.constraint(t64([[0.2, 0.8], [0.5, 0.6]])), "float64"),
          [1.0, 0.0])
    ind = D.IndependentTransform(D.ExpTransform(), 1)._codomain
    close(paddle.cast(ind.constraint(t64([[1.0, 2.0], [-1.0, 2.0]])), "float64"), [1.0, 0.0])


@pytest.mark.parametrize("make, error, message", [
    (lambda: D.AffineTransform(0.0, t64(1.0)), TypeError, "'loc' to be a Tensor"),
    (lambda: D.PowerTransform(2.0), TypeError, "'power' to be a Tensor"),
    (lambda: D.ChainTransform([D.ExpTransform(), "exp"]), TypeError, "sequence of Transform"),
    (lambda: D.IndependentTransform(D.ExpTransform(), 0), ValueError, "positive int"),
    (lambda: D.IndependentTransform("exp", 1), TypeError, "must be a Transform"),
    (lambda: D.ReshapeTransform((2, 3), (4,)), ValueError, "different numbers"),
    (lambda: D.StackTransform([D.ExpTransform()], axis=0.5), TypeError, "axis must be an int"),
    (lambda: D.ExpTransform().forward(np.ones(2)), TypeError, "'x' to be a Tensor"),
    (lambda: D.StickBreakingTransform().forward(t64(1.0)), ValueError, "event rank"),
    (lambda: D.ReshapeTransform((2, 3), (3, 2)).forward_shape((3, 2)), ValueError, "end with"),
    (lambda: D.ExpTransform().forward_shape(3), TypeError, "sequence"),
    (lambda: D.StackTransform([D.ExpTransform()] * 2, 1).forward(t64(X)), ValueError,
     "2 transforms"),
])
def test_argument_errors(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_transformed_distribution_densities():
    base = D.Normal(t64([0.0, 1.0]), t64([1.0, 0.5]))
    affine = D.TransformedDistribution(base, [D.AffineTransform(t64(2.0), t64(3.0))])
    target = D.Normal(t64([2.0, 5.0]), t64([3.0, 1.5]))
    close(affine.log_prob(t64([1.0, 4.0])), target.log_prob(t64([1.0, 4.0])).numpy())
    close(affine.prob(t64([1.0, 4.0])), target.prob(t64([1.0, 4.0])).numpy())
    exp = D.ExpTransform()(D.Normal(0.0, 1.0))
    assert isinstance(exp, D.TransformedDistribution)
    np.testing.assert_allclose(exp.log_prob(paddle.to_tensor(1.0)).numpy(), -0.91893852,
                               rtol=1e-6)
    paddle.seed(0)
    assert np.all(exp.sample([100]).numpy() > 0)
    simplex = D.TransformedDistribution(D.Normal(t64(np.zeros((4, 3))), 1.0),
                                        [D.StickBreakingTransform()])
    assert simplex.batch_shape == (4,) and simplex.event_shape == (4,)
    draws = simplex.rsample([5])
    assert draws.shape == [5, 4, 4]
    np.testing.assert_allclose(draws.numpy().sum(-1), 1.0)
    x = D.StickBreakingTransform().inverse(draws)
    want = (D.Normal(t64(np.zeros((4, 3))), 1.0).log_prob(x).numpy().sum(-1)
            - D.StickBreakingTransform().forward_log_det_jacobian(x).numpy())
    close(simplex.log_prob(draws), want)
    with pytest.raises(TypeError, match="must be a Distribution"):
        D.TransformedDistribution("normal", [])
    with pytest.raises(TypeError, match="sequence of Transform"):
        D.TransformedDistribution(base, [np.exp])
    with pytest.raises(ValueError, match="event rank"):
        D.TransformedDistribution(D.Normal(0.0, 1.0), [D.StickBreakingTransform()])
