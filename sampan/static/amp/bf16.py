"""`paddle.static.amp.bf16`: the bfloat16 spellings of static AMP (float32 on the CPU)."""
from .casts import cast_model_to_fp16, cast_parameters_to_fp16, fp16_guard
from .decorator import decorate
from .lists import AutoMixedPrecisionLists

__all__ = ["AutoMixedPrecisionListsBF16", "bf16_guard", "decorate_bf16", "cast_model_to_bf16",
           "cast_parameters_to_bf16", "rewrite_program_bf16"]


def AutoMixedPrecisionListsBF16(custom_bf16_list=None, custom_fp32_list=None,  # noqa: N802
                                custom_fp32_varnames=None):
    """The op lists with bfloat16 as the low-precision dtype."""
    return AutoMixedPrecisionLists(custom_bf16_list, custom_fp32_list, custom_fp32_varnames,
                                   dtype="bfloat16")


bf16_guard = fp16_guard
cast_model_to_bf16 = cast_model_to_fp16
cast_parameters_to_bf16 = cast_parameters_to_fp16


def decorate_bf16(optimizer, amp_lists=None, use_pure_bf16=False, use_bf16_guard=None):
    """`decorate` for bfloat16 (no loss scaling in Paddle either)."""
    return decorate(optimizer, amp_lists, init_loss_scaling=1.0,
                    use_dynamic_loss_scaling=False, use_pure_fp16=use_pure_bf16,
                    use_fp16_guard=use_bf16_guard, use_bf16=True)


def rewrite_program_bf16(main_prog, amp_lists=None):
    """Nothing to rewrite: the Program stays float32."""
