"""paddle.optimizer: optimizers and learning-rate schedulers."""
from . import lr  # noqa: F401
from .adam import Adam, AdamW  # noqa: F401
from .adam_variants import Adamax, Lamb, NAdam, RAdam  # noqa: F401
from .asgd import ASGD  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .rmsprop import Adadelta, Adagrad, RMSProp  # noqa: F401
from .rprop import Rprop  # noqa: F401
from .sgd import SGD, Momentum  # noqa: F401

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "Lamb",
           "RMSProp", "Adagrad", "Adadelta", "ASGD", "Rprop", "LBFGS", "lr"]
