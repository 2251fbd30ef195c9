"""Metrics for evaluation (`paddle.metric`): Metric base, Accuracy, Precision, Recall, Auc."""
from .metrics import Accuracy, Auc, Metric, Precision, Recall, accuracy

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]
