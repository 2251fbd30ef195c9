"""paddle.load checks every array tag of a state file: kind, keys, the types of
stop_gradient and name, a numpy_scalar's shape. A bad tag is CorruptFileError naming it."""
import numpy as np
import pytest

import sampan as paddle
from sampan.serialization import CorruptFileError, save_tree


def _save_tagged(path, array, tag):
    save_tree({"w": array}, path, leaf_to_record=lambda a: (a, tag))


@pytest.mark.parametrize("tag, array, message", [
    ({"kind": "tensor", "name": "w", "stop_gradient": "no"}, np.ones(2),
     "stop_gradient must be true or false, got 'no'"),
    ({"kind": "tensor", "name": "w", "stop_gradient": [[[1]]]}, np.ones(2),
     "stop_gradient must be true or false"),
    ({"kind": "parameter", "name": 5, "stop_gradient": True}, np.ones(2),
     "tensor name must be a string or null, got 5"),
    ({"kind": "numpy_scalar"}, np.ones(16), r"numpy_scalar tag on an array of shape \[16\]"),
    ({"kind": {"a": 1}}, np.ones(2), "unknown tag kind"),
    ({"kind": "module"}, np.ones(2), "unknown tag kind 'module'"),
    ({"name": "w"}, np.ones(2), "unknown tag kind None"),
    ({"kind": "tensor", "stop_gradient": True}, np.ones(2), "tensor tag has keys"),
    ({"kind": "ndarray", "extra": 1}, np.ones(2), "ndarray tag has keys"),
])
def test_a_bad_tag_is_a_corrupt_file_naming_the_defect(tmp_path, tag, array, message):
    path = tmp_path / "state.pdparams"
    _save_tagged(path, array, tag)
    with pytest.raises(CorruptFileError, match=r"corrupt sampan state file .*array 0: " + message):
        paddle.load(path)
    with pytest.raises(CorruptFileError):
        paddle.load(path, return_numpy=True)


def test_every_tag_sampan_writes_reads_back(tmp_path):
    param = paddle.create_parameter([2], "float32")
    tensor = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    state = {"p": param, "t": tensor, "a": np.arange(3), "s": np.float32(2.5)}
    paddle.save(state, tmp_path / "s.pdparams")
    back = paddle.load(tmp_path / "s.pdparams")
    assert back["t"].stop_gradient is False and back["p"].name == param.name
    assert back["s"] == np.float32(2.5) and type(back["s"]) is np.float32
    np.testing.assert_array_equal(back["a"], np.arange(3))


def test_untagged_arrays_still_load_as_arrays(tmp_path):
    save_tree({"w": np.ones(3)}, tmp_path / "plain.pdparams")
    np.testing.assert_array_equal(paddle.load(tmp_path / "plain.pdparams")["w"], np.ones(3))
