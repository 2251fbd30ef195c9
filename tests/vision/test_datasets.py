"""paddle.vision.datasets on synthetic files written into tmp_path; the restricted reader of
CIFAR's pickles; the image backend."""
import gzip
import io
import os
import pickle
import struct
import tarfile

import numpy as np
import pytest

import sampan as paddle
from sampan.vision import datasets as D
from sampan.vision import image as vision_image
from sampan.vision import transforms as T
from sampan.vision.datasets import _source
from sampan.vision.datasets.pickled_batches import UnsafePickleError, load_batch

rng = np.random.default_rng(0)


def write_idx(path, magic, dims, payload):
    with gzip.open(path, "wb") as f:
        f.write(struct.pack(f">{1 + len(dims)}I", magic, *dims) + payload.tobytes())
    return str(path)


@pytest.fixture
def mnist_files(tmp_path):
    images = rng.integers(0, 256, (3, 5, 4), dtype=np.uint8)
    labels = np.array([7, 0, 9], np.uint8)
    return (write_idx(tmp_path / "img.gz", 2051, images.shape, images),
            write_idx(tmp_path / "lab.gz", 2049, labels.shape, labels), images, labels)


@pytest.mark.parametrize("cls", [D.MNIST, D.FashionMNIST])
def test_mnist_reads_idx_files(mnist_files, cls):
    image_path, label_path, images, labels = mnist_files
    data = cls(image_path=image_path, label_path=label_path, mode="test", backend="cv2")
    assert len(data) == 3
    img, label = data[2]
    assert img.dtype == np.float32 and img.shape == (5, 4)
    np.testing.assert_array_equal(img, images[2])
    assert label.dtype == np.int64 and label.shape == (1,) and label[0] == 9
    # the default (Paddle's PIL) mode hands the transform uint8 pixels: ToTensor scales
    # them to [0, 1] before Normalize, as in Paddle 3.3.1
    transformed = cls(image_path=image_path, label_path=label_path,
                      transform=T.Compose([T.ToTensor(), T.Normalize([127.5], [127.5])]))
    tensor, _ = transformed[0]
    assert tensor.shape == [1, 5, 4] and tensor.dtype == paddle.float32
    np.testing.assert_allclose(tensor.numpy()[0], (images[0] / 255 - 127.5) / 127.5, rtol=1e-6)
    plain, _ = cls(image_path=image_path, label_path=label_path)[0]
    assert plain.dtype == np.float32 and plain.shape == (5, 4)
    np.testing.assert_array_equal(plain, images[0])
    cv2_mode = cls(image_path=image_path, label_path=label_path, backend="cv2",
                   transform=T.ToTensor())
    np.testing.assert_array_equal(cv2_mode[0][0].numpy()[0], images[0])  # float: unscaled


def test_mnist_works_with_dataloader(mnist_files):
    image_path, label_path, _, labels = mnist_files
    data = D.MNIST(image_path=image_path, label_path=label_path, transform=T.ToTensor())
    x, y = next(iter(paddle.io.DataLoader(data, batch_size=3)))
    assert x.shape == [3, 1, 5, 4] and y.numpy().ravel().tolist() == labels.tolist()


def test_mnist_refuses_bad_files(tmp_path, mnist_files):
    image_path, label_path, images, _ = mnist_files
    bad_magic = write_idx(tmp_path / "bad.gz", 1234, images.shape, images)
    with pytest.raises(ValueError, match="magic"):
        D.MNIST(image_path=bad_magic, label_path=label_path)
    truncated = write_idx(tmp_path / "short.gz", 2051, (4, 5, 4), images)
    with pytest.raises(ValueError, match="declares"):
        D.MNIST(image_path=truncated, label_path=label_path)
    huge = write_idx(tmp_path / "huge.gz", 2051, (2 ** 31, 2 ** 16, 2 ** 16), images)
    with pytest.raises(ValueError, match="declares"):
        D.MNIST(image_path=huge, label_path=label_path)
    with pytest.raises(ValueError, match="pil"):
        D.MNIST(image_path=image_path, label_path=label_path, backend="pil")


