"""Regenerate the generated tables of docs/interop.md: the Paddle op coverage table from
sampan.interop.paddle.op_table and the ONNX export coverage table from
sampan.interop.onnx.table (tests/interop/test_op_table.py and tests/onnx/test_errors.py
fail when a committed table is stale)."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _tables():
    """(begin marker, end marker, markdown) per generated table."""
    from sampan.interop.onnx.table import coverage_markdown as onnx_markdown
    from sampan.interop.paddle.op_table import coverage_markdown as paddle_markdown
    return [("<!-- op table begin -->\n", "<!-- op table end -->\n", paddle_markdown()),
            ("<!-- onnx table begin -->\n", "<!-- onnx table end -->\n", onnx_markdown())]


def render(text):
    for begin, end, markdown in _tables():
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + begin + markdown + end + tail
    return text


if __name__ == "__main__":
    path = ROOT / "docs" / "interop.md"
    path.write_text(render(path.read_text()))
