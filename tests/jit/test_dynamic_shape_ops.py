"""Ops given sizes known only when the Program runs (`x.shape[i]` of an InputSpec None dim):
expand / broadcast_to / expand_as / tile, slices with run-time bounds, split with run-time
sections and random / filled creation match eager, for several run-time shapes through one
compiled Program, with gradients, and survive jit.save / jit.load."""
import numpy as np
import pytest

import sampan as paddle
from sampan import nn
from sampan.static import InputSpec

SPEC = [InputSpec([None, None, 4], "float32")]
SHAPES = ([2, 3, 4], [5, 2, 4])


DIFFERENTIABLE = {
    "expand": lambda x, token, table: paddle.concat([token.expand([x.shape[0], -1, -1]), x], axis=1),
    "expand_variadic": lambda x, token, table: token.expand(x.shape[0], x.shape[1], 4) * x,
    "expand_new_dims": lambda x, token, table: paddle.expand(token[0, 0], [x.shape[0], x.shape[1], 4]),
    "tile": lambda x, token, table: paddle.tile(token, [x.shape[0], 1, 1]),
    "tile_more_dims": lambda x, token, table: paddle.tile(token[0], [2, x.shape[1], 2, 1]),
    "broadcast_to": lambda x, token, table: paddle.broadcast_to(token, [x.shape[0], 1, 4]) + x[:, :1],
    "expand_as": lambda x, token, table: token.expand_as(x[:, :1, :]),
    "split": lambda x, token, table: paddle.split(x * token, [1, x.shape[1] - 1], axis=1)[1],
    "split_remainder": lambda x, token, table: paddle.split(x, [-1, 1], axis=-2)[0] * token,
    "slice": lambda x, token, table: x[:, 1:x.shape[1]],
    "slice_pos_embed": lambda x, token, table: x + table[:, :x.shape[1]],
    "slice_negative": lambda x, token, table: table[:, -x.shape[1]:] * x,
    "slice_step": lambda x, token, table: table[:, 0:2 * x.shape[1]:2] + x,
    "slice_reverse": lambda x, token, table: table[:, x.shape[1] - 1::-1] + x,
    "slice_reverse_stop": lambda x, token, table: table[:, ::-1][:, :x.shape[1]] + x,
    "slice_clamped": lambda x, token, table: table[:, x.shape[1] - 10:x.shape[1] + 10],
    "slice_with_int_and_none": lambda x, token, table: table[0, None, 1:x.shape[1] + 1] + x[0],
    "slice_ellipsis": lambda x, token, table: x[..., 1:x.shape[1], :] * token,
    "pad_list": lambda x, token, table: paddle.nn.functional.pad(x, [1, 0, x.shape[1], 2]),
    "pad_reflect": lambda x, token, table: paddle.nn.functional.pad(
        x, [x.shape[1] - 1, 1], mode="reflect", data_format="NLC"),
}


def _inputs(shape, seed):
    """x of `shape`, a [1, 1, 4] token and a [1, 8, 4] table, all requiring gradients."""
    rng = np.random.default_rng(seed)
    arrays = (rng.normal(size=shape), np.arange(4).reshape(1, 1, 4) + 1.0,
              np.linspace(-1, 1, 32).reshape(1, 8, 4))
    return [paddle.to_tensor(a.astype("float32"), stop_gradient=False) for a in arrays]


@pytest.mark.parametrize("name", sorted(DIFFERENTIABLE))
def test_outputs_and_gradients_match_eager_at_two_run_time_shapes(name):
    fn = DIFFERENTIABLE[name]
    static = paddle.jit.to_static(fn, input_spec=SPEC + [InputSpec([1, 1, 4], "float32"),
                                                         InputSpec([1, 8, 4], "float32")])
    for k, shape in enumerate(SHAPES):
        inputs = _inputs(shape, k)
        want, got = fn(*inputs), static(*inputs)
        assert got.shape == want.shape and got.dtype == want.dtype
        paddle.jit.check_consistency(static, *inputs)
    assert len(static.program_cache) == 1


def _run_both(fn, shape, seed=3):
    """(eager, to_static) results of fn on an input of `shape`, with the same seed."""
    static = paddle.jit.to_static(fn, input_spec=SPEC)
    x = paddle.ones(shape)
    paddle.seed(seed)
    want = fn(x)
    paddle.seed(seed)
    return want, static(x)


CREATION = {
    "randn": lambda x: paddle.randn([x.shape[0], 2]),
    "rand": lambda x: paddle.rand([x.shape[0], x.shape[1]], dtype="float64"),
    "uniform": lambda x: paddle.uniform([x.shape[1], 3], min=2.0, max=3.0),
    "normal": lambda x: paddle.normal(1.0, 2.0, [x.shape[0], 4]),
    "randn_like": lambda x: paddle.randn_like(x),
    "rand_like": lambda x: paddle.rand_like(x),
    "zeros": lambda x: paddle.zeros([x.shape[0], 2], "int32"),
    "ones": lambda x: paddle.ones([x.shape[1]]),
    "full": lambda x: paddle.full([x.shape[0], x.shape[1]], 2.5),
    "empty": lambda x: paddle.empty([x.shape[1], 2]),
    "shape_tensor": lambda x: paddle.zeros(paddle.shape(x)),
}


