"""inference.Config(model_dir, prefix): the model `prefix` in directory `model_dir`."""
import numpy as np

import sampan as paddle
from sampan import inference
from sampan.static import InputSpec


def test_directory_and_prefix_name_the_model(tmp_path):
    paddle.seed(0)
    net = paddle.nn.Linear(3, 2)
    paddle.jit.save(net, str(tmp_path / "inference"),
                    input_spec=[InputSpec([None, 3], "float32")])
    config = inference.Config(str(tmp_path), "inference")
    assert config.model_dir() == str(tmp_path)
    assert config.prog_file() == str(tmp_path / "inference.pdmodel")
    assert config.params_file() == str(tmp_path / "inference.pdiparams")
    predictor = inference.create_predictor(config)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    predictor.get_input_handle(predictor.get_input_names()[0]).copy_from_cpu(x)
    predictor.run()
    out = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_allclose(out, net(paddle.to_tensor(x)).numpy(), rtol=1e-6)
