"""sampan.save / sampan.load of state dicts: round trips of tensors of every dtype."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import sampan as paddle
from sampan.eager.tensor import Parameter
from sampan.serialization import CorruptFileError

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
          "complex64", "complex128"]
arrays = st.sampled_from(DTYPES).flatmap(
    lambda d: hnp.arrays(d, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)))
leaves = st.one_of(arrays.map(paddle.to_tensor), st.integers(-2**40, 2**40),
                   st.floats(allow_nan=False), st.text(max_size=8), st.booleans(), st.none())
trees = st.recursive(leaves, lambda kids: st.one_of(
    st.lists(kids, max_size=3), st.dictionaries(st.text(min_size=1, max_size=6), kids,
                                                max_size=3)), max_leaves=8)


def _same(a, b):
    if isinstance(a, paddle.Tensor):
        assert isinstance(b, paddle.Tensor) and a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    else:
        assert a == b


@settings(max_examples=150, deadline=None, derandomize=True)
@given(tree=trees)
def test_nested_state_round_trip(tree, tmp_path_factory):
    path = tmp_path_factory.mktemp("s") / "state.pdparams"
    paddle.save({"root": tree}, path)
    _same({"root": tree}, paddle.load(path))


def test_layer_and_optimizer_state_round_trip(tmp_path):
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    opt = paddle.optimizer.Adam(parameters=net.parameters())
    net(paddle.ones([2, 3])).mean().backward()
    opt.step()
    paddle.save(net.state_dict(), tmp_path / "m.pdparams")
    paddle.save(opt.state_dict(), tmp_path / "m.pdopt")
    other = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    other.set_state_dict(paddle.load(tmp_path / "m.pdparams"))
    for (k, a), (_, b) in zip(net.state_dict().items(), other.state_dict().items()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=k)
    opt_state = paddle.load(tmp_path / "m.pdopt")
    assert set(opt_state) == set(opt.state_dict())


def test_parameters_keep_their_names_and_flags(tmp_path):
    p = Parameter(np.ones(3, "float32"), name="fc.w")
    paddle.save({"p": p}, tmp_path / "p.pdparams")
    back = paddle.load(tmp_path / "p.pdparams")["p"]
    assert back.name == "fc.w" and back.stop_gradient is False


def test_truncated_and_pickled_files_are_rejected(tmp_path):
    path = tmp_path / "x.pdparams"
    paddle.save({"w": paddle.ones([4, 4])}, path)
    data = path.read_bytes()
    path.write_bytes(data[:-7])
    with pytest.raises(CorruptFileError):
        paddle.load(path)
    import pickle
    path.write_bytes(pickle.dumps({"w": np.ones(3)})[:-3])   # a truncated Paddle checkpoint
    with pytest.raises(CorruptFileError):
        paddle.load(path)
