"""Inference benchmarks: MLP 784-256-256-10 (NumPy forward vs jit.load layer vs
predictor), and a MobileNetV3-small exported by real Paddle, run by sampan's predictor and
by Paddle Inference in the same run.

Run: .venv/bin/python bench/bench_inference.py   (prints µs per call)
One BLAS thread unless OPENBLAS_NUM_THREADS says otherwise; Paddle gets the same number of
math threads. The Paddle part needs Paddle's Python: PADDLE_PYTHON (default
/tmp/pdvenv/bin/python). `--mobilenet` runs the MobileNetV3 part alone.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from timing import interleaved  # noqa: E402

import numpy as np  # noqa: E402

import sampan  # noqa: E402
from sampan import nn  # noqa: E402
from sampan.inference import Config, create_predictor  # noqa: E402
from sampan.jit.save_load import load, save  # noqa: E402
from sampan.static import InputSpec  # noqa: E402

SIZES = (784, 256, 256, 10)


def build_model():
    """The sampan MLP and its weights as NumPy arrays [(w, b), ...]."""
    sampan.seed(0)
    layers = []
    for k, (a, b) in enumerate(zip(SIZES, SIZES[1:])):
        layers.append(nn.Linear(a, b))
        if k < len(SIZES) - 2:
            layers.append(nn.ReLU())
    model = nn.Sequential(*layers)
    linears = [layer for layer in layers if isinstance(layer, nn.Linear)]
    return model, [(lin.weight.numpy(), lin.bias.numpy()) for lin in linears]


def numpy_forward(weights, x):
    """Three matmuls, bias adds and ReLUs written directly in NumPy."""
    (w1, b1), (w2, b2), (w3, b3) = weights
    h = np.maximum(x @ w1 + b1, 0)
    h = np.maximum(h @ w2 + b2, 0)
    return h @ w3 + b3


def predict_fn(predictor, x):
    """A zero-argument callable: copy x in, run the predictor, copy the output out."""
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    output = predictor.get_output_handle(predictor.get_output_names()[0])

    def predict():
        handle.copy_from_cpu(x)
        predictor.run()
        return output.copy_to_cpu()
    return predict


def runners(prefix, weights, batch):
    """{name: zero-argument callable} for one batch size, all checked to agree."""
    x = np.random.default_rng(batch).standard_normal((batch, SIZES[0])).astype("float32")
    loaded = load(prefix)
    tensor = sampan.to_tensor(x)
    predict = predict_fn(create_predictor(Config(prefix)), x)

    def layer():
        with sampan.no_grad():
            return loaded(tensor).numpy()
    expected = numpy_forward(weights, x)
    for fn in (predict, layer):
        np.testing.assert_allclose(fn(), expected, rtol=1e-4, atol=1e-5)
    return {"NumPy forward": lambda: numpy_forward(weights, x),
            "jit.load layer (no_grad)": layer, "predictor": predict}


def paddle_mobilenet(size=224, rounds=15, number=20):
    """Load time and batch-1 inference time of MobileNetV3-small (Paddle's export), in
    sampan's predictor and in Paddle Inference (a Paddle subprocess with the same number of
    math threads), timed in alternating rounds so that both see the same machine load."""
    python = os.environ.get("PADDLE_PYTHON", "/tmp/pdvenv/bin/python")
    if not os.path.exists(python):
        print(f"MobileNetV3-small: skipped ({python} not found; set PADDLE_PYTHON)")
        return
    threads = int(os.environ["OPENBLAS_NUM_THREADS"])
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryFile("w+") as errors:
        prefix = os.path.join(folder, "mobilenet_v3_small")
        paddle = subprocess.Popen([python, os.path.join(here, "paddle_mobilenet.py"), prefix,
                                   str(size), str(threads)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=errors, text=True)
        try:
            theirs_load = _reply(paddle, errors)["load"]
            x = np.load(prefix + ".input.npy")
            start = time.perf_counter()
            predictor = create_predictor(Config(prefix + ".json", prefix + ".pdiparams"))
            load_seconds = time.perf_counter() - start
            predict = predict_fn(predictor, x)
            np.testing.assert_allclose(predict(), np.load(prefix + ".paddle_output.npy"),
                                       rtol=1e-4, atol=1e-5)
            theirs, ours = _alternate(paddle, errors, predict, rounds, number)
        finally:
            paddle.stdin.close()
            paddle.wait()
    _report(size, threads, {"theirs": theirs_load, "ours": load_seconds}, theirs, ours)


def _report(size, threads, loads, theirs, ours):
    """Print best times of both sides and the per-round CPU time ratios."""
    ratios = sorted(o["cpu"] / t["cpu"] for o, t in zip(ours, theirs))
    best = {name: {key: min(r[key] for r in runs) for key in ("wall", "cpu")}
            for name, runs in (("theirs", theirs), ("ours", ours))}
    print(f"\nMobileNetV3-small (Paddle 3 export), batch 1, {size}x{size}, {threads} math "
          f"thread(s) on both sides, load average {os.getloadavg()[0]:.1f}:")
    print(f"{'':<24}{'load s':>10}{'ms/run':>10}{'CPU ms/run':>12}")
    for label, name in (("Paddle Inference", "theirs"), ("sampan predictor", "ours")):
        print(f"{label:<24}{loads[name]:>10.3f}{best[name]['wall'] * 1e3:>10.2f}"
              f"{best[name]['cpu'] * 1e3:>12.2f}")
    print(f"sampan / Paddle, CPU time per round ({len(ratios)} alternating rounds): median "
          f"{ratios[len(ratios) // 2]:.2f}x, range {ratios[0]:.2f}-{ratios[-1]:.2f}x; "
          f"best against best: {best['ours']['cpu'] / best['theirs']['cpu']:.2f}x")


def _reply(process, errors):
    """The next JSON line the Paddle subprocess prints (its stderr in the error if it died)."""
    for line in process.stdout:
        if line.startswith("{"):
            return json.loads(line)
    process.wait()
    errors.seek(0)
    raise RuntimeError(f"the Paddle subprocess exited ({process.returncode}):\n"
                       f"{errors.read()[-3000:]}")


def _alternate(paddle, errors, predict, rounds, number):
    """Per round, Paddle's then sampan's seconds per inference ({"wall", "cpu"}) over
    `number` inferences; one warm-up round first."""
    theirs, ours = [], []
    for k in range(rounds + 1):
        paddle.stdin.write(f"{number}\n")
        paddle.stdin.flush()
        reply = _reply(paddle, errors)
        start, start_cpu = time.perf_counter(), time.process_time()
        for _ in range(number):
            predict()
        if k:
            theirs.append(reply)
            ours.append({"wall": (time.perf_counter() - start) / number,
                         "cpu": (time.process_time() - start_cpu) / number})
    return theirs, ours


def main():
    if "--mobilenet" in sys.argv[1:]:
        paddle_mobilenet()
        return
    model, weights = build_model()
    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "mlp")
        save(model, prefix, input_spec=[InputSpec([None, SIZES[0]], "float32", "x")])
        print(f"{'case':<34}{'µs/call':>10}{'vs NumPy':>10}")
        for batch in (1, 64):
            times = interleaved(runners(prefix, weights, batch), rounds=40, number=25)
            base = times["NumPy forward"]
            for name, seconds in times.items():
                print(f"{f'batch {batch}: {name}':<34}{seconds * 1e6:>10.1f}"
                      f"{seconds / base:>9.2f}x")
    paddle_mobilenet()


if __name__ == "__main__":
    main()
