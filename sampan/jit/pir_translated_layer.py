"""`paddle.jit.pir_translated_layer`: Paddle 3's names for the saved-model file suffixes
(`<prefix>.json` program, `<prefix>.pdiparams` parameters) and its loaded-layer class."""
from ..inference.model_format import JSON_MODEL_SUFFIX as PIR_INFER_MODEL_SUFFIX
from ..inference.model_format import PARAMS_SUFFIX as INFER_PARAMS_SUFFIX
from .translated_layer import TranslatedLayer as PirTranslatedLayer

__all__ = ["PIR_INFER_MODEL_SUFFIX", "INFER_PARAMS_SUFFIX", "PirTranslatedLayer"]
