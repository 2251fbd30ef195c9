"""IMDB movie reviews for sentiment classification, from aclImdb_v1.tar.gz."""
import re
import string
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_mode, frequent_words, locate

__all__ = ["Imdb"]

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"


def _tokens(raw):
    """A review's words as bytes (as Paddle keeps them: its tutorials decode the dictionary's
    keys): trailing newlines stripped, ASCII punctuation removed, lower-cased, split on
    whitespace (Paddle's tokenisation)."""
    text = raw.rstrip(b"\n\r").translate(None, string.punctuation.encode("latin-1"))
    return text.lower().split()


def _reviews(archive, pattern):
    """The token lists of the archive members whose names match `pattern`, in archive
    order."""
    docs = []
    with tarfile.open(archive) as tar:
        for member in tar:
            if member.isfile() and pattern.match(member.name):
                docs.append(_tokens(tar.extractfile(member).read()))
    return docs


class Imdb(Dataset):
    """(word ids, label) pairs: label 0 for aclImdb/<mode>/pos reviews, 1 for neg. The
    dictionary `word_idx` holds the words (bytes, as in Paddle) appearing more than
    `cutoff` times in all train and test reviews, most frequent first, then the str '<unk>'
    for the others.

    Example:
        >>> data = Imdb(data_file="aclImdb_v1.tar.gz", mode="test", cutoff=150)
    """

    def __init__(self, data_file=None, mode="train", cutoff=150, download=True):
        self.mode = check_mode("Imdb", mode, ("train", "test"))
        self.data_file = locate("Imdb", data_file, URL, "imdb", download, "data_file")
        every = re.compile(r"aclImdb/(train|test)/(pos|neg)/.*\.txt$")
        self.word_idx = frequent_words(_reviews(self.data_file, every), cutoff)
        self._load_anno()

    def _load_anno(self):
        unk = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, kind in enumerate(("pos", "neg")):
            pattern = re.compile(rf"aclImdb/{self.mode}/{kind}/.*\.txt$")
            for doc in _reviews(self.data_file, pattern):
                self.docs.append([self.word_idx.get(w, unk) for w in doc])
                self.labels.append(label)

    def __getitem__(self, idx):
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self):
        return len(self.docs)
