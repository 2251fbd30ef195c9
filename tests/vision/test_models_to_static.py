"""Vision models through to_static: converted inference equals eager, training steps equal
eager's, and jit.save/jit.load serves another batch size."""
import numpy as np
import pytest

import sampan as paddle
from sampan.static import InputSpec
from sampan.vision import models


@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v2", "mobilenet_v3_small",
                                  "squeezenet1_1", "shufflenet_v2_x0_5", "densenet121"])
def test_converted_inference_equals_eager(name):
    paddle.seed(0)
    model = getattr(models, name)(num_classes=10)
    model.eval()
    x = paddle.randn([2, 3, 32, 32])
    np.testing.assert_allclose(paddle.jit.to_static(model)(x).numpy(), model(x).numpy(),
                               rtol=1e-5, atol=1e-6)


def _train(model, forward, steps=2):
    opt = paddle.optimizer.Adam(1e-3, parameters=model.parameters())
    x = paddle.randn([4, 3, 32, 32])
    y = paddle.randint(0, 10, [4, 1])
    losses = []
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(forward(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses


def test_resnet18_trains_as_in_eager_and_saves(tmp_path):
    paddle.seed(1)
    eager = models.resnet18(num_classes=10)
    static = models.resnet18(num_classes=10)
    static.set_state_dict(eager.state_dict())
    paddle.seed(2)
    want = _train(eager, eager)
    paddle.seed(2)
    converted = paddle.jit.to_static(static, input_spec=[InputSpec([None, 3, 32, 32])])
    np.testing.assert_allclose(_train(static, converted), want, rtol=1e-4)
    static.eval()
    paddle.jit.save(converted, str(tmp_path / "resnet18"))
    loaded = paddle.jit.load(str(tmp_path / "resnet18"))
    x = paddle.randn([3, 3, 32, 32])
    np.testing.assert_allclose(loaded(x).numpy(), static(x).numpy(), rtol=1e-5, atol=1e-6)
