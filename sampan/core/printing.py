"""`paddle.set_printoptions` and the text of a Tensor's values as Paddle prints them: floats
with `precision` decimals (whole numbers as `3.`), every item padded to one width, long
rows wrapped at `linewidth`, and large tensors summarised by their edge items."""
import numpy as np

__all__ = ["set_printoptions", "PRINT_OPTIONS", "format_values", "tensor_text"]

PRINT_OPTIONS = {"precision": 8, "threshold": 1000, "edgeitems": 3, "linewidth": 80,
                 "sci_mode": False}


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None,
                     linewidth=None):
    """Set the precision, summarisation threshold, edge items, line width and scientific
    notation used when printing tensors (None keeps the current value)."""
    for key, value in (("precision", precision), ("threshold", threshold),
                       ("edgeitems", edgeitems), ("sci_mode", sci_mode),
                       ("linewidth", linewidth)):
        if value is not None:
            PRINT_OPTIONS[key] = bool(value) if key == "sci_mode" else int(value)


def _item_text(value):
    """One element: floats with the precision (scientific in sci_mode, `3.` when whole),
    complex numbers as `(re+imj)` with both parts at the precision, anything else as NumPy
    spells it."""
    kind = value.dtype.kind
    if kind == "f":
        precision = PRINT_OPTIONS["precision"]
        if PRINT_OPTIONS["sci_mode"]:
            return f"{value:.{precision}e}"
        if np.ceil(value) == value:
            return f"{value:.0f}."
        return f"{value:.{precision}f}"
    if kind == "c":
        style = f".{PRINT_OPTIONS['precision']}{'e' if PRINT_OPTIONS['sci_mode'] else 'f'}"
        sign = "-" if np.signbit(value.imag) else "+"
        return f"({value.real:{style}}{sign}{abs(value.imag):{style}}j)"
    return f"{value}"


def _real(values):
    """The real parts of complex values (the sign column follows them), others as they are."""
    return values.real if values.dtype.kind == "c" else values


def _edges(array, edgeitems):
    """The leading and trailing `edgeitems` entries of every dimension (what a summary
    shows), for measuring the column width."""
    if array.ndim == 0:
        return array
    if array.shape[0] > 2 * edgeitems:
        array = np.concatenate([array[:edgeitems], array[-edgeitems:]])
    return np.stack([_edges(row, edgeitems) for row in array]) if array.ndim > 1 else array


class _Layout:
    """Column width, sign column and summarisation shared by every item of one tensor."""

    def __init__(self, array):
        opts = PRINT_OPTIONS
        self.edgeitems, self.linewidth = opts["edgeitems"], opts["linewidth"]
        self.summary = array.ndim > 0 and array.size > opts["threshold"]
        shown = _edges(array, self.edgeitems).ravel() if array.size else array.ravel()
        self.width = max((len(_item_text(v)) for v in shown), default=0)
        self.signed = array.dtype.kind in "iufc" and bool((_real(shown) < 0).any())

    def item(self, value):
        """An element padded to the common width (a space stands for a missing minus)."""
        text = _item_text(value)
        if self.width <= len(text):
            return text
        if self.signed and not _real(value) < 0:
            return " " + text.ljust(self.width - 1)
        return text.ljust(self.width)

    def rows(self, array):
        """The entries of dimension 0, with `...` in place of the middle when summarised."""
        if self.summary and array.shape[0] > 2 * self.edgeitems:
            return list(array[:self.edgeitems]), list(array[-self.edgeitems:])
        return list(array), None

    def text(self, array, indent):
        """The bracketed text of `array`, continuation lines indented by `indent` + 1."""
        if array.ndim == 0:
            return self.item(array)
        head, tail = self.rows(array)
        if array.ndim == 1:
            items = [self.item(v) for v in head]
            if tail is not None:
                items += ["..."] + [self.item(v) for v in tail]
            per_line = max(1, (self.linewidth - indent) // (self.width + 2))
            lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
            return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
        parts = [self.text(row, indent + 1) for row in head]
        if tail is not None:
            parts += ["..."] + [self.text(row, indent + 1) for row in tail]
        separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
        return "[" + separator.join(parts) + "]"


def format_values(array, indent):
    """The values part of a Tensor's repr; `indent` is the column the text starts at."""
    if array.dtype.kind == "V" or array.dtype.name == "bfloat16":
        array = array.astype(np.float32)
    return _Layout(array).text(array, indent)


def tensor_text(array, dtype_name, stop_gradient):
    """How a Tensor prints (`Tensor(shape=..., dtype=..., place=..., stop_gradient=...,`
    then its values), eagerly and from the print ops of static Programs."""
    return (f"Tensor(shape={list(array.shape)}, dtype={dtype_name}, place=Place(cpu), "
            f"stop_gradient={stop_gradient},\n       "
            f"{format_values(array, len('Tensor') + 1)})")
