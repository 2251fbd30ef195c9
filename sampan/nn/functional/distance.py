"""pairwise_distance: the p-norm of x - y + epsilon along the last axis; pdist (Paddle
defines it here and re-exports it as paddle.pdist)."""
from ...ops._generated import api
from ...tensor.more import pdist

__all__ = ["pairwise_distance", "pdist"]


def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    """||x - y + epsilon||_p over the last axis of [N, D] (or [D]) x and y."""
    diff = api.scale(api.subtract(x, y), 1.0, float(epsilon))
    return api.p_norm(diff, float(p), -1, 1e-12, keepdim, False)
