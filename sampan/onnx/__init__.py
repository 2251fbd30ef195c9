"""paddle.onnx: export a Layer as an ONNX model (needs the `onnx` package: the `onnx`
extra). See docs/interop.md, "ONNX export"."""

__all__ = ["export"]


def export(layer, path, input_spec=None, opset_version=9, **configs):
    """Export `layer` as the ONNX model `path + ".onnx"` (Paddle's signature; the
    documentation is `sampan.interop.onnx.exporter.export`'s)."""
    from ..interop.onnx.exporter import export as export_onnx
    return export_onnx(layer, path, input_spec, opset_version, **configs)
