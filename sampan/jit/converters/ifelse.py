"""`if`/`elif`/`else` -> `_jst.IfElse(test, true_fn, false_fn, getters, names)`."""
from ..pyct import activity, anno, liveness, templates
from ..pyct.transformer import Base
from .common import (JST, KEEP_PYTHON, assign_result, changed_roots, getters, has_jump,
                     name_tuple, python_only, routed_names, runtime_call)
from .mutations import mutations

__all__ = ["IfElseConverter"]

_TEMPLATE = """
def true_fn(params):
    body
    return results
def false_fn(params):
    orelse
    return results
"""


class IfElseConverter(Base):
    """Turns each if statement without jumps into branch functions; only variables live
    after the if are routed (and merged when the test is a Tensor)."""

    NEEDS_ANALYSIS = True  # reads scope and liveness annotations

    def visit_If(self, node):
        node = self.generic_visit(node)
        if anno.hasanno(node, KEEP_PYTHON) or has_jump(node.body) or has_jump(node.orelse):
            return node
        body_scope = anno.getanno(node, activity.BODY_SCOPE)
        bound = body_scope.bound | anno.getanno(node, activity.ORELSE_SCOPE).bound
        # Live after the if (merged), or read in a branch before it is written (passed in).
        live = {str(n) for key in (liveness.LIVE_OUT, liveness.BODY_LIVE_IN,
                                   liveness.ORELSE_LIVE_IN) for n in anno.getanno(node, key)}
        changed = mutations(node.body + node.orelse, calls=True)
        names = routed_names(body_scope, {n for n in bound if str(n) in live}
                             | changed_roots(changed, body_scope, bound, live))
        if names is None:
            return python_only(node, "rebinding a global/nonlocal name inside an if whose "
                                     "condition is a Tensor")
        namer = self.ctx.namer
        true_fn, false_fn = namer.new_symbol("if_true"), namer.new_symbol("if_false")
        defs = templates.replace(_TEMPLATE, true_fn=true_fn, false_fn=false_fn, params=names,
                                 body=node.body, orelse=node.orelse, results=tuple(names))
        call = runtime_call("IfElse", changed, node.test, templates.replace_as_expression(
            true_fn), templates.replace_as_expression(false_fn), getters(names),
            name_tuple(names))
        return defs + assign_result(names, call)
