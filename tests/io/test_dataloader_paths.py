"""Paddle's module paths under paddle.io.dataloader resolve to the same objects as paddle.io."""
import importlib

import numpy as np
import pytest

import sampan as paddle

PATHS = {
    "collate": ["default_collate_fn", "default_convert_fn"],
    "dataset": ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset",
                "ChainDataset", "ConcatDataset", "Subset", "random_split"],
    "sampler": ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
                "SubsetRandomSampler"],
    "batch_sampler": ["BatchSampler", "DistributedBatchSampler"],
    "worker": ["get_worker_info", "WorkerInfo"],
}


@pytest.mark.parametrize("module", sorted(PATHS))
def test_submodule_names_are_paddle_io_objects(module):
    mod = importlib.import_module(f"sampan.io.dataloader.{module}")
    for name in PATHS[module]:
        assert getattr(mod, name) is getattr(paddle.io, name)


def test_package_exports_and_attribute_access():
    assert paddle.io.dataloader.collate.default_collate_fn is paddle.io.default_collate_fn
    for name in paddle.io.dataloader.__all__:
        assert getattr(paddle.io.dataloader, name) is getattr(paddle.io, name)
    assert importlib.import_module("sampan.io.reader").DataLoader is paddle.io.DataLoader


def test_collate_from_submodule_stacks_samples():
    from sampan.io.dataloader.collate import default_collate_fn
    batch = default_collate_fn([(np.array([1.0, 2.0], "float32"), 0),
                                (np.array([3.0, 4.0], "float32"), 1)])
    np.testing.assert_array_equal(np.asarray(batch[0]), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(np.asarray(batch[1]), [0, 1])
