"""Record the attributes Paddle's pooling, conv, norm and common layers set in their
constructors (their `vars()` beyond a bare Layer's), as tests/nn/paddle_layer_vars.json.

Run with real Paddle: `/path/to/paddle/python tools/paddle_reference/layer_vars.py OUT.json`.
Tensors are recorded as "<tensor>"; other values by repr.
"""
import json
import pathlib
import sys

import paddle

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "nn"))
from layer_cases import layer_cases  # noqa: E402

nn = paddle.nn
CASES = layer_cases(nn)


def main(out):
    base = set(vars(nn.Layer()))
    table = {name: {k: "<tensor>" if hasattr(v, "shape") else repr(v)
                    for k, v in vars(make()).items() if k not in base}
             for name, make in CASES.items()}
    with open(out, "w") as f:
        json.dump(table, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
