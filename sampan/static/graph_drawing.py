"""Program graphs as Graphviz DOT or Mermaid text, and `draw(program, path)` writing them
(and SVG/PNG through Graphviz's `dot` when it is installed).

Ops are boxes, variables ellipses (persistables shaded), edges follow the data. A
control-flow op (cond, while, static_pylayer, ...) is drawn as a cluster holding the op and
one nested cluster per sub-block, so a loop body sits inside its `while`; a variable is
drawn in the block that declares it, and edges cross clusters where a sub-block reads an
outer value.
"""
import os
import shutil
import subprocess

from .framework import Block

__all__ = ["program_to_dot", "program_to_mermaid", "draw"]


def _sub_blocks(op):
    """(attribute name, Block) of every sub-block an op runs, in attribute order."""
    found = []
    for name, value in op.attrs.items():
        blocks = value if isinstance(value, list) else [value]
        found.extend((name, b) for b in blocks if isinstance(b, Block))
    return found


class _Graph:
    """The drawing of a program as a tree of clusters; ids are unique over all blocks."""

    def __init__(self, program, block_idx):
        self.program = program
        self.var_ids, self.edges = {}, []
        self.used = {n for block in program.blocks for op in block.ops
                     for n in op.input_arg_names + op.output_arg_names}
        self.root = self._cluster(program.block(block_idx), "program", "")

    def _var(self, name):
        return self.var_ids.setdefault(name, f"v{len(self.var_ids)}")

    def _cluster(self, block, label, path):
        """{label, id, ops: [(id, label)], vars: [name], children: [cluster]} of a block
        (iterative: nested control flow of any depth)."""
        root = {"label": label, "id": f"cluster{path}", "ops": [], "vars": [], "children": []}
        stack = [(block, root, path)]
        while stack:
            block, cluster, path = stack.pop()
            cluster["vars"] = [n for n in block.vars if n in self.used]
            pending = []
            for k, op in enumerate(block.ops):
                op_id = f"op{path}_{k}"
                subs = _sub_blocks(op)
                holder = cluster
                if subs:
                    holder = {"label": f"{op.type} (block {block.idx} op {k})",
                              "id": f"cluster{path}_{k}", "ops": [], "vars": [], "children": []}
                    cluster["children"].append(holder)
                holder["ops"].append((op_id, op.type))
                self.edges += [(self._var(n), op_id) for n in op.input_arg_names]
                self.edges += [(op_id, self._var(n)) for n in op.output_arg_names]
                for j, (attr, sub) in enumerate(subs):
                    child = {"label": f"{attr}: block {sub.idx}", "id": f"cluster{path}_{k}_{j}",
                             "ops": [], "vars": [], "children": []}
                    holder["children"].append(child)
                    pending.append((sub, child, f"{path}_{k}_{j}"))
            stack.extend(reversed(pending))  # sub-blocks numbered in the order they appear
        return root

    def clusters(self):
        """(depth, cluster, entering) events of a depth-first walk, for writers."""
        stack = [(0, self.root, True)]
        while stack:
            depth, cluster, entering = stack.pop()
            yield depth, cluster, entering
            if entering:
                stack.append((depth, cluster, False))
                stack.extend((depth + 1, c, True) for c in reversed(cluster["children"]))

    def persistable(self, name):
        return any(name in b.vars and b.vars[name].persistable for b in self.program.blocks)

    def placed_vars(self):
        """Every variable id drawn in some cluster (the others are drawn at top level)."""
        return {self.var_ids[n] for _, c, entering in self.clusters() if entering
                for n in c["vars"] if n in self.var_ids}


