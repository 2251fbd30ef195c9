"""Sequences that converted for loops index: range, enumerate, zip, lists and Tensor rows."""
from ...ops._generated import api
from .common import is_variable

__all__ = ["Range", "Enumerate", "Zip", "Sequence", "Item"]


class _Rows:
    """The rows `x[i]` of a Variable whose first dimension is known while building (the
    loop unrolls)."""

    def __init__(self, var):
        self.var, self.n = var, var.shape[0]

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        return self.var[index]


class _RunTimeRows(_Rows):
    """The rows of a Variable whose first dimension is only known at run time: its length
    is a Variable (a shape op), so the loop over it is a Tensor loop."""

    def __init__(self, var):
        super().__init__(var)
        self.length = api.shape(var)[0]

    def static_len(self):
        """The number of rows (a 0-d int64 Variable)."""
        return self.length

    def __len__(self):
        raise TypeError(f"len() of the rows of {self.var.name!r} (shape {list(self.var.shape)}) "
                        f"is only known when the Program runs")


def _rows(var):
    """The rows of Variable `var`, iterated in Python or by a Tensor loop."""
    if not var.shape:
        raise TypeError(f"iteration over a 0-d Tensor {var.name!r}")
    return _Rows(var) if var.shape[0] >= 0 else _RunTimeRows(var)


def _length(seq):
    """len(seq), or its run-time length Variable."""
    return seq.static_len() if hasattr(seq, "static_len") else len(seq)


class _Enumerated:
    """`enumerate(seq, start)` as an indexable sequence."""

    def __init__(self, seq, start):
        self.seq, self.start = seq, start
        if hasattr(seq, "static_len"):
            self.static_len = seq.static_len

    def __len__(self):
        return len(self.seq)

    def __getitem__(self, index):
        return self.start + index, self.seq[index]


class _Zipped:
    """`zip(*seqs)` as an indexable sequence."""

    def __init__(self, seqs):
        self.seqs = seqs
        if any(hasattr(s, "static_len") for s in seqs):
            self.static_len = self._run_time_len

    def __len__(self):
        return min((len(s) for s in self.seqs), default=0)

    def _run_time_len(self):
        """The shortest length, as a Variable."""
        lengths = [_length(s) for s in self.seqs]
        out = lengths[0]
        for n in lengths[1:]:
            out = api.minimum(*(v if is_variable(v) else api.full([], v, "int64")
                                for v in (out, n)))
        return out

    def __getitem__(self, index):
        return tuple(s[index] for s in self.seqs)


def Sequence(iterable):
    """`iterable` as something with len() and [i]: Tensor rows, or the Python items."""
    if is_variable(iterable):
        return _rows(iterable)
    if hasattr(iterable, "static_len"):
        return iterable
    if isinstance(iterable, (list, tuple, range, str)):
        return iterable
    return list(iterable)


class _TensorRange:
    """`range(start, stop, step)` with Tensor bounds: its length is a 0-d int64 Variable
    (computed once, where the loop starts), so the loop over it is a Tensor loop."""

    def __init__(self, start, stop, step):
        bounds = [v for v in (start, stop, step) if is_variable(v)]
        self.dtype = "int32" if all(v.dtype.name == "int32" for v in bounds) else "int64"
        start, stop = (api.cast(v, "int64") if is_variable(v) else v for v in (start, stop))
        self.start, self.step = start, step
        if is_variable(step) or step > 0:
            count = (stop - start + step - 1) // step
        else:
            count = (start - stop - step - 1) // -step
        if not is_variable(count):
            count = api.full([], count, "int64")
        self.length = api.maximum(api.reshape(count, []), api.full([], 0, "int64"))

    def static_len(self):
        """The number of items (a Variable)."""
        return self.length

    def __getitem__(self, index):
        """The index-th value, of the bounds' integer dtype (int32 bounds give int32
        values, as in Paddle)."""
        value = self.start + index * self.step
        if is_variable(value) and value.dtype.name != self.dtype:
            value = api.cast(value, self.dtype)
        return value


def Range(*args):
    """`range(*args)` of a converted for loop; Tensor bounds make a Tensor loop."""
    if any(is_variable(a) for a in args):
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        return _TensorRange(start, stop, step)
    return range(*args)


def Enumerate(iterable, start=0):
    """`enumerate(iterable, start)` of a converted for loop."""
    return _Enumerated(Sequence(iterable), start)


def Zip(*iterables, strict=False):
    """`zip(*iterables)` of a converted for loop."""
    seqs = [Sequence(it) for it in iterables]
    if strict and len({len(s) for s in seqs}) > 1:
        raise ValueError("zip() arguments have different lengths (strict=True)")
    return _Zipped(seqs)


def Item(seq, index):
    """`seq[index]` of a converted for loop; a Tensor index (the loop became a Tensor loop)
    reads a range arithmetically and a list of Tensors through a stacked Tensor."""
    if not is_variable(index) or not isinstance(seq, (range, list, tuple)):
        return seq[index]
    if isinstance(seq, range):
        return seq.start + index * seq.step
    if isinstance(seq, (list, tuple)) and seq and all(is_variable(v) for v in seq):
        return api.stack(list(seq))[index]
    raise NotImplementedError(
        f"a for loop over {type(seq).__name__} became a loop on a Tensor condition (a break "
        f"or return under an if on a Tensor); only range(), Tensors and lists of Tensors "
        f"can be indexed by the Tensor loop counter")