def test_missing_files_explain_there_is_no_download(tmp_path, monkeypatch):
    monkeypatch.setattr(_source, "CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(RuntimeError, match="no network access.*train-images-idx3-ubyte.gz"):
        D.MNIST(mode="train")
    with pytest.raises(RuntimeError, match="cifar-10-python.tar.gz"):
        D.Cifar10()
    with pytest.raises(ValueError, match="downloading automatically is disabled"):
        D.FashionMNIST(download=False)
    with pytest.raises(FileNotFoundError, match="nowhere"):
        D.Cifar100(data_file=str(tmp_path / "nowhere.tar.gz"))


def test_cached_download_is_used(tmp_path, monkeypatch, mnist_files):
    image_path, label_path, _, _ = mnist_files
    cache = tmp_path / "cache" / "mnist"
    cache.mkdir(parents=True)
    os.replace(image_path, cache / "t10k-images-idx3-ubyte.gz")
    os.replace(label_path, cache / "t10k-labels-idx1-ubyte.gz")
    monkeypatch.setattr(_source, "CACHE_DIR", str(tmp_path / "cache"))
    assert len(D.MNIST(mode="test")) == 3


def write_cifar(path, members):
    with tarfile.open(path, "w:gz") as tar:
        for name, payload in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(payload)
            tar.addfile(info, io.BytesIO(payload))
    return str(path)


def cifar_batch(n, label_key="labels", protocol=2):
    batch = {b"batch_label": b"synthetic", label_key.encode(): list(range(n)),
             b"data": rng.integers(0, 256, (n, 3072), dtype=np.uint8),
             b"filenames": [b"img%d.png" % i for i in range(n)]}
    return batch, pickle.dumps(batch, protocol=protocol)


def test_cifar10_reads_python_batches(tmp_path):
    b1, p1 = cifar_batch(2, protocol=2)
    b2, p2 = cifar_batch(3, protocol=4)
    test, pt = cifar_batch(1, protocol=5)
    path = write_cifar(tmp_path / "c10.tar.gz", {
        "cifar-10-batches-py/data_batch_2": p2, "cifar-10-batches-py/data_batch_1": p1,
        "cifar-10-batches-py/test_batch": pt, "cifar-10-batches-py/readme.html": b"<html>"})
    train = D.Cifar10(data_file=path, mode="train")
    assert len(train) == 5
    img, label = train[3]
    assert img.shape == (32, 32, 3) and img.dtype == np.float32
    np.testing.assert_array_equal(img, b2[b"data"][1].reshape(3, 32, 32).transpose(1, 2, 0))
    assert label.dtype == np.int64 and int(label) == 1
    tensor, _ = D.Cifar10(data_file=path, mode="test", transform=T.ToTensor())[0]
    assert tensor.shape == [3, 32, 32]
    np.testing.assert_allclose(tensor.numpy(), test[b"data"][0].reshape(3, 32, 32) / 255.0,
                               rtol=1e-6)


def test_cifar100_uses_fine_labels(tmp_path):
    batch, payload = cifar_batch(2, label_key="fine_labels")
    path = write_cifar(tmp_path / "c100.tar.gz", {"cifar-100-python/train": payload,
                                                  "cifar-100-python/test": payload})
    data = D.Cifar100(data_file=path, mode="train")
    assert len(data) == 2 and int(data[1][1]) == 1


class Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_malicious_pickles_are_refused_without_running(tmp_path):
    marker = tmp_path / "pwned"
    payloads = [pickle.dumps(Evil(marker), protocol=p) for p in (0, 2, 4, 5)]
    payloads.append(pickle.dumps({b"data": Evil(marker)}, protocol=2))
    for payload in payloads:
        with pytest.raises(UnsafePickleError, match="refusing"):
            load_batch(payload)
    path = write_cifar(tmp_path / "evil.tar.gz", {"x/data_batch_1": payloads[-1]})
    with pytest.raises(UnsafePickleError, match="posix.system|os.system|nt.system"):
        D.Cifar10(data_file=path)
    assert not marker.exists()


def test_reader_refuses_object_arrays_and_bad_sizes():
    with pytest.raises(UnsafePickleError, match="dtype"):
        load_batch(pickle.dumps({b"data": np.array([1, "a"], dtype=object)}, protocol=2))
    good = pickle.dumps({b"data": np.zeros(4, np.uint8)}, protocol=2)
    lying = good.replace(b"K\x04\x85", b"K\x05\x85")  # shape (4,) -> (5,)
    assert lying != good
    with pytest.raises(UnsafePickleError, match="needs 5 bytes"):
        load_batch(lying)
    with pytest.raises(UnsafePickleError, match="malformed"):
        load_batch(good[:-5])
    with pytest.raises(UnsafePickleError, match="builtins.eval"):
        load_batch(pickle.dumps(eval, protocol=4))


def test_reader_matches_pickle_on_plain_data():
    python2_style = b"\x80\x02}q\x00(U\x04dataq\x01K\x05U\x06labelsq\x02]q\x03(K\x01K\x02eu."
    assert load_batch(python2_style) == pickle.loads(python2_style, encoding="bytes")
    value = {"a": [1, 2.5, None, True], b"b": (b"xy", "z"), "c": np.arange(6.0).reshape(2, 3)}
    for protocol in (0, 2, 4, 5):
        out = load_batch(pickle.dumps(value, protocol=protocol))
        assert out["a"] == value["a"] and out[b"b"] == value[b"b"]
        np.testing.assert_array_equal(out["c"], value["c"])
        assert out["c"].dtype == np.float64


def make_tree(root, files):
    for name, array in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if array is None:
            path.write_text("not an image")
        else:
            np.save(path, array)


def test_dataset_folder(tmp_path):
    a, b = np.zeros((2, 2, 3), np.uint8), np.ones((2, 2, 3), np.uint8)
    make_tree(tmp_path, {"cat/1.npy": a, "dog/deep/2.npy": b, "dog/3.npy": a,
                         "notes.txt": None, "dog/readme.txt": None})
    folder = D.DatasetFolder(str(tmp_path))
    assert folder.classes == ["cat", "dog"] and folder.class_to_idx == {"cat": 0, "dog": 1}
    assert [os.path.relpath(p, tmp_path) for p, _ in folder.samples] == [
        "cat/1.npy", "dog/3.npy", "dog/deep/2.npy"]
    assert folder.targets == [0, 1, 1]
    sample, target = folder[2]
    np.testing.assert_array_equal(sample, b)
    assert target == 1
    tensors = D.DatasetFolder(str(tmp_path), transform=T.ToTensor())
    assert tensors[0][0].shape == [3, 2, 2]
    texts = D.DatasetFolder(str(tmp_path), loader=lambda p: open(p).read(),
                            extensions=(".txt",))
    assert texts[0] == ("not an image", 1)
    with pytest.raises(ValueError, match="Both extensions and is_valid_file"):
        D.DatasetFolder(str(tmp_path), extensions=(".npy",), is_valid_file=lambda p: True)
    with pytest.raises(RuntimeError, match="Found 0"):
        D.DatasetFolder(str(tmp_path), extensions=(".png",))


def test_image_folder_and_undecodable_formats(tmp_path):
    make_tree(tmp_path, {"x.npy": np.zeros((1, 1)), "sub/y.npy": np.ones((1, 1))})
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8")
    folder = D.ImageFolder(str(tmp_path))
    assert len(folder) == 3
    assert isinstance(folder[2], list) and folder[2][0].shape == (1, 1)
    with pytest.raises(ValueError, match="cannot decode.*photo.jpg"):
        folder[0]


def test_image_backend(tmp_path):
    np.save(tmp_path / "img.npy", np.zeros((2, 3, 3), np.uint8))
    assert paddle.vision.get_image_backend() == "cv2"
    assert paddle.vision.image_load(str(tmp_path / "img.npy")).shape == (2, 3, 3)
    assert isinstance(paddle.vision.image_load(str(tmp_path / "img.npy"), "tensor"),
                      paddle.Tensor)
    with pytest.raises(ValueError, match="PIL"):
        paddle.vision.set_image_backend("pil")
    try:
        paddle.vision.set_image_backend("tensor")
        assert vision_image.get_image_backend() == "tensor"
    finally:
        paddle.vision.set_image_backend("cv2")


def test_jpeg_datasets_say_why_they_are_missing():
    with pytest.raises(AttributeError, match="JPEG"):
        paddle.vision.datasets.Flowers
    with pytest.raises(AttributeError, match="no attribute"):
        paddle.vision.datasets.NoSuchSet
