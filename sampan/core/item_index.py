"""`Tensor.item(*index)`'s argument check, shared by eager tensors and converted code:
no index (one-element tensors), one flat offset, or one int per dim, with Paddle's errors.
Dims unknown while a Program is built (-1) are not checked."""

__all__ = ["check_item_index", "ItemIndexError"]


class ItemIndexError(IndexError, ValueError):
    """An item() index out of bounds: Paddle raises ValueError, NumPy IndexError."""


def check_item_index(shape, index):
    """Raise ValueError / TypeError as Paddle's item() does when `index` does not fit a
    tensor of `shape`."""
    size = 1
    for dim in shape:
        size = -1 if dim < 0 or size < 0 else size * dim
    if not index:
        if size not in (-1, 1):
            raise ValueError(f"only one element tensors can be converted to Python scalars "
                             f"when no input coordinates (shape {list(shape)})")
        return
    for axis, i in enumerate(index):
        if isinstance(i, bool) or not isinstance(i, int):
            raise TypeError(f"item(): argument (position {axis}) must be long, but "
                            f"got {type(i).__name__} (an int is needed)")
    if len(index) == 1:
        if size >= 0 and not -size <= index[0] < size:
            raise ItemIndexError(f"index {index[0]} is out of bounds for size {size}")
        return
    if len(index) != len(shape):
        raise ValueError(f"incorrect number of indices for Tensor: {len(index)} for shape "
                         f"{list(shape)}")
    for axis, (i, dim) in enumerate(zip(index, shape)):
        if dim >= 0 and not -dim <= i < dim:
            raise ItemIndexError(f"index {i} is out of bounds for axis {axis} with size "
                                 f"{dim}")
