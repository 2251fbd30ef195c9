"""The float16 marks and casts of static AMP, which leave a CPU Program in float32."""
import contextlib

__all__ = ["fp16_guard", "cast_model_to_fp16", "cast_parameters_to_fp16"]


@contextlib.contextmanager
def fp16_guard():
    """The region Paddle casts to float16 under `decorate(use_fp16_guard=True)`; on the CPU
    its ops stay float32."""
    yield


def cast_model_to_fp16(program, amp_lists=None, use_fp16_guard=True, dest_type="float16",
                       level="O2", use_promote=False):
    """Names of the variables cast to float16: none on the CPU (the Program is unchanged)."""
    return []


def cast_parameters_to_fp16(place, program, scope=None, to_fp16_var_names=None,
                            dest_type="float16", rewrite_master_weight=False,
                            master_weights=None):
    """Parameters stay float32 on the CPU: nothing to cast."""
