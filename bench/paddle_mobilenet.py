"""Run by bench_inference.py under a real Paddle's Python (not sampan's): export
MobileNetV3-small, load it in Paddle Inference (batch 1, THREADS math threads) and time it on
request, so the caller can alternate rounds of Paddle and sampan under the same machine load.

Usage: PADDLE_PYTHON bench/paddle_mobilenet.py PREFIX IMAGE_SIZE THREADS
Writes PREFIX.json, .pdiparams, .input.npy, .paddle_output.npy; prints one JSON line
{"load": seconds}; then for each line "N" read from stdin runs N inferences and prints
{"wall": s, "cpu": s} per inference. Stdin at end of file (`< /dev/null`): export only.
"""
import json
import sys
import time

import numpy as np
import paddle
from paddle.static import InputSpec

prefix, size, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
paddle.seed(0)
model = paddle.vision.models.mobilenet_v3_small()
model.eval()
paddle.jit.save(model, prefix, input_spec=[InputSpec([None, 3, size, size], "float32", "image")])
x = np.random.RandomState(0).rand(1, 3, size, size).astype("float32")
np.save(prefix + ".input.npy", x)
start = time.perf_counter()
config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
config.set_cpu_math_library_num_threads(threads)
config.disable_glog_info()
predictor = paddle.inference.create_predictor(config)
load = time.perf_counter() - start
handle = predictor.get_input_handle(predictor.get_input_names()[0])
output = predictor.get_output_handle(predictor.get_output_names()[0])


def run():
    handle.copy_from_cpu(x)
    predictor.run()
    return output.copy_to_cpu()


np.save(prefix + ".paddle_output.npy", run())
print(json.dumps({"load": load}), flush=True)
for line in sys.stdin:
    number = int(line)
    start, start_cpu = time.perf_counter(), time.process_time()
    for _ in range(number):
        run()
    print(json.dumps({"wall": (time.perf_counter() - start) / number,
                      "cpu": (time.process_time() - start_cpu) / number}), flush=True)
