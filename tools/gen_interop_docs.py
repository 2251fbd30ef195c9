"""Regenerate the op coverage table in docs/interop.md from sampan.interop.paddle.op_table
(tests/interop/test_op_table.py fails when the committed table is stale)."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BEGIN, END = "<!-- op table begin -->\n", "<!-- op table end -->\n"


def render(text):
    from sampan.interop.paddle.op_table import coverage_markdown
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + coverage_markdown() + END + tail


if __name__ == "__main__":
    path = ROOT / "docs" / "interop.md"
    path.write_text(render(path.read_text()))
