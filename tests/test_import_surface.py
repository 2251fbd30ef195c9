"""`import sampan` stays small and every public name stays reachable (issue #2).

Most subpackages load on first use (`sampan/core/lazy.py`). These tests run in a fresh
interpreter, where laziness matters: every name recorded in import_surface.txt (the public
names and submodules of each public namespace) is still an attribute and listed by `dir()`,
and `import sampan` loads none of the lazy parts. After an intended change of the API,
rewrite the record with `python tests/test_import_surface.py --write`.
"""
import json
import os
import subprocess
import sys
import textwrap

RECORD = os.path.join(os.path.dirname(__file__), "import_surface.txt")
INTERNAL = ("sampan.core", "sampan.eager", "sampan.executor", "sampan.ops", "sampan.jit.",
            "sampan.serialization", "sampan.save_load", "sampan.framework_mode")

# Walks the public namespaces reachable from `sampan`; submodules are written "name/".
WALK = """
import json, sys, types
import sampan
INTERNAL = %r
surface, stack = {}, [sampan]
while stack:
    mod = stack.pop()
    if mod.__name__ in surface or mod.__name__.startswith(INTERNAL):
        continue
    names = sorted(n for n in dir(mod) if not n.startswith("_"))
    values = [getattr(mod, n) for n in names]
    surface[mod.__name__] = [n + "/" if isinstance(v, types.ModuleType) else n
                             for n, v in zip(names, values)]
    stack += [v for v in values if isinstance(v, types.ModuleType)
              and v.__name__.startswith("sampan.")
              and (hasattr(v, "__path__") or v.__name__.count(".") == 1)]
json.dump(surface, sys.stdout)
""" % (INTERNAL,)

# Modules `import sampan` must not load: they load on first use.
LAZY = ("sampan.jit.api", "sampan.jit.pyct", "sampan.jit.converters", "sampan.jit.operators",
        "sampan.hapi", "sampan.vision", "sampan.io", "sampan.inference", "sampan.distribution",
        "sampan.metric", "sampan.incubate", "sampan.fft", "sampan.signal", "sampan.amp",
        "sampan.static.io", "sampan.static.persist", "sampan.static.control_flow",
        "sampan.static.backward", "sampan.static.serialize", "sampan.executor",
        "sampan.serialization", "sampan.distributed", "sampan.interop", "mpi4py", "onnx",
        "numpy.random")


def _run(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout


def _read_record():
    surface, module = {}, None
    with open(RECORD) as f:
        for line in f:
            if not line.startswith(" "):
                module, line = line.split(":", 1)
                surface[module] = []
            surface[module] += line.split()
    return surface


def test_every_recorded_name_is_still_reachable_and_listed():
    recorded = _read_record()
    now = json.loads(_run(WALK))
    missing = {module: sorted(set(names) - set(now.get(module, ())))
               for module, names in recorded.items()}
    assert not {m: names for m, names in missing.items() if names}


def test_star_import_still_brings_every_top_level_name():
    names = json.loads(_run("import json; ns = {}; exec('from sampan import *', ns); "
                            "print(json.dumps(sorted(ns)))"))
    recorded = {name.rstrip("/") for name in _read_record()["sampan"]}
    assert not recorded - set(names)


def test_lazy_names_are_the_objects_of_their_home_modules():
    out = _run("import sampan as p, sampan.jit.api as a, sampan.hapi.model as m; "
               "import sampan.static.persist as s; "
               "print(p.jit.to_static is a.to_static, p.Model is m.Model, "
               "p.static.save is s.save, callable(p.static.data), "
               "callable(p.static.py_func), p.vision.transforms.__name__)")
    assert out.split() == ["True", "True", "True", "True", "True",
                           "sampan.vision.transforms"]


def test_import_sampan_loads_no_lazy_module():
    out = _run("import sys, sampan; print(sorted(m for m in sys.modules "
               f"if m.startswith({LAZY!r})))")
    assert out.strip() == "[]"


def test_a_fresh_process_reads_and_runs_a_program_with_lazily_registered_ops(tmp_path):
    # cond and print register their op types when static control flow and print_op load,
    # which `import sampan` no longer does: reading a Program must load them.
    path = str(tmp_path / "program.json")
    _run("import json, sampan as p\n"
         "from sampan.static.serialize import program_to_json\n"
         "p.enable_static()\n"
         "main = p.static.Program()\n"
         "with p.static.program_guard(main):\n"
         "    x = p.static.data('x', [2], 'float32')\n"
         "    y = p.static.nn.cond(x.sum() > 0, lambda: x * 2, lambda: x - 1)\n"
         "    p.static.Print(y)\n"
         f"json.dump([program_to_json(main), y.name], open({path!r}, 'w'))")
    out = _run("import json, numpy as np, sampan as p\n"
               "from sampan.static.serialize import program_from_json\n"
               f"text, name = json.load(open({path!r}))\n"
               "prog = program_from_json(text)\n"
               "print(*[op.type for op in prog.global_block().ops])\n"
               "y, = p.static.Executor().run(prog, feed={'x': np.ones(2, 'float32')},\n"
               "                             fetch_list=[name])\n"
               "print(*y.tolist(), callable(p.static.py_func))")
    lines = out.splitlines()  # the print op writes between the two lines of ours
    ops, values = lines[0], lines[-1]
    assert ops.split() == ["sum", "full", "greater_than", "cond", "print"]
    assert values.split() == ["2.0", "2.0", "True"]


def _write_record():
    surface = json.loads(_run(WALK))
    with open(RECORD, "w") as f:
        for module in sorted(surface):
            names = " ".join(surface[module])
            f.write(textwrap.fill(names, 96, initial_indent=f"{module}: ",
                                  subsequent_indent="  ", break_on_hyphens=False)
                    + "\n" if names else f"{module}:\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_import_surface.py --write")
    _write_record()
