"""`paddle.text`: the text datasets (read from local files; sampan cannot download) and
Viterbi decoding."""
from ..core.lazy import lazy_exports

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16",
           "ViterbiDecoder", "viterbi_decode"]
lazy_exports(globals(), {".datasets": ["Conll05st", "Imdb", "Imikolov", "Movielens",
                                       "UCIHousing", "WMT14", "WMT16"],
                         ".viterbi": ["ViterbiDecoder", "viterbi_decode"]})
