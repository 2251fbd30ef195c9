"""The Penn Treebank language-model data (Mikolov's simple-examples.tgz)."""
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_mode, locate

__all__ = ["Imikolov"]

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"
_FILE = "./simple-examples/data/ptb.{}.txt"


def _lines(tar, split):
    """The word lists of ptb.<split>.txt."""
    name = _FILE.format(split)
    try:
        member = tar.extractfile(name)
    except KeyError:
        raise ValueError(f"Imikolov: the archive has no {name}") from None
    return [line.decode("utf-8").split() for line in member]


def _dictionary(lines, min_word_freq):
    """{word: index}: words (with one '<s>' and '<e>' per sentence) seen more than
    `min_word_freq` times, most frequent first (ties alphabetical), then '<unk>'."""
    counts = {}
    for words in lines:
        for w in words + ["<s>", "<e>"]:
            counts[w] = counts.get(w, 0) + 1
    counts.pop("<unk>", None)
    kept = sorted((w for w, n in counts.items() if n > min_word_freq),
                  key=lambda w: (-counts[w], w))
    index = {w: i for i, w in enumerate(kept)}
    index["<unk>"] = len(kept)
    return index


class Imikolov(Dataset):
    """N-grams (data_type="NGRAM": tuples of `window_size` word ids over '<s>' sentence
    '<e>') or sequences (data_type="SEQ": ('<s>' + sentence, sentence + '<e>'), skipped
    when longer than a positive `window_size`) of ptb.train.txt or ptb.test.txt. The
    dictionary counts ptb.train.txt and ptb.valid.txt.

    Example:
        >>> data = Imikolov(data_file="simple-examples.tgz", data_type="NGRAM", window_size=5)
    """

    def __init__(self, data_file=None, data_type="NGRAM", window_size=-1, mode="train",
                 min_word_freq=50, download=True):
        if data_type.upper() not in ("NGRAM", "SEQ"):
            raise ValueError(f"Imikolov: data_type should be 'NGRAM' or 'SEQ', got "
                             f"{data_type!r}")
        if data_type.upper() == "NGRAM" and window_size < 0:
            raise ValueError("Imikolov: data_type='NGRAM' needs a window_size >= 0")
        self.data_type = data_type.upper()
        self.mode = check_mode("Imikolov", mode, ("train", "test"))
        self.window_size, self.min_word_freq = window_size, min_word_freq
        self.data_file = locate("Imikolov", data_file, URL, "imikolov", download, "data_file")
        with tarfile.open(self.data_file) as tar:
            self.word_idx = _dictionary(_lines(tar, "train") + _lines(tar, "valid"),
                                        min_word_freq)
            self._load_anno(_lines(tar, self.mode))

    def _load_anno(self, lines):
        unk, n = self.word_idx["<unk>"], self.window_size
        self.data = []
        for words in lines:
            if self.data_type == "NGRAM":
                ids = [self.word_idx.get(w, unk) for w in ["<s>", *words, "<e>"]]
                self.data.extend(tuple(ids[i - n:i]) for i in range(n, len(ids) + 1)
                                 if len(ids) >= n)
            else:
                ids = [self.word_idx.get(w, unk) for w in words]
                src = [self.word_idx["<s>"], *ids]
                if n > 0 and len(src) > n:
                    continue
                self.data.append((src, ids + [self.word_idx["<e>"]]))

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self):
        return len(self.data)
