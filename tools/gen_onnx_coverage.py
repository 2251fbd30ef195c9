"""Regenerate the ONNX coverage table in docs/interop.md from the exporter's op table
(sampan/interop/onnx/table.py; tests/onnx/test_errors.py fails when the committed table is
stale)."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BEGIN, END = "<!-- onnx table begin -->\n", "<!-- onnx table end -->\n"


def render(text):
    from sampan.interop.onnx.table import coverage_markdown
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + coverage_markdown() + END + tail


if __name__ == "__main__":
    path = ROOT / "docs" / "interop.md"
    path.write_text(render(path.read_text()))
