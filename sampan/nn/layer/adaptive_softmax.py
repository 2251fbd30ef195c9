"""nn.AdaptiveLogSoftmaxWithLoss: the layer holding adaptive log-softmax's head and
cluster weights (functional/adaptive_softmax.py)."""
from ..functional import adaptive_softmax as F
from .container import LayerList, ParameterList
from .layers import Layer

__all__ = ["AdaptiveLogSoftmaxWithLoss"]


class AdaptiveLogSoftmaxWithLoss(Layer):
    """Adaptive log-softmax over `n_classes`: classes below cutoffs[0] in the head, each
    cluster [cutoffs[i], cutoffs[i + 1]) reached through one head entry and projected to
    in_features // div_value**(i + 1) features first. forward(input, label) -> (output,
    loss); log_prob(input) gives every class, predict(input) the likeliest. Unlike Paddle
    3.3.1, the cluster weights are registered parameters (`tail_weights.<i>`), so optimizers
    given `parameters()` train them and state_dict saves them."""

    def __init__(self, in_features, n_classes, cutoffs, weight_attr=None, bias_attr=None,
                 div_value=4.0, head_bias=False, name=None):
        super().__init__()
        cutoffs = [int(c) for c in cutoffs]
        if (cutoffs != sorted(set(cutoffs)) or not cutoffs or cutoffs[0] <= 0
                or cutoffs[-1] >= n_classes):
            raise ValueError(f"AdaptiveLogSoftmaxWithLoss: cutoffs must be unique, positive "
                             f"and increasing, each between 1 and n_classes - 1 = "
                             f"{n_classes - 1}; got {cutoffs}")
        self.in_features, self.n_classes, self.div_value = in_features, n_classes, div_value
        self.cutoffs = cutoffs + [n_classes]
        self.shortlist_size, self.n_clusters = cutoffs[0], len(cutoffs)
        self.head_size = self.shortlist_size + self.n_clusters
        self.is_head_bias = head_bias
        self.head_weight = self.create_parameter([in_features, self.head_size], weight_attr)
        self.head_bias = self.create_parameter([self.head_size], bias_attr, is_bias=True) \
            if head_bias else None
        hidden = [int(in_features // div_value ** (i + 1)) for i in range(self.n_clusters)]
        self.tail_weights = LayerList([ParameterList([
            self.create_parameter([in_features, size], weight_attr),
            self.create_parameter([size, self.cutoffs[i + 1] - self.cutoffs[i]], weight_attr)])
            for i, size in enumerate(hidden)])

    def forward(self, input, label):
        return F.adaptive_log_softmax_with_loss(input, label, self.head_weight,
                                                [list(p) for p in self.tail_weights],
                                                self.cutoffs, self.head_bias)

    def log_prob(self, input):
        """Log-probabilities [N, n_classes] of every class."""
        return F.full_log_probs(input, self.head_weight, [list(p) for p in self.tail_weights],
                                self.cutoffs, self.head_bias)

    def predict(self, input):
        """The likeliest class of each row, as Paddle returns it (a float tensor [N])."""
        return self.log_prob(input).argmax(axis=1).astype(input.dtype)
