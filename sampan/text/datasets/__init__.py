"""Paddle's text datasets, each read from the archive Paddle would download, in its real
format, given by path (or found in Paddle's download cache)."""
from .conll05 import Conll05st
from .imdb import Imdb
from .imikolov import Imikolov
from .movielens import Movielens
from .uci_housing import UCIHousing
from .wmt import WMT14, WMT16

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16"]
