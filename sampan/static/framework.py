"""Program IR: Program, Block, Operator, Variable, Parameter.

Plain data with `__slots__`; every edit goes through a Block method (create_var,
append_op, insert_op, remove_op, ...) which bumps the Program's version so compiled
plans know when to rebuild.
"""
import contextlib
import math
import threading

from ..core import dtype as dtypes
from ..core.place import CPUPlace
from ..ops._generated.methods import TensorOperators
from ..ops.axis_views import AxisViewsMixin
from ..ops.indexing_methods import IndexingMixin

__all__ = ["Program", "Block", "Operator", "Variable", "Parameter", "reading_values"]


class _ValueReader(threading.local):
    """Per thread: who answers when Python needs a Variable's value (None: nobody, the
    read is an error). to_static's graph-break mode installs one (`reading_values`)."""

    read = None


_READER = _ValueReader()


@contextlib.contextmanager
def reading_values(read):
    """Inside: `bool/float/int(var)`, `var.numpy()/.item()/.tolist()` return
    `read(var, kind, args)` (kind: "bool", "float", "int", "complex", "index", "numpy",
    "item", "tolist")
    instead of raising TypeError."""
    previous = _READER.read
    _READER.read = read
    try:
        yield
    finally:
        _READER.read = previous


def _concrete(var, kind, refusal, args=()):
    """The value Python asks of `var` from the active reader, else TypeError(refusal)."""
    read = _READER.read
    if read is None:
        raise TypeError(refusal)
    return read(var, kind, args)


