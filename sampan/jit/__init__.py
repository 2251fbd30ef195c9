"""Dynamic-to-static compilation: converts Python functions into static programs.

The compiler (source toolkit, converters, runtime operators, program cache) loads when a
name below is first read, not at `import sampan`.
"""
from ..core.lazy import lazy_exports

__all__ = ["to_static", "not_to_static", "enable_to_static", "ignore_module", "set_code_level",
           "set_verbosity", "check_consistency", "StaticFunction", "save", "load",
           "TranslatedLayer", "TracedLayer", "explain"]
lazy_exports(globals(), {
    ".api": ["to_static", "enable_to_static", "ignore_module", "set_code_level",
             "set_verbosity", "explain"],
    ".marker": ["not_to_static"],
    ".consistency": ["check_consistency"],
    ".program_translator": ["StaticFunction"],
    ".save_load": ["save", "load"],
    ".translated_layer": ["TranslatedLayer"],
    ".traced_layer": ["TracedLayer"],
})
