"""Compile passes over Node lists: DCE, constant folding, CSE, elementwise and
batch_norm + activation fusion."""
from .bn_act import FUSED_BN_ACT, fuse_bn_act
from .cse import eliminate_common_subexpressions
from .dce import eliminate_dead_code
from .fold import fold_constants
from .fusion import FUSED, fuse_elementwise
from .node import COMMUNICATION_OPS, ELEMENTWISE, RANDOM_OPS, Node

__all__ = ["eliminate_common_subexpressions", "eliminate_dead_code", "fold_constants",
           "fuse_elementwise", "FUSED", "fuse_bn_act", "FUSED_BN_ACT", "ELEMENTWISE",
           "RANDOM_OPS", "COMMUNICATION_OPS", "Node"]