class Variable(IndexingMixin, AxisViewsMixin, TensorOperators):
    """A named value in a Block: shape (-1 for unknown dims), dtype, flags."""

    __slots__ = ("block", "name", "_shape", "_dtype", "persistable", "stop_gradient", "kind",
                 "is_data", "__weakref__")
    symbolic_size = True  # as a size attribute (e.g. in a reshape shape list) it means -1

    def __init__(self, block, name, shape=(), dtype=None, persistable=False,
                 stop_gradient=True, kind="dense", is_data=False):
        self.block = block
        self.name = name
        self._shape = tuple(int(d) for d in shape)
        self._dtype = dtypes.to_dtype(dtype) if dtype is not None else dtypes.default_float()
        self.persistable = persistable
        self.stop_gradient = stop_gradient
        self.kind = kind
        self.is_data = is_data

    @property
    def shape(self):
        """Dimensions as a list (-1 where unknown until run time)."""
        return list(self._shape)

    @property
    def dtype(self):
        """Element type."""
        return self._dtype

    @property
    def ndim(self):
        """Number of dimensions."""
        return len(self._shape)

    def dim(self):
        """Number of dimensions."""
        return len(self._shape)

    ndimension = dim

    @property
    def size(self):
        """Number of elements: an int when every dimension is known while building, else
        an int64 0-D Variable (a numel op) holding it when the Program runs."""
        if -1 in self._shape:
            from ..ops._generated.api import numel
            return numel(self)
        return math.prod(self._shape)

    @property
    def type(self):
        """Paddle's variable type name."""
        return {"dense": "LOD_TENSOR", "array": "LOD_TENSOR_ARRAY",
                "scopes": "STEP_SCOPES"}[self.kind]

    def __repr__(self):
        return f"Variable({self.name}, shape={self.shape}, dtype={self._dtype.name})"

    __hash__ = object.__hash__

    def __bool__(self):
        return _concrete(self, "bool", (
            f"the truth value of static Variable {self.name!r} is unknown while the Program "
            f"is built; use static.nn.cond / while_loop, or sampan.jit.to_static which "
            f"converts Python if/while on tensors"))

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a 0-d Variable")
        if self._shape[0] < 0:
            raise TypeError(f"len() of Variable {self.name!r} whose first dimension is "
                            f"unknown (-1) while the Program is built")
        return self._shape[0]

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __float__(self):
        return _concrete(self, "float", f"float() of static Variable {self.name!r}: its "
                                        f"value exists only when the Program runs")

    def __int__(self):
        return _concrete(self, "int", f"int() of static Variable {self.name!r}: its value "
                                      f"exists only when the Program runs")

    def __complex__(self):
        return _concrete(self, "complex", f"complex() of static Variable {self.name!r}: its "
                                          f"value exists only when the Program runs")

    def __index__(self):
        return _concrete(self, "index", f"static Variable {self.name!r} used as a Python "
                                        f"index: its value exists only when the Program runs")

    def _no_value(self):
        return (f"static Variable {self.name!r} has no value while the Program is built "
                f"(under to_static or static mode); read values outside the converted "
                f"function, or return the tensor and call .numpy() on it")

    def numpy(self):
        return _concrete(self, "numpy", self._no_value())

    def item(self, *args):
        return _concrete(self, "item", self._no_value(), args)

    def tolist(self):
        return _concrete(self, "tolist", self._no_value())

    def clear_gradient(self, set_to_zero=True):
        """Refused with an AssertionError (Paddle's type): a Variable has no gradient to
        clear while its Program is built."""
        raise AssertionError(
            f"clear_gradient() works on eager Tensors only: static Variable {self.name!r} "
            f"belongs to a Program being built (under to_static or static mode) and has no "
            f"gradient to clear; clear gradients outside the converted function")

    def astype(self, dtype):
        """This variable cast to `dtype`."""
        from ..ops._generated.api import cast
        return cast(self, dtype)

    def detach(self):
        """A copy of this variable that no gradient flows through (`x.detach()` in code
        converted by to_static)."""
        from ..ops._generated.api import assign
        out = assign(self)
        out.stop_gradient = True
        return out

    def cpu(self):
        """This variable (static programs run on the CPU)."""
        return self

    def get_value(self, scope=None):
        """This persistable variable's value in `scope` (default: the global scope)."""
        from .values import variable_value
        return variable_value(self, scope)

    def set_value(self, value, scope=None):
        """Set this persistable variable's value in `scope` (default: the global scope)."""
        from .values import set_variable_value
        set_variable_value(self, value, scope)

    @property
    def place(self):
        """Where the value will live when the Program runs: the CPU."""
        return CPUPlace()

    def _take_over(self, out):
        """In-place update (`x[i] = v`): later reads of this object see `out`'s value.

        Persistable variables are overwritten by an assign op (their name is their
        identity across runs); other variables are renamed: the old value keeps the old
        name under a new Variable object and this object becomes `out`.
        """
        block = self.block
        if self.persistable:
            block.append_op("assign", {"x": [out.name]}, {"out": [self.name]}, {})
            return
        old = Variable(block, self.name, self._shape, self._dtype, False, self.stop_gradient,
                       self.kind, self.is_data)
        block.adopt_var(old)
        self.name, self._shape, self._dtype = out.name, out._shape, out._dtype
        self.stop_gradient = out.stop_gradient
        self.is_data = False
        out.block.adopt_var(self)

    def _set_meta(self, shape, dtype):
        """Update shape and dtype (used when an op output's meta is inferred)."""
        self._shape = tuple(int(d) for d in shape)
        self._dtype = dtype


class Parameter(Variable):
    """A persistable, trainable Variable of the global block."""

    __slots__ = ("trainable", "optimize_attr", "regularizer", "need_clip", "__dict__")

    def __init__(self, block, name, shape, dtype, trainable=True, **kwargs):
        super().__init__(block, name, shape, dtype, persistable=True,
                         stop_gradient=not trainable)
        self.trainable = trainable
        self.optimize_attr = kwargs.get("optimize_attr", {"learning_rate": 1.0})
        self.regularizer = kwargs.get("regularizer")
        self.need_clip = kwargs.get("need_clip", True)


