"""The functional tensor API with Paddle signatures, usable in eager and static mode.

Generated op functions are the base; modules here replace the few whose Paddle
signature differs from the op's, add creation helpers, compositions and tensor arrays,
and finally install the public functions as Tensor/Variable methods.
"""
import sys as _sys
import types as _types

from ..eager.tensor import Tensor as _Tensor

from ..ops._generated.api import *  # noqa: F401,F403
from ..ops._generated.api import __all__ as _op_names
from .aliases import *  # noqa: F401,F403
from .aliases import METHODS as _alias_methods, __all__ as _alias_function_names
from .aliases import aliases as _aliases, keyword_aliased as _keyword_aliased
from .array import array_length, array_read, array_write, create_array
from .creation import *  # noqa: F401,F403
from .creation import __all__ as _creation_names
from .creation import fill_constant  # paddle.tensor's, not a top-level paddle name
from .construct import *  # noqa: F401,F403
from .construct import __all__ as _construct_names
from .conversion import METHODS as _conversion_methods
from .cumulative import *  # noqa: F401,F403
from .cumulative import __all__ as _cumulative_names
from .extra import *  # noqa: F401,F403
from .extra import __all__ as _extra_names
from .inplace import *  # noqa: F401,F403
from .inplace import METHODS as _inplace_methods, __all__ as _inplace_names
from .manipulation import *  # noqa: F401,F403
from .manipulation import __all__ as _manipulation_names
from .linalg import *  # noqa: F401,F403
from .linalg import METHODS as _linalg_methods, __all__ as _linalg_names
from .logic import *  # noqa: F401,F403
from .logic import __all__ as _logic_names
from .math import *  # noqa: F401,F403
from .math import OPERATORS as _math_operators, __all__ as _math_names
from .multidim_histogram import histogramdd
from .more import *  # noqa: F401,F403
from .more import METHODS as _more_methods, TENSOR_METHODS as _more_tensor_methods
from .more import __all__ as _more_names
from .random_fill import *  # noqa: F401,F403
from .random_fill import METHODS as _random_fill_methods, __all__ as _random_fill_names
from .scatter_into import *  # noqa: F401,F403
from .scatter_into import __all__ as _scatter_names
from .search import *  # noqa: F401,F403
from .search import __all__ as _search_names
from .stat import *  # noqa: F401,F403
from .stat import __all__ as _stat_names
from .inplace import inplace_variants as _inplace_variants
from .methods import install_method_table as _install_method_table
from .methods import install_methods as _install_methods

_variants = _inplace_variants(globals())
globals().update(_variants)
_second_names = _aliases(globals())
globals().update(_second_names)
globals().update(_keyword_aliased(globals()))
__all__ = sorted(set(_op_names) | set(_creation_names) | set(_manipulation_names)
                 | set(_variants) | set(_math_names) | set(_extra_names) | set(_inplace_names)
                 | set(_cumulative_names) | set(_search_names) | set(_logic_names)
                 | set(_construct_names) | set(_scatter_names) | set(_linalg_names)
                 | set(_more_names) | set(_random_fill_names) | set(_stat_names)
                 | set(_alias_function_names) | set(_second_names) | {"histogramdd"}
                 | {"create_array", "array_write", "array_read", "array_length"})
_install_methods(_sys.modules[__name__], __all__)
_install_method_table(_inplace_methods)
_install_method_table(_conversion_methods)
_install_method_table(_math_operators)
_install_method_table(_linalg_methods)
_install_method_table(_more_methods)
_install_method_table(_random_fill_methods)
_install_method_table(_alias_methods)
for _name, _fn in _more_tensor_methods.items():  # eager-only methods: Tensor, not Variable
    setattr(_Tensor, _name, _fn)


def _package_fallback(name):
    """Module __getattr__: a public name of this package (Paddle's paddle.tensor.<module>
    files group functions differently: paddle.tensor.math.frexp is sampan's extra.frexp)."""
    if name.startswith("_") or name not in __all__:
        raise AttributeError(name)
    return globals()[name]


for _module in (creation, extra, linalg, logic, manipulation, math, search, stat):
    _module.__getattr__ = _package_fallback


class _PackageAndConstructor(_types.ModuleType):
    """`paddle.tensor` is this package and, called, Paddle 3's constructor."""

    def __call__(self, data, dtype=None, device=None, requires_grad=False, pin_memory=False):
        """A new tensor holding `data` (a copy, without history, for a Tensor), trainable
        when requires_grad: `paddle.tensor([1.0, 2.0], requires_grad=True)`."""
        return to_tensor(data, dtype, device, stop_gradient=not requires_grad)


_sys.modules[__name__].__class__ = _PackageAndConstructor
