"""Legacy ProgramDesc blocks rewritten as a `PaddleGraph`: named, mutable variables in
nested scopes become single-assignment values, and sub-blocks become regions.

A legacy op reads variables by name and writes them by name, also from a sub-block into
the blocks around it (a `while` body writes its loop variables and its condition in
place). A read resolves to the nearest enclosing value of the name; every write makes a
new value id (the name itself the first time, `name@2`, `name@3`, ... afterwards).
`conditional_block` becomes a `pd_op.if` whose outputs are the outer variables its block
writes (the false region keeps their previous values, None where there was none), and
`while` a `pd_op.while` carrying every outer variable its body writes, its condition
first. `legacy_branches.merge_branches` then joins the two `if`s of one Paddle `cond`.
"""
from .graph import PaddleBlock, PaddleOp
from .op_table import LEGACY_OPS

__all__ = ["RawOp", "RawBlock", "convert_program"]

MAX_DEPTH = 64


class RawOp:
    """A decoded OpDesc: its type, {slot: [names]} of inputs and outputs, attributes."""

    __slots__ = ("type", "ins", "outs", "attrs")

    def __init__(self, type, ins, outs, attrs):
        self.type, self.ins, self.outs, self.attrs = type, ins, outs, attrs

    def sub_block(self):
        """The index of the block this op runs (None for an op without one)."""
        return self.attrs.get("sub_block")


class RawBlock:
    """A decoded BlockDesc: its variables {name: (kind, TensorType, persistable)} and ops."""

    __slots__ = ("vars", "ops")

    def __init__(self, variables, ops):
        self.vars, self.ops = variables, ops


class _Scope:
    """The variables of one running block: those it declares, the value each name holds
    now, and the outer variables it wrote (in order)."""

    __slots__ = ("declared", "values", "parent", "outer_writes")

    def __init__(self, declared, parent=None):
        self.declared, self.parent = declared, parent
        self.values, self.outer_writes = {}, {}

    def lookup(self, name):
        scope = self
        while scope is not None:
            if name in scope.values:
                return scope.values[name]
            scope = scope.parent
        return None

    def type_of(self, name):
        scope = self
        while scope is not None:
            if name in scope.declared:
                return scope.declared[name][1]
            scope = scope.parent
        return None

    def is_outer(self, name):
        """True when an enclosing block, not this one, declares `name`."""
        return name not in self.declared and self.parent is not None and \
            self.parent.type_of(name) is not None


def _first(names):
    return names[0] if names else None


