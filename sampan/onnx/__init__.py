"""paddle.onnx: export a Layer as an ONNX model (needs the `onnx` package: the `onnx`
extra). See docs/interop.md, "ONNX export"."""

__all__ = ["export"]


def export(layer, path, input_spec=None, opset_version=9, **configs):
    """Export `layer`'s forward method as the ONNX model `path + ".onnx"`.

    Args:
        layer: a Layer (or a function, or a layer loaded by `jit.load`).
        path: the file prefix, `dirname/file_prefix`; `.onnx` is appended.
        input_spec: InputSpecs (or example Tensors) of the forward inputs; `None` dims
            become symbolic dims of the ONNX inputs (`batch` for the first).
        opset_version: the ONNX opset (7 to 21; Paddle's default 9). Raised to what the
            model's ops need unless `auto_upgrade_opset=False` is given, which makes a
            too-low opset an error naming each op and the opset it needs.
        **configs: `output_spec` (the outputs kept, as in jit.save), `auto_upgrade_opset`.
    Example:
        >>> model = paddle.nn.Linear(4, 2)
        >>> paddle.onnx.export(model, "linear", [paddle.static.InputSpec([None, 4])])
    """
    from ..interop.onnx.exporter import export as export_onnx
    return export_onnx(layer, path, input_spec, opset_version, **configs)
