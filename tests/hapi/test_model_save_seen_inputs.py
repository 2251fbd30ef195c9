"""Model.save(path, training=False) after fit without `inputs=` exports with the input
shapes and dtypes fit saw (batch size free), as Paddle does."""
import numpy as np

import sampan as paddle


class Pairs(paddle.io.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return np.full(4, i, "float32"), np.array([i % 3], "int64")


def test_inference_export_after_fit_takes_the_seen_input_shape(tmp_path):
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 3))
    model = paddle.Model(net)
    model.prepare(paddle.optimizer.SGD(0.1, parameters=net.parameters()),
                  paddle.nn.CrossEntropyLoss())
    model.fit(Pairs(), epochs=1, batch_size=4, verbose=0)
    model.save(str(tmp_path / "inference"), training=False)
    loaded = paddle.jit.load(str(tmp_path / "inference"))
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(3, 4))
    net.eval()
    np.testing.assert_allclose(loaded(x).numpy(), net(x).numpy(), rtol=1e-6)
