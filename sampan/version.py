"""`paddle.version`: sampan's release, in the fields Paddle's version module has."""
full_version = "0.1.0"
major, minor, patch = full_version.split(".")
rc = "0"
istaged = True
commit = "unknown"
with_mkl = "OFF"

__all__ = ["full_version", "major", "minor", "patch", "rc", "istaged", "commit", "with_mkl",
           "show", "cuda", "cudnn"]


def show():
    """Print the version fields, one per line, as Paddle's `version.show()` does."""
    print(f"full_version: {full_version}\nmajor: {major}\nminor: {minor}\npatch: {patch}\n"
          f"rc: {rc}\ncommit: {commit}\ncuda: {cuda()}\ncudnn: {cudnn()}")


def cuda():
    """The CUDA version sampan was built with: 'False', as it is CPU-only."""
    return "False"


def cudnn():
    """The cuDNN version sampan was built with: 'False', as it is CPU-only."""
    return "False"
