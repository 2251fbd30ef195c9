"""Small archives in the real formats of Paddle's text datasets (written into a folder)."""
import gzip
import io
import tarfile
import zipfile

import numpy as np


def _add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def housing(folder):
    rows = np.random.default_rng(0).uniform(0, 10, (10, 14)).round(3)
    path = folder / "housing.data"
    path.write_text("\n".join(" ".join(f"{v:.3f}" for v in row) for row in rows) + "\n")
    return str(path), rows


IMDB = {"aclImdb/train/pos/0_9.txt": b"A great film, great acting!\n",
        "aclImdb/train/neg/1_2.txt": b"Bad film. Bad plot; great music",
        "aclImdb/test/pos/2_8.txt": b"great great fun",
        "aclImdb/test/neg/3_1.txt": b"boring film\r\n",
        "aclImdb/README": b"not a review"}


def imdb(folder):
    path = folder / "aclImdb_v1.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name, text in IMDB.items():
            _add(tar, name, text)
    return str(path)


PTB = {"train": "the cat sat\nthe dog sat on the mat\n",
       "valid": "the cat ran\n",
       "test": "a cat sat\nthe end\n"}


def ptb(folder):
    path = folder / "simple-examples.tgz"
    with tarfile.open(path, "w:gz") as tar:
        for split, text in PTB.items():
            _add(tar, f"./simple-examples/data/ptb.{split}.txt", text.encode())
    return str(path)


def movielens(folder):
    path = folder / "ml-1m.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ml-1m/movies.dat", "1::Toy Story (1995)::Animation|Comedy\n"
                                       "2::Heat (1995)::Action\n")
        z.writestr("ml-1m/users.dat", "1::F::1::10::48067\n2::M::56::16::70072\n")
        z.writestr("ml-1m/ratings.dat", "1::1::5::978300760\n1::2::3::978302109\n"
                                        "2::2::4::978301968\n2::1::1::978300275\n")
    return str(path)


CONLL_WORDS = ["The", "cat", "sat", "down", "", "Dogs", "run", ""]
CONLL_PROPS = ["-      (A0*", "-      *)", "sat    (V*)", "-      (AM-DIR*)", "",
               "-      (A0*)", "run    (V*)", ""]


def conll05(folder):
    def gz(lines):
        return gzip.compress(("\n".join(lines) + "\n").encode())
    path = folder / "conll05st-tests.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        _add(tar, "conll05st-release/test.wsj/words/test.wsj.words.gz", gz(CONLL_WORDS))
        _add(tar, "conll05st-release/test.wsj/props/test.wsj.props.gz", gz(CONLL_PROPS))
    files = {}
    for name, lines in (("wordDict.txt", ["<unk>", "the", "cat", "sat", "down", "bos", "eos",
                                          "The"]),
                        ("verbDict.txt", ["sat", "run"]),
                        ("targetDict.txt", ["B-A0", "I-A0", "B-V", "I-V", "B-AM-DIR",
                                            "I-AM-DIR", "O"]),
                        ("emb", ["0 0"])):
        (folder / name).write_text("\n".join(lines) + "\n")
        files[name] = str(folder / name)
    return str(path), files


def wmt14(folder):
    path = folder / "wmt14.tgz"
    with tarfile.open(path, "w:gz") as tar:
        _add(tar, "wmt14/src.dict", b"<s>\n<e>\n<unk>\nthe\ncat\n")
        _add(tar, "wmt14/trg.dict", b"<s>\n<e>\n<unk>\nle\nchat\n")
        _add(tar, "wmt14/test/test", b"the cat\tle chat\nthe dog\tle chien\nbroken line\n")
    return str(path)


def wmt16(folder):
    path = folder / "wmt16.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        _add(tar, "wmt16/train", b"a cat\tdie katze\na dog\tder hund\nthe cat\tdie katze\n")
        _add(tar, "wmt16/val", b"a cat\tdie katze\nbig dog\tder hund\n")
    return str(path)
