"""Run by bench_inference.py under a real Paddle's Python (not sampan's): export
MobileNetV3-small and time Paddle Inference on it (one thread, batch 1); prints one JSON line.

Usage: PADDLE_PYTHON bench/paddle_mobilenet.py PREFIX IMAGE_SIZE ROUNDS
"""
import json
import sys
import time

import numpy as np
import paddle
from paddle.static import InputSpec

prefix, size = sys.argv[1], int(sys.argv[2])
paddle.seed(0)
model = paddle.vision.models.mobilenet_v3_small()
model.eval()
paddle.jit.save(model, prefix, input_spec=[InputSpec([None, 3, size, size], "float32", "image")])
x = np.random.RandomState(0).rand(1, 3, size, size).astype("float32")
np.save(prefix + ".input.npy", x)
start = time.perf_counter()
config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
config.set_cpu_math_library_num_threads(1)
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
best = cpu = float("inf")
for _ in range(int(sys.argv[3])):
    start, start_cpu = time.perf_counter(), time.process_time()
    for _ in range(5):
        run()
    best = min(best, (time.perf_counter() - start) / 5)
    cpu = min(cpu, (time.process_time() - start_cpu) / 5)
print(json.dumps({"load": load, "infer": best, "infer_cpu": cpu}))
