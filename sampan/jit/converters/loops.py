"""`while` -> `_jst.While(cond_fn, body_fn, getters, names)`."""
from ..pyct import activity, anno, liveness, templates
from ..pyct.transformer import Base
from .common import (KEEP_PYTHON, assign_result, changed_roots, getters, has_jump,
                     name_tuple, python_only, routed_names, runtime_call)
from .for_loops import SEQUENCE
from .mutations import mutations

__all__ = ["WhileConverter"]

_TEMPLATE = """
def cond_fn(params):
    return test
def body_fn(params):
    body
    return results
"""


def _carried(node, body_scope, changed):
    """Names bound in the body and live at the loop head (read by the test, read before
    written in the body, or read after the loop), and local names whose object the body
    changes in place (a list appended to becomes a tensor array in a Tensor loop)."""
    live = {str(n) for n in anno.getanno(node, liveness.LIVE_IN)}
    live -= {t.id for s in node.body if anno.hasanno(s, SEQUENCE) for t in s.targets}
    bound = {n for n in body_scope.bound if str(n) in live}
    return bound | changed_roots(changed, body_scope, body_scope.bound, live)


class WhileConverter(Base):
    """Turns each while loop without else/break/continue/return into loop functions; only
    loop-carried names pass through them."""

    NEEDS_ANALYSIS = True  # reads scope and liveness annotations

    def visit_While(self, node):
        node = self.generic_visit(node)
        if anno.hasanno(node, KEEP_PYTHON) or node.orelse or has_jump(node.body):
            return node
        body_scope = anno.getanno(node, activity.BODY_SCOPE)
        changed = mutations(node.body, calls=True)
        names = routed_names(body_scope, _carried(node, body_scope, changed))
        if names is None:
            return python_only(node, "a global/nonlocal write inside a loop whose condition "
                                     "is a Tensor")
        namer = self.ctx.namer
        cond_fn, body_fn = namer.new_symbol("while_cond"), namer.new_symbol("while_body")
        defs = templates.replace(_TEMPLATE, cond_fn=cond_fn, body_fn=body_fn, params=names,
                                 test=node.test, body=node.body, results=tuple(names))
        call = runtime_call("While", changed, templates.replace_as_expression(cond_fn),
                            templates.replace_as_expression(body_fn), getters(names),
                            name_tuple(names))
        return defs + assign_result(names, call)
