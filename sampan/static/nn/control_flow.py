"""`paddle.static.nn.control_flow`: the module Paddle scripts import control flow from
(`from paddle.static.nn.control_flow import cond`)."""
from ..assert_op import Assert
from ..control_flow import case, cond, static_pylayer, switch_case, while_loop
from ..print_op import Print

__all__ = ["Assert", "Print", "case", "cond", "static_pylayer", "switch_case", "while_loop"]
