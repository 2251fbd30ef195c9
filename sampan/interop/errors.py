"""Errors of the interop readers (a malformed file is `serialization.CorruptFileError`)."""

__all__ = ["UnsupportedPaddleOp", "UnsupportedOnnxOp"]


class UnsupportedPaddleOp(NotImplementedError):
    """A Paddle model uses ops sampan cannot run; `ops` lists every one of them at once."""

    def __init__(self, path, ops):
        self.path = path
        self.ops = sorted(ops)
        super().__init__(f"Paddle model {path!r} uses {len(self.ops)} op type(s) sampan does "
                         f"not support: {', '.join(self.ops)} (see docs/interop.md for the "
                         f"supported ones)")


class UnsupportedOnnxOp(NotImplementedError):
    """A program cannot be exported to ONNX: `ops` lists every op type with no ONNX mapping
    and `problems` every use of a mapped op that ONNX cannot express, all at once."""

    def __init__(self, ops, problems=()):
        self.ops = sorted(ops)
        self.problems = list(problems)
        lines = []
        if self.ops:
            lines.append(f"{len(self.ops)} op type(s) have no ONNX mapping: "
                         f"{', '.join(self.ops)}")
        lines += [f"cannot export {p}" for p in self.problems]
        super().__init__("paddle.onnx.export: " + "\n  ".join(lines) +
                         "\n(see docs/interop.md, 'ONNX export', for what exports)")
