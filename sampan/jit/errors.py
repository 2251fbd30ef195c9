"""Errors of converted code point at the user's lines: op origins and exception messages."""
from ..executor import run as executor_run
from ..static.mode import is_sampan_file, register_origin_translator, user_origin
from .pyct import origin

__all__ = ["translate_origins", "attach_user_frames", "attach_op_origin", "ErrorData",
           "ERROR_DATA"]

_MARK = "In transformed code:"
ERROR_DATA = "error_data"  # the attribute of a raised exception that holds its ErrorData


class ErrorData:
    """What sampan adds to an exception raised in converted code (`exc.error_data`): the
    user source lines it went through, innermost last, as (file, line, function, text)."""

    __slots__ = ("error_type", "frames")

    def __init__(self, error_type, frames):
        self.error_type = error_type
        self.frames = list(frames)

    def __repr__(self):
        return f"ErrorData({self.error_type.__name__}, {len(self.frames)} user frames)"


def _user(file, line):
    """The user OriginInfo of a generated-code position, or None for user/library code
    (a sampan layer converted by to_static is library code)."""
    found = origin.lookup(file, line)
    return None if found is None or is_sampan_file(found.filename) else found


def _converted_origin(file, line):
    """(file, line, function, text) of the source a converted-code line came from, or None:
    op origins and build-time error messages name that line instead of generated code."""
    found = origin.lookup(file, line)
    return None if found is None else (found.filename, found.lineno, found.function_name,
                                       found.source_line)


register_origin_translator(_converted_origin)


def translate_origins(program):
    """Rewrite op origins recorded in generated files to the user's file, line and text."""
    for block in program.blocks:
        for op in block.ops:
            found = op.origin and _user(op.origin[0], op.origin[1])
            if found:
                op.origin = (found.filename, found.lineno, found.function_name,
                             found.source_line)


def _format(frames):
    """Traceback-style lines for user frames; the innermost carries the `<--- HERE` marker."""
    lines = [_MARK]
    for k, (file, line, func, text) in enumerate(frames):
        here = "  <--- HERE" if k == len(frames) - 1 else ""
        lines.append(f'  File "{file}", line {line}, in {func}\n    {text}{here}')
    return "\n".join(lines)


def _extend_message(exc, frames):
    """Add the user frames to `exc`'s message and its ErrorData (once); the exception
    keeps its type."""
    if not frames or any(_MARK in str(a) for a in exc.args[:1]):
        return exc
    setattr(exc, ERROR_DATA, ErrorData(type(exc), frames))
    first = str(exc.args[0]) if exc.args else ""
    exc.args = (f"{first}\n\n{_format(frames)}",) + tuple(exc.args[1:])
    return exc


def attach_user_frames(exc):
    """Add the user lines of the generated-code frames in `exc`'s traceback to its message;
    when there are none (to_static of a sampan layer), the line that made the call."""
    frames, tb = [], exc.__traceback__
    while tb is not None:
        found = _user(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        if found:
            frames.append((found.filename, found.lineno, found.function_name,
                           found.source_line))
        tb = tb.tb_next
    caller = None if frames else user_origin()
    return _extend_message(exc, frames or ([caller] if caller else []))


def attach_op_origin(exc, plan):
    """Add the user line that built the op an executor run failed in to `exc`'s message."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is executor_run._fail.__code__:
            node = plan.nodes[tb.tb_frame.f_locals["index"]]
            return _extend_message(exc, [node.origin] if node.origin else [])
        tb = tb.tb_next
    return exc
