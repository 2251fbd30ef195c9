"""Python lists appended inside Tensor loops, as static tensor arrays (`ArrayList`)."""
from ...static.control_flow import (array_join, array_length, array_pop, array_read,
                                    array_write, create_array)
from .common import is_variable

__all__ = ["ArrayList", "ProbeList", "to_array", "reader", "array_taking"]


class ProbeList(list):
    """A copy of a list given to the scratch trace of a Tensor loop's body, which learns
    whether the body appends to it (`appended`: the last item appended, even when a later
    pop removes it); changes to it inside Tensor ifs are not tracked."""

    appended = None

    def append(self, item):
        self.appended = item
        super().append(item)


class ArrayList:
    """A list whose items live in a tensor array Variable (its length is known at run time)."""

    def __init__(self, var):
        self.var = var

    def append(self, item):
        """Write `item` at the end (array_write at array_length)."""
        array_write(item, array_length(self.var), self.var)

    def static_len(self):
        """The length, an int64 Variable of shape [1]."""
        return array_length(self.var)

    def pop(self, index=-1):
        """Remove the item at `index` (default: the last) and return it."""
        return array_pop(self.var, self._position(index))

    def __getitem__(self, index):
        if isinstance(index, slice):  # the items as one Tensor (stacked), then sliced
            return array_join(self.var, 0, True)[index]
        return array_read(self.var, self._position(index))

    def __setitem__(self, index, item):
        if isinstance(index, slice):
            raise TypeError("slice assignment to a list built in a loop on a Tensor is not "
                            "supported; assign its items one by one")
        if not is_variable(item):
            raise TypeError(f"a list built in a loop on a Tensor holds Tensors; assigning "
                            f"{type(item).__name__} {item!r} to an item needs a Tensor "
                            f"(paddle.full / paddle.to_tensor)")
        array_write(item, self._position(index), self.var)

    def _position(self, index):
        """`index` as an array position: a negative Python int counts from the run-time
        end."""
        if not is_variable(index) and index < 0:
            return array_length(self.var) + index
        return index

    def __len__(self):
        raise TypeError("len() of a list built in a loop on a Tensor is only known when the "
                        "Program runs; use it as a Tensor (paddle.stack / paddle.concat)")

    def __repr__(self):
        return f"ArrayList({self.var.name})"


def to_array(items, like):
    """A tensor array Variable holding the Variables `items`; an empty one takes its dtype
    and element shape from `like` (an item the loop appends)."""
    array = create_array(like.dtype, items)
    if not items:
        array._shape = like._shape
    return array


def reader(fn, stack):
    """`fn` (paddle.stack / paddle.concat) also taking a tensor array (an ArrayList or an
    array Variable) as its first argument."""
    def call(x, axis=0, name=None):
        if isinstance(x, ArrayList):
            return array_join(x.var, axis, stack)
        if is_variable(x) and x.kind == "array":  # paddle.tensor.create_array's
            return array_join(x, axis, stack)
        return fn(x, axis, name)
    return call


def array_taking(fn):
    """`fn` (paddle.tensor.array_write / array_read / array_length) given an ArrayList
    (an array a Tensor loop carries) as its array Variable."""
    def call(*args, **kwargs):
        args = [a.var if isinstance(a, ArrayList) else a for a in args]
        kwargs = {k: v.var if isinstance(v, ArrayList) else v for k, v in kwargs.items()}
        return fn(*args, **kwargs)
    return call
