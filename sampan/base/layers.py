"""`paddle.base.layers`: present so that code naming it imports; like Paddle 3's module of
that name it exports nothing (its old layer functions live in `paddle`, `paddle.nn` and
`paddle.static.nn`)."""

__all__ = []
