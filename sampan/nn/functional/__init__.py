"""paddle.nn.functional: stateless network functions built from registry ops."""
from .activation import *  # noqa: F401,F403
from .adaptive_softmax import adaptive_log_softmax_with_loss  # noqa: F401
from .common import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .distance import pairwise_distance, pdist  # noqa: F401
from .extension import diag_embed, gather_tree, sequence_mask  # noqa: F401
from .flash_attention import scaled_dot_product_attention  # noqa: F401
from .loss import *  # noqa: F401,F403
from .norm import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .vision import affine_grid, channel_shuffle, grid_sample, interpolate, upsample  # noqa: F401
from .extra import *  # noqa: F401,F403,E402
