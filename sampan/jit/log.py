"""Logging of to_static: converted code per pipeline step (code level) and events (verbosity)."""
import logging
import os
import sys

__all__ = ["set_code_level", "set_verbosity", "code", "enabled", "event", "LOGGER"]

LOGGER = logging.getLogger("sampan.jit")


def _env_int(name, default):
    """An integer environment variable, `default` when unset or malformed."""
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


class _Settings:
    """Current levels; None means "read the environment variable"."""

    code_level = None
    verbosity = None
    code_stdout = False
    verbosity_stdout = False


def set_code_level(level=100, also_to_stdout=False):
    """Log converted code after pipeline step `level` (>= number of steps: the final code)."""
    _Settings.code_level, _Settings.code_stdout = int(level), also_to_stdout


def set_verbosity(level=0, also_to_stdout=False):
    """Log conversion and tracing events up to `level` (0: none, 1: conversions and builds,
    2: also cache hits)."""
    _Settings.verbosity, _Settings.verbosity_stdout = int(level), also_to_stdout


class _StderrHandler(logging.StreamHandler):
    """Writes to `sys.stderr` as it is at each message (a redirected stderr is followed)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def _handled():
    """The logger, writing to stderr as Paddle's does when no handler was configured."""
    if LOGGER.level == logging.NOTSET:
        LOGGER.setLevel(logging.INFO)
    if not LOGGER.handlers:
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s: "
                                               "%(message)s"))
        LOGGER.addHandler(handler)
    return LOGGER


def _emit(message, to_stdout):
    """Send `message` to the logger (at INFO: stderr unless configured otherwise) and, when
    asked, to stdout."""
    _handled().info(message)
    if to_stdout:
        print(message)


def code(step, steps, name, source):
    """Log `source()` (the code after pass `name`, number `step`) when the code level asks."""
    level = _Settings.code_level
    level = _env_int("TRANSLATOR_CODE_LEVEL", -1) if level is None else level
    if level == step or (level >= steps and step == steps):
        _emit(f"After the {name} pass ({step}/{steps}):\n{source()}", _Settings.code_stdout)


def enabled(level):
    """True when the verbosity is at least `level` (callers on hot paths check it before
    formatting a message)."""
    verbosity = _Settings.verbosity
    verbosity = _env_int("TRANSLATOR_VERBOSITY", 0) if verbosity is None else verbosity
    return verbosity >= level


def event(level, message):
    """Log `message` when the verbosity is at least `level`."""
    if enabled(level):
        _emit(message, _Settings.verbosity_stdout)