class Converter:
    """Turns the ops of nested legacy blocks into PaddleOps over value ids."""

    def __init__(self, blocks, array_kind):
        self.blocks, self.array_kind = blocks, array_kind
        self.count = 0
        self.versions = {}

    # -- names and values ------------------------------------------------------------------
    def fresh(self, name):
        version = self.versions.get(name, 0) + 1
        self.versions[name] = version
        return name if version == 1 else f"{name}@{version}"

    def read(self, scope, name, kind):
        if name is None:
            return None
        vid = scope.lookup(name)
        if vid is None:
            raise ValueError(f"{kind}: reads variable {name!r}, which no op before it writes")
        return vid

    def write(self, scope, name):
        """A new value id for `name` in `scope` (recorded as an outer write if it is)."""
        vid = self.fresh(name)
        scope.values[name] = vid
        if scope.is_outer(name):
            scope.outer_writes[name] = None
        return vid

    def output(self, scope, name):
        return (self.write(scope, name), scope.type_of(name)) if name else (None, None)

    def constant(self, value):
        self.count += 1
        vid = f"@const{self.count}"
        return vid, PaddleOp("legacy.constant", [], [(vid, None)], {"value": value})

    # -- blocks ----------------------------------------------------------------------------
    def block_ops(self, idx, scope, depth):
        """[PaddleOp] of block `idx` run in `scope`."""
        if depth > MAX_DEPTH:
            raise ValueError(f"blocks nest deeper than {MAX_DEPTH}")
        ops = [self.empty_array(scope, name, vtype)
               for name, (kind, vtype, _) in self.blocks[idx].vars.items()
               if kind == self.array_kind]
        for raw in self.blocks[idx].ops:
            ops.extend(self.op(raw, scope, depth))
        return ops

    def empty_array(self, scope, name, vtype):
        """A tensor array variable starts empty (its first write may be in a loop body)."""
        if vtype is None or vtype.dtype is None:
            raise ValueError(f"tensor array {name!r} declares no item type")
        return PaddleOp("pd_op.create_array", [], [self.output(scope, name)],
                        {"dtype": vtype.dtype})

    def op(self, raw, scope, depth):
        """[PaddleOp] for one legacy op (constants first)."""
        kind = raw.type
        if kind == "feed":
            name = _first(raw.outs.get("Out"))
            vtype = scope.type_of(name)
            if vtype is None:
                raise ValueError(f"feed: variable {name!r} is not a declared dense tensor")
            return [PaddleOp("pd_op.data", [], [self.output(scope, name)],
                             {"name": name, "shape": vtype.shape, "dtype": vtype.dtype,
                              "col": raw.attrs.get("col", 0)})]
        if kind == "fetch":
            value = self.read(scope, _first(raw.ins.get("X")), kind)
            return [PaddleOp("pd_op.fetch", [value], [], {"col": raw.attrs.get("col", 0)})]
        special = _BY_NAME.get(kind)
        if special is not None:
            return special(self, raw, scope, depth)
        entry = LEGACY_OPS.get(kind)
        if entry is None:   # reported by UnsupportedPaddleOp; its outputs stay readable
            outs = [self.output(scope, n) for names in raw.outs.values() for n in names]
            return [PaddleOp(f"legacy.{kind}", [], outs, {})]
        return self.table_op(kind, entry, raw, scope)

    def table_op(self, kind, entry, raw, scope):
        ins, attrs = raw.ins, dict(raw.attrs)
        if entry.adjust:
            attrs = entry.adjust(attrs)
        _check_slots(kind, entry, ins, attrs, scope)
        made = []
        if entry.list_input:
            self.count += 1
            vid = f"@list{self.count}"
            made.append(PaddleOp("builtin.combine", [self.read(scope, n, kind)
                                                     for n in ins.get(entry.ins[0], [])],
                                 [(vid, None)], {}))
            inputs = [vid] + [self.read(scope, _first(ins.get(s)), kind) if s else None
                              for s in entry.ins[1:]]
        else:
            inputs = [self.read(scope, _first(ins.get(s)), kind) if s else None
                      for s in entry.ins]
        for attr_name in entry.attr_inputs:
            vid, const = self.constant(attrs.pop(attr_name, None))
            made.append(const)
            inputs.append(vid)
        renamed = {entry.renames.get(k, k): v for k, v in attrs.items()}
        outputs = [self.output(scope, _first(raw.outs.get(slot))) for slot in entry.outs]
        made.append(PaddleOp(entry.pir, inputs, outputs, renamed))
        return made

    # -- control flow ----------------------------------------------------------------------
    def sub_scope(self, raw, scope):
        return _Scope(self.blocks[raw.sub_block()].vars, scope)

    def conditional_block(self, raw, scope, depth):
        if not raw.attrs.get("is_scalar_condition", False):
            raise ValueError("conditional_block: only a scalar condition "
                             "(is_scalar_condition) is supported")
        cond = self.read(scope, _first(raw.ins.get("Cond")), "conditional_block")
        inner = self.sub_scope(raw, scope)
        ops = self.block_ops(raw.sub_block(), inner, depth + 1)
        written = list(inner.outer_writes)
        taken = PaddleBlock([], ops + [_yield([inner.values[n] for n in written])])
        kept = PaddleBlock([], [_yield([scope.lookup(n) for n in written])])
        outputs = [self.output(scope, n) for n in written]
        return [PaddleOp("pd_op.if", [cond], outputs, {}, [taken, kept])]

    def while_(self, raw, scope, depth):
        cond_name = _first(raw.ins.get("Condition"))
        cond = self.read(scope, cond_name, "while")
        idx = raw.sub_block()
        inner = self.sub_scope(raw, scope)
        written = self.written_names(idx, depth + 1)
        if cond_name not in written or not inner.is_outer(cond_name):
            raise ValueError(f"while: the loop body never writes its condition {cond_name!r}")
        carried = [cond_name] + [n for n in written if n != cond_name and inner.is_outer(n)
                                 and scope.lookup(n) is not None]
        args = []
        for name in carried:
            vid = self.fresh(name)
            inner.values[name] = vid
            args.append((vid, scope.type_of(name)))
        ops = self.block_ops(idx, inner, depth + 1)
        ops.append(_yield([inner.values[cond_name]] + [inner.values[n] for n in carried]))
        inputs = [cond] + [scope.lookup(n) for n in carried]
        outputs = [self.output(scope, n) for n in carried]
        return [PaddleOp("pd_op.while", inputs, outputs, {}, [PaddleBlock(args, ops)])]

    def written_names(self, idx, depth):
        """Names the ops of block `idx` and its sub-blocks write, in order of first write."""
        if depth > MAX_DEPTH:
            raise ValueError(f"blocks nest deeper than {MAX_DEPTH}")
        names = {}
        for raw in self.blocks[idx].ops:
            if raw.sub_block() is not None:
                names.update(dict.fromkeys(self.written_names(raw.sub_block(), depth + 1)))
            for slot, slot_names in raw.outs.items():
                if slot not in ("Scope", "StepScopes"):
                    names.update(dict.fromkeys(slot_names))
        return list(names)

    def write_to_array(self, raw, scope, depth):
        """write_to_array changes its Out array in place: a new array value."""
        name = _first(raw.outs.get("Out"))
        inputs = [self.read(scope, n, raw.type) for n in (
            name, _first(raw.ins.get("X")), _first(raw.ins.get("I")))]
        return [PaddleOp("pd_op.array_write_", inputs, [self.output(scope, name)], {})]

    def select_input(self, raw, scope, depth):
        mask = self.read(scope, _first(raw.ins.get("Mask")), "select_input")
        inputs = [self.read(scope, n, "select_input") for n in raw.ins.get("X", [])]
        return [PaddleOp("pd_op.select_input", [mask] + inputs,
                         [self.output(scope, _first(raw.outs.get("Out")))], {})]


