"""paddle.nn: layers, functional, initializers, ParamAttr and gradient clipping."""
from . import functional, initializer  # noqa: F401
from .clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401
from .layer import *  # noqa: F401,F403
from .layer import Layer  # noqa: F401
from ..core.param_attr import ParamAttr  # noqa: F401
from . import utils  # noqa: F401
from .layer.extra import *  # noqa: F401,F403,E402
from .layer.aliases import *  # noqa: F401,F403,E402

from ..core.lazy import lazy_exports as _lazy_exports  # noqa: E402

# beam search loads on first use (it reaches into static control-flow helpers)
_lazy_exports(globals(), {".decode": ["BeamSearchDecoder", "dynamic_decode"]})
