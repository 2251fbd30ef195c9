"""paddle.vision.datasets: MNIST, FashionMNIST, Cifar10/100 from local files (sampan cannot
download), DatasetFolder and ImageFolder over .npy images or a loader of your own."""
from .cifar import Cifar10, Cifar100
from .folder import DatasetFolder, ImageFolder
from .mnist import MNIST, FashionMNIST
from .pickled_batches import UnsafePickleError

__all__ = ["DatasetFolder", "ImageFolder", "MNIST", "FashionMNIST", "Cifar10", "Cifar100",
           "UnsafePickleError"]
