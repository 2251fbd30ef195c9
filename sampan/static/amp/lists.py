"""Op lists of static AMP: which ops would run in low precision (white), stay float32
(black), or follow their inputs (gray)."""

__all__ = ["AutoMixedPrecisionLists", "CustomOpLists"]

# ops Paddle computes in low precision by default (matrix products and convolutions)
_WHITE = {"conv2d", "conv3d", "matmul", "matmul_v2", "mul", "einsum"}
# ops kept in float32 because low precision loses too much accuracy
_BLACK = {"exp", "square", "log", "mean", "sum", "reduce_mean", "reduce_sum", "softmax",
          "log_softmax", "softmax_with_cross_entropy", "cross_entropy", "cross_entropy2",
          "sigmoid_cross_entropy_with_logits", "c_softmax_with_cross_entropy", "pow"}


class AutoMixedPrecisionLists:
    """The white, black and gray op lists, with the user's additions.

    Args:
        custom_white_list: op types to add to the white list (removed from the others).
        custom_black_list: op types to add to the black list (removed from the others).
        custom_black_varnames: variable names whose ops stay float32.
        dtype: "float16" or "bfloat16".
    Raises ValueError when an op is in both custom lists.
    """

    def __init__(self, custom_white_list=None, custom_black_list=None,
                 custom_black_varnames=None, dtype="float16"):
        if dtype not in ("float16", "bfloat16"):
            raise ValueError(f"AutoMixedPrecisionLists: dtype must be 'float16' or "
                             f"'bfloat16', got {dtype!r}")
        white, black = set(custom_white_list or ()), set(custom_black_list or ())
        both = sorted(white & black)
        if both:
            raise ValueError(f"AutoMixedPrecisionLists: {both} in both the custom white "
                             f"and black lists")
        self.amp_dtype = dtype
        self.white_list = (_WHITE - black) | white
        self.black_list = (_BLACK - white) | black
        self.gray_list = set()
        self.black_varnames = set(custom_black_varnames or ())
        self.unsupported_list = set()


CustomOpLists = AutoMixedPrecisionLists
