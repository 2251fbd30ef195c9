"""Program.verify(): defined-before-use, known ops, consistent shapes, valid sub-blocks."""
from ..core.errors import InvalidArgument
from ..ops.meta import MetaTensor
from ..ops.registry import OPS
from .op_fields import check_sub_blocks
from .reinfer import op_input_metas

__all__ = ["ProgramVerifyError", "verify_program"]


class ProgramVerifyError(ValueError):
    """A Program is malformed; the message lists every problem with its op."""


def _compatible(declared, inferred):
    """True when an inferred shape fits a declared one (-1 matches anything)."""
    if len(declared) != len(inferred):
        return False
    return all(a == b or a < 0 or b < 0 for a, b in zip(declared, inferred))


def _check_meta(op, block, problems, where):
    """Re-run infer_meta on the declared input metas and compare with the outputs."""
    opdef = OPS[op.type]
    metas = op_input_metas(opdef, op,
                           lambda n: MetaTensor(block.var(n)._shape, block.var(n).dtype))
    try:
        out = opdef.infer_meta(*metas, *opdef.attrs_tuple(op.attrs))
    except InvalidArgument as err:
        problems.append(f"{where}: infer_meta rejects the inputs: {err}")
        return
    out = opdef.result_tuple(out)
    for name, kind, meta in zip(opdef.output_names, opdef.output_kinds, out):
        names = op.output(name)
        for n, m in zip(names, meta if kind == "Tensor[]" else [meta]):
            var = block.var(n)
            if var.dtype is not m.dtype or not _compatible(var._shape, m.shape):
                problems.append(f"{where}: output {n!r} is declared {var.shape} "
                                f"{var.dtype.name} but infers {list(m.shape)} {m.dtype.name}")


def _verify_block(block, defined, problems):
    for k, op in enumerate(block.ops):
        where = f"block {block.idx} op {k} ({op.type})"
        for n in op.input_arg_names:
            if not block.has_var_recursive(n):
                problems.append(f"{where}: input {n!r} is not a declared variable")
            elif n not in defined and not block.var(n).persistable and not block.var(n).is_data:
                problems.append(f"{where}: input {n!r} is read before any op writes it")
        for n in op.output_arg_names:
            if not block.has_var_recursive(n):
                problems.append(f"{where}: output {n!r} is not a declared variable")
            defined.add(n)
        if op.type in OPS and not problems:
            stashes = [n for n in op.input_arg_names if block.var(n).kind == "scopes"]
            if stashes:  # only control-flow ops read the values their sub-blocks stashed
                problems.append(f"{where}: input(s) {stashes} hold a control-flow op's stashed "
                                f"scopes, not tensors")
                continue
            _check_meta(op, block, problems, where)
        problems.extend(f"{where}: {p}" for p in check_sub_blocks(op))
        for value in op.attrs.values():
            subs = value if isinstance(value, list) else [value]
            for sub in subs:
                if hasattr(sub, "ops") and hasattr(sub, "parent_idx"):
                    _verify_block(sub, set(defined), problems)


def verify_program(program, extra_defined=()):
    """Raise ProgramVerifyError when any block is malformed."""
    problems = []
    _verify_block(program.global_block(), set(extra_defined), problems)
    if problems:
        raise ProgramVerifyError("Program failed verification:\n  " + "\n  ".join(problems))
