"""Flatten nested lists/tuples/dicts of values into leaves and rebuild them (branch outputs)."""

__all__ = ["flatten", "pack", "structure", "map_structure", "replace_leaves", "rebuilt"]


def rebuilt(seq, items):
    """A list/tuple of `seq`'s own type holding `items` (a namedtuple takes them as its
    fields, e.g. the (values, indices) result of topk)."""
    kind = type(seq)
    return kind(*items) if hasattr(kind, "_fields") else kind(items)


def flatten(obj):
    """Leaves of a nested list/tuple/dict, depth first (dict keys sorted)."""
    if isinstance(obj, (list, tuple)):
        return [leaf for item in obj for leaf in flatten(item)]
    if isinstance(obj, dict):
        return [leaf for key in sorted(obj) for leaf in flatten(obj[key])]
    return [obj]


def structure(obj):
    """The nesting of `obj` with every leaf replaced by '*' (to compare two results)."""
    if isinstance(obj, (list, tuple)):
        return rebuilt(obj, [structure(item) for item in obj])
    if isinstance(obj, dict):
        return {key: structure(obj[key]) for key in sorted(obj)}
    return "*"


def pack(template, leaves):
    """`template`'s nesting filled with `leaves` in flatten order."""
    it = iter(leaves)

    def build(obj):
        if isinstance(obj, (list, tuple)):
            return rebuilt(obj, [build(item) for item in obj])
        if isinstance(obj, dict):
            return {key: build(obj[key]) for key in sorted(obj)}
        return next(it)
    return build(template)


def replace_leaves(template, chosen, values):
    """`template` with its leaves for which `chosen(leaf)` holds replaced by `values` in
    flatten order (the other leaves kept)."""
    it = iter(values)
    return pack(template, [next(it) if chosen(leaf) else leaf for leaf in flatten(template)])


def map_structure(func, *structures):
    """`func` applied to the leaves of `structures` side by side, in the first one's nesting
    (`paddle.utils.map_structure`); the structures must nest alike."""
    first = structure(structures[0])
    for k, other in enumerate(structures[1:], start=1):
        if structure(other) != first:
            raise ValueError(f"map_structure: structure {k} nests as {structure(other)}, "
                             f"structure 0 as {first}")
    return pack(structures[0], [func(*leaves) for leaves in zip(*map(flatten, structures))])