class Operator:
    """One op in a Block: type, inputs/outputs (slot -> variable names), attributes."""

    __slots__ = ("block", "type", "inputs", "outputs", "attrs", "origin")

    def __init__(self, block, type, inputs, outputs, attrs, origin=None):
        self.block = block
        self.type = type
        self.inputs = {k: list(v) for k, v in inputs.items()}
        self.outputs = {k: list(v) for k, v in outputs.items()}
        self.attrs = dict(attrs)
        self.origin = origin

    def name(self):
        """The op's name as Paddle 3 (PIR) spells it: `pd_op.<type>`."""
        return f"pd_op.{self.type}"

    def input(self, slot):
        """Variable names bound to input `slot`."""
        return self.inputs.get(slot, [])

    def output(self, slot):
        """Variable names bound to output `slot`."""
        return self.outputs.get(slot, [])

    def attr(self, name):
        """Attribute value."""
        return self.attrs[name]

    def has_attr(self, name):
        return name in self.attrs

    @property
    def input_arg_names(self):
        """Every input variable name, in slot order."""
        return [n for names in self.inputs.values() for n in names if n is not None]

    @property
    def output_arg_names(self):
        """Every output variable name, in slot order."""
        return [n for names in self.outputs.values() for n in names if n is not None]

    def __repr__(self):
        from .printer import op_to_string
        return op_to_string(self)


class Block:
    """An ordered list of Operators over a table of Variables; may have a parent block."""

    __slots__ = ("program", "idx", "parent_idx", "vars", "ops", "forward_block_idx")

    def __init__(self, program, idx, parent_idx=-1):
        self.program = program
        self.idx = idx
        self.parent_idx = parent_idx
        self.vars = {}
        self.ops = []
        self.forward_block_idx = -1

    @property
    def parent(self):
        """The enclosing block, or None for the global block."""
        return None if self.parent_idx < 0 else self.program.blocks[self.parent_idx]

    def _touch(self):
        self.program._version += 1

    def create_var(self, name=None, shape=(), dtype=None, persistable=False,
                   stop_gradient=True, kind="dense", is_data=False):
        """Add a Variable (a fresh name when `name` is None) and return it."""
        if name is None:
            from ..core.unique_name import generate
            name = generate("_generated_var")
        var = Variable(self, name, shape, dtype, persistable, stop_gradient, kind, is_data)
        self.vars[name] = var
        self._touch()
        return var

    def create_parameter(self, name, shape, dtype, trainable=True, **kwargs):
        """Add a Parameter to this block and return it."""
        param = Parameter(self, name, shape, dtype, trainable, **kwargs)
        self.vars[name] = param
        self._touch()
        return param

    def adopt_var(self, var):
        """Register an existing Variable object under its name (used when renaming)."""
        var.block = self
        self.vars[var.name] = var
        self._touch()

    def remove_var(self, name):
        """Drop a Variable from the table."""
        del self.vars[name]
        self._touch()

    def has_var(self, name):
        return name in self.vars

    def var(self, name):
        """The Variable `name` of this block or an ancestor; KeyError naming it otherwise."""
        block = self
        while block is not None:
            found = block.vars.get(name)
            if found is not None:
                return found
            block = block.parent
        raise KeyError(f"variable {name!r} is not defined in block {self.idx} or its parents")

    _var_recursive = var

    def has_var_recursive(self, name):
        """True when this block or an ancestor defines `name`."""
        try:
            self.var(name)
            return True
        except KeyError:
            return False

    def append_op(self, type, inputs=None, outputs=None, attrs=None, origin=None):
        """Add an Operator at the end of the block."""
        op = Operator(self, type, inputs or {}, outputs or {}, attrs or {}, origin)
        self.ops.append(op)
        self._touch()
        return op

    def insert_op(self, index, type, inputs=None, outputs=None, attrs=None, origin=None):
        """Add an Operator at position `index`."""
        op = Operator(self, type, inputs or {}, outputs or {}, attrs or {}, origin)
        self.ops.insert(index, op)
        self._touch()
        return op

    def remove_op(self, index):
        """Remove the Operator at position `index`."""
        del self.ops[index]
        self._touch()

    def remove_ops(self, start, stop):
        """Remove the Operators at positions start .. stop - 1."""
        del self.ops[start:stop]
        self._touch()

    def all_parameters(self):
        """Parameters defined in this block."""
        return [v for v in self.vars.values() if isinstance(v, Parameter)]

    def __repr__(self):
        from .printer import block_to_string
        return block_to_string(self)


