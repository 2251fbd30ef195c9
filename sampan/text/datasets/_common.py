"""What the text datasets share: mode checks, locating files, and word dictionaries."""
import collections

from ...vision.datasets._source import locate

__all__ = ["check_mode", "locate", "frequent_words"]


def check_mode(dataset, mode, allowed):
    """`mode` lower-cased, or ValueError naming the allowed ones."""
    if mode.lower() not in allowed:
        raise ValueError(f"{dataset}: mode should be one of {list(allowed)}, got {mode!r}")
    return mode.lower()


def frequent_words(token_lists, more_than):
    """{word: index} of the words seen more than `more_than` times, most frequent first
    (ties alphabetical), then '<unk>' (Paddle's dictionary order)."""
    counts = collections.Counter(w for tokens in token_lists for w in tokens)
    kept = sorted((w for w, n in counts.items() if n > more_than), key=lambda w: (-counts[w], w))
    index = {w: i for i, w in enumerate(kept)}
    index["<unk>"] = len(kept)
    return index
