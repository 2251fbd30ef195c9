"""LeNet."""
from ... import nn
from ... import tensor as T

__all__ = ["LeNet"]


class LeNet(nn.Layer):
    """LeNet from "Gradient-based learning applied to document recognition", for 1x28x28
    inputs.

    Args:
        num_classes (int): outputs of the last fc layer; <= 0 leaves the fc layers out
            (default 10).

    Example:
        >>> LeNet()(paddle.rand([2, 1, 28, 28])).shape
        [2, 10]
    """

    def __init__(self, num_classes=10):
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
        if num_classes > 0:
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84),
                                    nn.Linear(84, num_classes))

    def forward(self, inputs):
        x = self.features(inputs)
        if self.num_classes > 0:
            x = self.fc(T.flatten(x, 1))
        return x
