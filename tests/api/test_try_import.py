"""paddle.utils.try_import returns the module or names the package to install."""
import json
import os.path

import pytest

import sampan as paddle


def test_returns_the_imported_module():
    assert paddle.utils.try_import("json") is json
    assert paddle.utils.try_import("os.path") is os.path


def test_missing_module_names_the_pip_package():
    with pytest.raises(ImportError, match=r"pip install sampan_no_such_module"):
        paddle.utils.try_import("sampan_no_such_module.sub")
    with pytest.raises(ImportError, match="custom words"):
        paddle.utils.try_import("sampan_no_such_module", "custom words")