def _yield(vids):
    return PaddleOp("cf.yield", vids, [], {})


# ops whose conversion depends on the names they read and write: sub-blocks, in-place writes
_BY_NAME = {"conditional_block": Converter.conditional_block, "while": Converter.while_,
            "select_input": Converter.select_input, "write_to_array": Converter.write_to_array}


def _check_slots(kind, entry, ins, attrs, scope):
    """Refuse what the rule would otherwise ignore: arguments in slots it does not read,
    and elementwise broadcasts aligned on a non-trailing axis."""
    for slot, names in ins.items():
        if names and slot not in entry.ins:
            raise ValueError(f"{kind}: input slot {slot!r} is not supported")
    if kind.startswith("elementwise_") and attrs.get("axis", -1) != -1:
        x, y = (scope.type_of(_first(ins.get(s))) for s in ("X", "Y"))
        if x is None or y is None or attrs["axis"] != len(x.shape) - len(y.shape):
            raise ValueError(f"{kind}: broadcasting Y at axis {attrs['axis']} is not "
                             f"supported")


def check_block_tree(blocks):
    """Every sub-block index is a block other than the first, run by one op at most (so
    the blocks form a tree: no cycle, nothing converted twice)."""
    owner = {}
    for idx, block in enumerate(blocks):
        for raw in block.ops:
            sub = raw.sub_block()
            if raw.type in ("conditional_block", "while") and sub is None:
                raise ValueError(f"{raw.type}: no sub_block attribute")
            if sub is None:
                continue
            if type(sub) is not int or not 0 < sub < len(blocks):
                raise ValueError(f"{raw.type} in block {idx}: sub_block {sub!r} is not a "
                                 f"block of the program (it has {len(blocks)})")
            if sub in owner:
                raise ValueError(f"block {sub} is the sub_block of two ops (blocks "
                                 f"{owner[sub]} and {idx})")
            owner[sub] = idx


def convert_program(blocks, skipped_kinds, array_kind):
    """The ops of the first block (parameters first) with every sub-block as a region;
    variables of `array_kind` are tensor arrays."""
    check_block_tree(blocks)
    convert = Converter(blocks, array_kind)
    scope = _Scope(blocks[0].vars)
    ops = [PaddleOp("builtin.parameter", [], [convert.output(scope, name)],
                    {"name": name, "persistable": True})
           for name, (kind, _, persistable) in sorted(blocks[0].vars.items())
           if persistable and kind not in skipped_kinds]
    return ops + _in_column_order(convert.block_ops(0, scope, 0))


def _in_column_order(ops):
    """The feeds first and the fetches last, each in the order of their `col` (the model's
    inputs and outputs; save_inference_model writes the feed ops last input first)."""
    def col(op):
        return op.attrs["col"] if type(op.attrs["col"]) is int else -1
    feeds = sorted((op for op in ops if op.type == "pd_op.data"), key=col)
    fetches = sorted((op for op in ops if op.type == "pd_op.fetch"), key=col)
    rest = [op for op in ops if op.type not in ("pd_op.data", "pd_op.fetch")]
    return feeds + rest + fetches