class Program:
    """A static graph: blocks of Operators; block 0 is the global block."""

    __slots__ = ("blocks", "_current", "_version", "random_seed", "_is_test", "_lr_scheduler",
                 "_plans", "__weakref__")

    def __init__(self):
        self.blocks = [Block(self, 0)]
        self._current = 0
        self._version = 0
        self.random_seed = 0
        self._is_test = False
        self._lr_scheduler = None
        # the executor's compiled plans of this program, by key: they live and die with it
        # (a global cache keyed weakly by program would keep it alive through the plans)
        self._plans = {}

    def global_block(self):
        """Block 0."""
        return self.blocks[0]

    def block(self, idx):
        """Block `idx`."""
        return self.blocks[idx]

    def current_block(self):
        """The block new ops go to."""
        return self.blocks[self._current]

    @property
    def num_blocks(self):
        return len(self.blocks)

    @property
    def version(self):
        """Incremented on every edit (plan caches key on it)."""
        return self._version

    def _create_block(self, parent_idx=None):
        """Open a new sub-block of the current block and make it current."""
        parent = self._current if parent_idx is None else parent_idx
        block = Block(self, len(self.blocks), parent)
        self.blocks.append(block)
        self._current = block.idx
        self._version += 1
        return block

    def _discard_blocks(self, first):
        """Remove the newest blocks, from index `first` on: sub-blocks traced and then
        abandoned (a loop body traced again with more differentiable loop variables)."""
        if self._current >= first:
            raise ValueError(f"cannot discard block {self._current}: it is being built")
        del self.blocks[first:]
        self._version += 1

    def _rollback(self):
        """Return to the parent of the current block."""
        self._current = self.current_block().parent_idx

    def list_vars(self):
        """Every Variable of every block."""
        for block in self.blocks:
            yield from block.vars.values()

    def all_parameters(self):
        """Parameters of the global block."""
        return self.global_block().all_parameters()

    def state_dict(self, mode="all", scope=None):
        """{name: value in the scope} of the parameters ('param'), the other persistable
        variables such as optimizer state ('opt'), or both ('all')."""
        from .values import program_state_dict
        return program_state_dict(self, mode, scope)

    def set_state_dict(self, state_dict, scope=None):
        """Set the named values into the scope (unknown or mismatched names are skipped
        with a warning)."""
        from .values import set_program_state_dict
        set_program_state_dict(self, state_dict, scope)

    def clone(self, for_test=False):
        """A deep copy; `for_test=True` switches ops to inference behaviour (is_test) and,
        as Paddle's, drops the backward and optimizer ops of a program cloned after
        `minimize` (running the test program would otherwise train)."""
        from .serialize import copy_program
        copy = copy_program(self)
        copy.random_seed = self.random_seed
        if for_test:
            copy._is_test = True
            _drop_training_ops(copy.global_block())
            for block in copy.blocks:
                for op in block.ops:
                    if "is_test" in op.attrs:
                        op.attrs["is_test"] = True
        return copy

    def to_dot(self):
        """Graphviz DOT text of the program, control-flow sub-blocks nested as clusters
        (`paddle.static.draw(program, path)` writes it, or renders it as SVG/PNG)."""
        from .graph_drawing import program_to_dot
        return program_to_dot(self)

    def to_mermaid(self):
        """Mermaid flowchart text of the program, sub-blocks nested as subgraphs."""
        from .graph_drawing import program_to_mermaid
        return program_to_mermaid(self)

    def verify(self):
        """Check the Program is well formed; raises ProgramVerifyError listing problems."""
        from .verify import verify_program
        verify_program(self)

    def to_string(self, throw_on_error=False, with_details=False):
        from .printer import program_to_string
        return program_to_string(self)

    def __str__(self):
        from .printer import program_to_string
        return program_to_string(self)

    __repr__ = __str__


def _drop_training_ops(block):
    """Remove the ops that compute gradients (write a `@GRAD` variable) and every op that
    reads a temporary such an op wrote (optimizer updates and their bookkeeping). The
    persistable variables they update stay readable by forward ops built later."""
    tainted, kept = set(), []
    for op in block.ops:
        outputs = op.output_arg_names
        if (any("@GRAD" in name for name in outputs)
                or not tainted.isdisjoint(op.input_arg_names)):
            tainted.update(n for n in outputs if not _is_persistable(block, n))
        else:
            kept.append(op)
    if len(kept) != len(block.ops):
        block.ops[:] = kept
        block._touch()


def _is_persistable(block, name):
    return block.has_var(name) and block.var(name).persistable
