"""Graph breaks of `to_static(full_graph=False)`: a traced Program is cut where Python needs a
value, each piece runs as one run_program op, and a tree of pieces guarded by the values read
at the cuts serves later calls (docs/to_static.md, "Graph breaks").

`breaks` (where and why a graph breaks) imports nothing from sampan and is read by the runtime
operators; `builder`, `segment`, `tree` and `call` sit above partial_program."""
