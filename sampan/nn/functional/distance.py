"""pairwise_distance: the p-norm of x - y + epsilon along the last axis."""
from ...ops._generated import api

__all__ = ["pairwise_distance"]


def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    """||x - y + epsilon||_p over the last axis of [N, D] (or [D]) x and y."""
    diff = api.scale(api.subtract(x, y), 1.0, float(epsilon))
    return api.p_norm(diff, float(p), -1, 1e-12, keepdim, False)
