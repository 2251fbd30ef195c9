"""PaddlePaddle's own files: `.pdiparams` tensor streams, `paddle.save` pickles, PIR JSON
and protobuf `ProgramDesc` inference models (read), and the same files written back."""