@pytest.mark.parametrize("name", sorted(CREATION))
def test_creation_with_run_time_sizes_matches_eager(name):
    for shape in SHAPES:
        want, got = _run_both(CREATION[name], shape)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


@pytest.mark.parametrize("fn", [lambda x: paddle.randint(-2, 3, [x.shape[0], 200]),
                                lambda x: paddle.randint(4, shape=[x.shape[1], 50],
                                                         dtype="int32"),
                                lambda x: paddle.randint_like(x, 0, 5)])
def test_randint_with_run_time_sizes_draws_every_value_in_range(fn):
    for shape in SHAPES:
        want, got = _run_both(fn, shape)
        assert got.shape == want.shape and got.dtype == want.dtype
        assert set(np.unique(got.numpy())) == set(np.unique(want.numpy()))


def test_two_draws_of_one_run_time_shape_differ():
    static = paddle.jit.to_static(lambda x: paddle.randn([x.shape[0], 8]) - paddle.randn(
        [x.shape[0], 8]), input_spec=SPEC)
    assert np.abs(static(paddle.ones([3, 2, 4])).numpy()).min() > 0


def test_setting_through_a_run_time_slice_is_refused():
    def fn(x):
        x[:, :x.shape[1]] = 0.0
        return x

    with pytest.raises(TypeError, match="known only when the Program runs"):
        paddle.jit.to_static(fn, input_spec=SPEC)(paddle.ones([2, 3, 4]))


class TinyViT(nn.Layer):
    """A class token expanded to the batch and position embeddings cut to the length."""

    def __init__(self, dim=4, max_len=9):
        super().__init__()
        self.cls_token = self.create_parameter([1, 1, dim])
        self.pos_embed = self.create_parameter([1, max_len, dim])
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        tokens = self.proj(x)
        cls = self.cls_token.expand([tokens.shape[0], -1, -1])
        h = paddle.concat([cls, tokens], axis=1)
        return h + self.pos_embed[:, :h.shape[1]]


def test_vit_like_layer_saves_and_serves_several_lengths(tmp_path):
    paddle.seed(0)
    model = TinyViT()
    spec = [InputSpec([None, None, 4], "float32")]
    paddle.jit.save(paddle.jit.to_static(model, input_spec=spec), str(tmp_path / "vit"))
    loaded = paddle.jit.load(str(tmp_path / "vit"))
    for shape in ([2, 3, 4], [1, 8, 4]):
        x = paddle.to_tensor(np.random.default_rng(1).normal(size=shape).astype("float32"))
        want = model.forward.dygraph_function(x)
        got = loaded(x)
        assert got.shape == [shape[0], shape[1] + 1, 4]
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def _pad_by_tensor_sizes(x, h, w):
    """F.pad given a Tensor of sizes built by item assignment from input Tensors."""
    sizes = paddle.zeros([4], dtype="int32")
    sizes[3] = h // 2
    sizes[1] = w // 2
    return paddle.nn.functional.pad(x, sizes, data_format="NHWC", value=0.5) * 2.0


@pytest.mark.parametrize("h,w", [(6, 6), (4, 0), (1, 7)])
def test_pad_with_a_tensor_of_sizes_matches_eager(h, w):
    static = paddle.jit.to_static(_pad_by_tensor_sizes)
    results = []
    for fn in (_pad_by_tensor_sizes, static):
        x = paddle.to_tensor(np.random.default_rng(h).normal(size=(1, 3, 5, 2)).astype(
            "float32"), stop_gradient=False)
        out = fn(x, paddle.full([1], h, "int32"), paddle.full([1], w, "int32"))
        (out * out).sum().backward()
        results.append((out.numpy(), x.grad.numpy()))
    (want, want_grad), (got, got_grad) = results
    assert got.shape == (1, 3 + h // 2, 5 + w // 2, 2)
    np.testing.assert_allclose(got, want)
    np.testing.assert_allclose(got_grad, want_grad)


def test_negative_run_time_pad_sizes_are_refused_when_the_program_runs():
    static = paddle.jit.to_static(_pad_by_tensor_sizes)
    from sampan.executor.run import OpError
    with pytest.raises(OpError, match=r"op pad_dynamic failed.*sizes >= 0, got \[0, 1, 0, -2\]"):
        static(paddle.ones([1, 3, 5, 2]), paddle.full([1], -4, "int32"),
               paddle.full([1], 2, "int32"))
