"""WMT14 (English-French, wmt14.tgz with its dictionaries) and WMT16 (English-German,
wmt16.tar.gz; dictionaries built from its train split) translation pairs."""
import collections
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_mode, locate

__all__ = ["WMT14", "WMT16"]

START, END, UNK = "<s>", "<e>", "<unk>"


def _pairs(tar, member):
    """(source words, target words) of each tab-separated line of `member`."""
    for line in tar.extractfile(member):
        fields = line.decode("utf-8").strip().split("\t")
        if len(fields) == 2:
            yield fields[0].split(), fields[1].split()


class _Translation(Dataset):
    """(source ids, target ids with '<s>' first, target ids with '<e>' last) triples."""

    def _add(self, src_ids, trg_ids, start, end):
        self.src_ids.append(src_ids)
        self.trg_ids.append([start] + trg_ids)
        self.trg_ids_next.append(trg_ids + [end])

    def __getitem__(self, idx):
        return (np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]),
                np.array(self.trg_ids_next[idx]))

    def __len__(self):
        return len(self.src_ids)


class WMT14(_Translation):
    """English-French pairs of wmt14.tgz's `<mode>/<mode>` files, with the first
    `dict_size` words of its src.dict / trg.dict (unknown words: id 2). Pairs longer than
    80 ids are skipped.

    Example:
        >>> data = WMT14(data_file="wmt14.tgz", mode="test", dict_size=30000)
    """

    UNK_IDX = 2

    def __init__(self, data_file=None, mode="train", dict_size=-1, download=True):
        self.mode = check_mode("WMT14", mode, ("train", "test", "gen"))
        self.data_file = locate("WMT14", data_file,
                                "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz", "wmt14",
                                download, "data_file")
        if dict_size <= 0:
            raise ValueError(f"WMT14: dict_size should be a positive number, got {dict_size}")
        self.dict_size = dict_size
        with tarfile.open(self.data_file) as tar:
            self._load_data(tar)

    def _dict(self, tar, suffix):
        names = [m.name for m in tar if m.name.endswith(suffix)]
        if len(names) != 1:
            raise ValueError(f"WMT14: {self.data_file} should hold one *{suffix}, found "
                             f"{names}")
        lines = tar.extractfile(names[0]).read().decode("utf-8").splitlines()
        return {w.strip(): i for i, w in enumerate(lines[:self.dict_size])}

    def _load_data(self, tar):
        self.src_dict, self.trg_dict = self._dict(tar, "src.dict"), self._dict(tar, "trg.dict")
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        wanted = f"{self.mode}/{self.mode}"
        for member in [m.name for m in tar if m.name.endswith(wanted)]:
            for src, trg in _pairs(tar, member):
                src_ids = [self.src_dict.get(w, self.UNK_IDX) for w in [START, *src, END]]
                trg_ids = [self.trg_dict.get(w, self.UNK_IDX) for w in trg]
                if len(src_ids) <= 80 and len(trg_ids) <= 80:
                    self._add(src_ids, trg_ids, self.trg_dict[START], self.trg_dict[END])

    def get_dict(self, reverse=False):
        """(source dict, target dict), as {id: word} when `reverse`."""
        if reverse:
            return ({i: w for w, i in self.src_dict.items()},
                    {i: w for w, i in self.trg_dict.items()})
        return self.src_dict, self.trg_dict


class WMT16(_Translation):
    """English-German pairs of wmt16.tar.gz's `wmt16/<mode>` file (`lang` is the source
    language). Each dictionary starts '<s>', '<e>', '<unk>' and continues with that
    language's most frequent words of wmt16/train (ties in first-seen order), up to its
    size; it is built in memory (Paddle caches it as a file).

    Example:
        >>> data = WMT16(data_file="wmt16.tar.gz", mode="val", src_dict_size=50,
        ...              trg_dict_size=50, lang="en")
    """

    def __init__(self, data_file=None, mode="train", src_dict_size=-1, trg_dict_size=-1,
                 lang="en", download=True):
        self.mode = check_mode("WMT16", mode, ("train", "test", "val"))
        if lang not in ("en", "de"):
            raise ValueError(f"WMT16: lang should be 'en' or 'de', got {lang!r}")
        if src_dict_size <= 0 or trg_dict_size <= 0:
            raise ValueError(f"WMT16: src_dict_size and trg_dict_size should be positive, "
                             f"got {src_dict_size} and {trg_dict_size}")
        self.data_file = locate("WMT16", data_file,
                                "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz", "wmt16",
                                download, "data_file")
        self.lang, self.src_dict_size, self.trg_dict_size = lang, src_dict_size, trg_dict_size
        with tarfile.open(self.data_file) as tar:
            train = list(_pairs(tar, "wmt16/train"))
            source_first = lang == "en"
            self.src_dict = self._build_dict([p[0 if source_first else 1] for p in train],
                                             src_dict_size)
            self.trg_dict = self._build_dict([p[1 if source_first else 0] for p in train],
                                             trg_dict_size)
            self._load_data(tar)

    @staticmethod
    def _build_dict(sentences, size):
        counts = collections.Counter(w for words in sentences for w in words)
        words = [START, END, UNK] + [w for w, _ in counts.most_common()][:max(size - 3, 0)]
        return {w: i for i, w in enumerate(words)}

    def _load_data(self, tar):
        start, end, unk = (self.src_dict[m] for m in (START, END, UNK))
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        for src, trg in _pairs(tar, f"wmt16/{self.mode}"):
            if self.lang == "de":
                src, trg = trg, src
            self._add([start] + [self.src_dict.get(w, unk) for w in src] + [end],
                      [self.trg_dict.get(w, unk) for w in trg], start, end)

    def get_dict(self, lang, reverse=False):
        """The dictionary of `lang` ('en' or 'de'), as {id: word} when `reverse`."""
        d = self.src_dict if lang == self.lang else self.trg_dict
        return {i: w for w, i in d.items()} if reverse else d
