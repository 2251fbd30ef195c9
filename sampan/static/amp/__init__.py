"""`paddle.static.amp`: mixed precision for static Programs, as far as a CPU backend goes.

sampan computes in float32 on the CPU (float16 would be slower and less accurate there), so
a Program keeps its dtypes: `fp16_guard` marks nothing, `cast_model_to_fp16` casts nothing,
and `decorate` wraps an optimizer whose `minimize` is the optimizer's own. Loss scaling
exists to keep float16 gradients from underflowing; float32 gradients need none, so the
scale is kept (`get_loss_scaling`) but never applied. Scripts written for Paddle's static
AMP run unchanged and train as their float32 form does.
"""
from . import bf16
from .casts import cast_model_to_fp16, cast_parameters_to_fp16, fp16_guard
from .decorator import OptimizerWithMixedPrecision, decorate
from .lists import AutoMixedPrecisionLists, CustomOpLists

__all__ = ["fp16_guard", "decorate", "OptimizerWithMixedPrecision", "AutoMixedPrecisionLists",
           "CustomOpLists", "cast_model_to_fp16", "cast_parameters_to_fp16", "bf16"]
