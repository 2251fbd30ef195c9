"""Other frameworks' files in and out: `interop.paddle` reads and writes the files real
PaddlePaddle writes (PIR `.json` and protobuf `.pdmodel` inference models, `.pdiparams`,
`paddle.save` pickles) with NumPy only.

Readers turn a foreign file into a sampan `Program` and parameters and stop there; verify,
compile, run and save are the existing paths. Loaded on first use (never by `import sampan`).
"""
from ..core.lazy import lazy_exports

lazy_exports(globals(), {".errors": ["UnsupportedPaddleOp", "UnsupportedOnnxOp"]})
