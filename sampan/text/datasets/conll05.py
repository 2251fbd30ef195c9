"""CoNLL-2005 semantic role labelling (the WSJ test set of conll05st-tests.tar.gz)."""
import gzip
import tarfile

import numpy as np

from ...io import Dataset
from ._common import locate

__all__ = ["Conll05st"]

_BASE = "http://paddlemodels.bj.bcebos.com/conll05st"
_FILES = {"data_file": f"{_BASE}/conll05st-tests.tar.gz",
          "word_dict_file": f"{_BASE}%2FwordDict.txt",
          "verb_dict_file": f"{_BASE}%2FverbDict.txt",
          "target_dict_file": f"{_BASE}%2FtargetDict.txt",
          "emb_file": f"{_BASE}%2Femb"}
_WORDS = "conll05st-release/test.wsj/words/test.wsj.words.gz"
_PROPS = "conll05st-release/test.wsj/props/test.wsj.props.gz"
UNK_IDX = 0


def _line_dict(path):
    """{stripped line: line number}."""
    with open(path, encoding="utf-8") as f:
        return {line.strip(): i for i, line in enumerate(f)}


def _label_dict(path):
    """B-/I- ids for each tag of the target dictionary (tags in sorted order), then 'O'."""
    with open(path, encoding="utf-8") as f:
        tags = sorted({line.strip()[2:] for line in f if line.startswith(("B-", "I-"))})
    d = {}
    for tag in tags:
        d["B-" + tag], d["I-" + tag] = len(d), len(d) + 1
    d["O"] = len(d)
    return d


def _bio(column):
    """A props column ('(A0*', '*', '*)', '(V*)') as BIO tags."""
    tags, tag, inside = [], "O", False
    for mark in column:
        if mark == "*":
            tags.append("I-" + tag if inside else "O")
        elif mark == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in mark:
            tag = mark[1:mark.find("*")]
            tags.append("B-" + tag)
            inside = ")" not in mark
        else:
            raise ValueError(f"Conll05st: unexpected label {mark!r}")
    return tags


def _sentences(archive):
    """(words, props rows) of each sentence of the WSJ test set."""
    with tarfile.open(archive) as tar, \
            gzip.GzipFile(fileobj=tar.extractfile(_WORDS)) as words, \
            gzip.GzipFile(fileobj=tar.extractfile(_PROPS)) as props:
        sentence, rows = [], []
        for word, prop in zip(words, props):
            fields = prop.decode().split()
            if fields:
                sentence.append(word.decode().strip())
                rows.append(fields)
            elif rows:
                yield sentence, rows
                sentence, rows = [], []


class Conll05st(Dataset):
    """One item per predicate of a sentence: word ids, the ids of the two words before the
    predicate, the predicate, the two after ('bos'/'eos' past the ends), each repeated
    along the sentence, the predicate id, the 0/1 mark of that 5-word window, and the BIO
    label ids.

    Example:
        >>> data = Conll05st(data_file="conll05st-tests.tar.gz", word_dict_file="wordDict.txt",
        ...                  verb_dict_file="verbDict.txt", target_dict_file="targetDict.txt",
        ...                  emb_file="emb")
    """

    def __init__(self, data_file=None, word_dict_file=None, verb_dict_file=None,
                 target_dict_file=None, emb_file=None, download=True):
        given = {"data_file": data_file, "word_dict_file": word_dict_file,
                 "verb_dict_file": verb_dict_file, "target_dict_file": target_dict_file,
                 "emb_file": emb_file}
        for argument, path in given.items():
            setattr(self, argument, locate("Conll05st", path, _FILES[argument], "conll05st",
                                           download, argument))
        self.word_dict = _line_dict(self.word_dict_file)
        self.predicate_dict = _line_dict(self.verb_dict_file)
        self.label_dict = _label_dict(self.target_dict_file)
        self._load_anno()

    def _load_anno(self):
        self.sentences, self.predicates, self.labels = [], [], []
        for sentence, rows in _sentences(self.data_file):
            columns = list(zip(*rows))
            verbs = [w for w in columns[0] if w != "-"]
            for verb, column in zip(verbs, columns[1:]):
                self.sentences.append(sentence)
                self.predicates.append(verb)
                self.labels.append(_bio(column))

    def __getitem__(self, idx):
        sentence, labels = self.sentences[idx], self.labels[idx]
        verb = labels.index("B-V")
        mark = [0] * len(labels)
        for k in range(max(verb - 2, 0), min(verb + 3, len(labels))):
            mark[k] = 1
        window = [sentence[k] if 0 <= k < len(sentence) else ("bos" if k < 0 else "eos")
                  for k in range(verb - 2, verb + 3)]
        n = len(sentence)
        context = [np.array([self.word_dict.get(w, UNK_IDX)] * n) for w in window]
        return (np.array([self.word_dict.get(w, UNK_IDX) for w in sentence]), *context,
                np.array([self.predicate_dict.get(self.predicates[idx])] * n),
                np.array(mark), np.array([self.label_dict.get(w) for w in labels]))

    def __len__(self):
        return len(self.sentences)

    def get_dict(self):
        """(word dict, predicate dict, label dict)."""
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self):
        """The path of the embedding file."""
        return self.emb_file
