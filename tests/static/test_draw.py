"""Program graphs: control-flow sub-blocks nested as clusters (DOT) / subgraphs (Mermaid),
Program.to_dot(), and paddle.static.draw(program, path) by suffix."""
import importlib
import os
import stat

import pytest

import sampan as paddle
from sampan import static

draw_module = importlib.import_module("sampan.static.graph_drawing")


@pytest.fixture(scope="module")
def nested():
    """A while loop whose body holds a cond."""
    paddle.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            x = static.data("x", [-1, 4], "float32")
            i = paddle.zeros([1], "int64")

            def body(i, h):
                h2 = static.nn.cond(h.sum() > 0, lambda: h * 2.0, lambda: h - 1.0)
                return [i + 1, h2]
            static.nn.while_loop(lambda i, h: i < 3, body, [i, x])
        return main
    finally:
        paddle.disable_static()


def _enclosing(dot, text):
    """The labels of the clusters around the first line containing `text`, outermost first."""
    labels, stack = [], []
    for line in dot.splitlines():
        stripped = line.strip()
        if stripped.startswith("subgraph cluster"):
            stack.append(None)
        elif stripped.startswith("label=") and stack and stack[-1] is None:
            stack[-1] = stripped.split('"')[1]
        elif stripped == "}":
            if stack:
                stack.pop()
        elif text in stripped:
            return list(stack)
    return labels


def test_sub_blocks_are_clusters_nested_inside_their_op(nested):
    dot = nested.to_dot()
    assert dot.startswith("digraph program {") and dot.count("{") == dot.count("}")
    assert _enclosing(dot, 'label="less_than"') == ["while (block 0 op 1)",
                                                     "cond_block: block 1"]
    assert _enclosing(dot, 'label="multiply"') == [
        "while (block 0 op 1)", "body_block: block 2", "cond (block 2 op 3)",
        "true_block: block 3"]
    assert _enclosing(dot, 'label="subtract"')[-1] == "false_block: block 4"
    assert _enclosing(dot, 'label="while"') == ["while (block 0 op 1)"]
    # the outer input feeds ops inside the loop body across clusters
    x_id = next(line.split()[0] for line in dot.splitlines() if 'label="x"' in line)
    assert f"{x_id} -> op_1;" in dot


def test_mermaid_nests_subgraphs(nested):
    text = nested.to_mermaid()
    assert text.startswith("flowchart TD")
    assert text.count("subgraph ") == sum(line.strip() == "end" for line in text.splitlines())
    assert 'subgraph cluster_1["while (block 0 op 1)"]' in text
    assert "-->" in text


def test_draw_writes_text_formats_by_suffix(nested, tmp_path):
    assert static.draw(nested, tmp_path / "g.dot") == str(tmp_path / "g.dot")
    assert (tmp_path / "g.dot").read_text() == nested.to_dot() + "\n"
    static.draw(nested, tmp_path / "g.mmd")
    assert (tmp_path / "g.mmd").read_text() == nested.to_mermaid() + "\n"
    with pytest.raises(ValueError, match="suffix"):
        static.draw(nested, tmp_path / "g.txt")


def test_draw_renders_svg_with_graphviz_or_says_it_is_missing(nested, tmp_path, monkeypatch):
    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\ncat > /dev/null\necho \"<svg>$1</svg>\"\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(draw_module.shutil, "which", lambda name: str(fake))
    static.draw(nested, tmp_path / "g.svg")
    assert (tmp_path / "g.svg").read_text().strip() == "<svg>-Tsvg</svg>"
    monkeypatch.setattr(draw_module.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="Graphviz"):
        static.draw(nested, tmp_path / "g.png")
    assert not os.path.exists(tmp_path / "g.png")
