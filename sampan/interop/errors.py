"""Errors of the interop readers (a malformed file is `serialization.CorruptFileError`)."""

__all__ = ["UnsupportedPaddleOp"]


class UnsupportedPaddleOp(NotImplementedError):
    """A Paddle model uses ops sampan cannot run; `ops` lists every one of them at once."""

    def __init__(self, path, ops):
        self.path = path
        self.ops = sorted(ops)
        super().__init__(f"Paddle model {path!r} uses {len(self.ops)} op type(s) sampan does "
                         f"not support: {', '.join(self.ops)} (see docs/interop.md for the "
                         f"supported ones)")
