"""`paddle.utils.run_check`: train one tiny step to show the installation works."""


def run_check():
    """Run a forward and backward pass of a small Linear layer on the CPU and print that
    sampan works (raises if the computation fails)."""
    import numpy as np

    import sampan

    print("Running verify sampan program ... ")
    layer = sampan.nn.Linear(2, 1)
    loss = layer(sampan.ones([4, 2])).sum()
    loss.backward()
    if not np.all(np.isfinite(layer.weight.grad.numpy())):
        raise RuntimeError("run_check: the gradient of the test layer is not finite")
    print("sampan works well on 1 CPU.")
    print("sampan is installed successfully! Let's start deep learning with sampan now.")