def _quote(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _cluster_lines(graph, opening, closing, var_line, op_line):
    """The nested declarations of a graph: `opening(cluster, head, pad)` lines and
    `closing` around each cluster, `var_line(name, pad)` / `op_line(id, label, pad)` for its
    variables and ops; variables no cluster declares come last, at top level."""
    lines = []
    for depth, cluster, entering in graph.clusters():
        head, pad = "  " * depth, "  " * (depth + 1)
        if not entering:
            if depth:
                lines.append(head + closing)
            continue
        if depth:
            lines += opening(cluster, head, pad)
        lines += [var_line(n, pad) for n in cluster["vars"] if n in graph.var_ids]
        lines += [op_line(op_id, label, pad) for op_id, label in cluster["ops"]]
    placed = graph.placed_vars()
    return lines + [var_line(n, "  ") for n, vid in graph.var_ids.items() if vid not in placed]


def program_to_dot(program, block_idx=0):
    """DOT text of block `block_idx` (the global block) with its sub-blocks as clusters."""
    graph = _Graph(program, block_idx)

    def var_line(name, pad):
        style = ', style=filled, fillcolor="#dddddd"' if graph.persistable(name) else ""
        return f'{pad}{graph.var_ids[name]} [label="{_quote(name)}", shape=ellipse{style}];'

    body = _cluster_lines(
        graph, lambda c, head, pad: [f"{head}subgraph {c['id']} {{",
                                     f'{pad}label="{_quote(c["label"])}"; style=rounded;'],
        "}", var_line, lambda op_id, label, pad: f'{pad}{op_id} [label="{_quote(label)}", '
                                                 f'shape=box];')
    return "\n".join(["digraph program {", "  rankdir=TB;", "  compound=true;", *body,
                      *(f"  {a} -> {b};" for a, b in graph.edges), "}"])


def program_to_mermaid(program, block_idx=0):
    """Mermaid flowchart text of block `block_idx` with its sub-blocks as subgraphs."""
    graph = _Graph(program, block_idx)
    body = _cluster_lines(
        graph, lambda c, head, pad: [f'{head}subgraph {c["id"]}["{_quote(c["label"])}"]'],
        "end", lambda name, pad: f'{pad}{graph.var_ids[name]}("{_quote(name)}")',
        lambda op_id, label, pad: f'{pad}{op_id}["{_quote(label)}"]')
    styles = [f"  style {vid} fill:#ddd" for n, vid in graph.var_ids.items()
              if graph.persistable(n)]
    return "\n".join(["flowchart TD", *body, *(f"  {a} --> {b}" for a, b in graph.edges),
                      *styles])


_TEXT_FORMATS = {".dot": program_to_dot, ".gv": program_to_dot, ".mmd": program_to_mermaid}
_RENDERED = (".svg", ".png", ".pdf")


def draw(program, path):
    """Write `program`'s graph to `path`, in the format its suffix names: `.dot` / `.gv`
    (Graphviz text), `.mmd` (Mermaid), or `.svg` / `.png` / `.pdf` rendered by Graphviz's
    `dot` (which must be installed). Returns the path.

    Example: ``paddle.static.draw(main_program, "model.svg")``.
    """
    from ..serialization import atomic_open
    path = os.fspath(path)
    suffix = os.path.splitext(path)[1].lower()
    if suffix in _TEXT_FORMATS:
        with atomic_open(path, "w") as file:
            file.write(_TEXT_FORMATS[suffix](program) + "\n")
        return path
    if suffix not in _RENDERED:
        raise ValueError(f"draw(): cannot tell the format of {path!r} from its suffix; use "
                         f"one of {sorted(_TEXT_FORMATS) + list(_RENDERED)}")
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError(f"draw(): writing {suffix} needs Graphviz's `dot` program, which is "
                           f"not installed; write a .dot or .mmd file instead")
    rendered = subprocess.run([dot, f"-T{suffix[1:]}"], input=program_to_dot(program).encode(),
                              capture_output=True, check=False)
    if rendered.returncode:
        raise RuntimeError(f"draw(): dot failed: {rendered.stderr.decode(errors='replace')}")
    with atomic_open(path, "wb") as file:
        file.write(rendered.stdout)
    return path
