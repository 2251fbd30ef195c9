"""Dynamic-to-static compilation: converts Python functions into static programs."""
from .api import (check_consistency, enable_to_static, ignore_module, not_to_static,
                  set_code_level, set_verbosity, to_static)
from .program_translator import StaticFunction

__all__ = ["to_static", "not_to_static", "enable_to_static", "ignore_module", "set_code_level",
           "set_verbosity", "check_consistency", "StaticFunction"]
from .save_load import load, save  # noqa: E402
from .translated_layer import TranslatedLayer  # noqa: E402

__all__ += ["save", "load", "TranslatedLayer"]
from .traced_layer import TracedLayer  # noqa: E402

__all__ += ["TracedLayer"]
