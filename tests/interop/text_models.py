"""Text models built from either framework's `nn`: Paddle's in fixtures/make_fixtures.py
(the Paddle-written fixtures), sampan's in tests/onnx/test_models.py (ONNX export)."""


def text_models(nn):
    """(TextRNN, Encoder): Layer classes over the module `nn`."""

    class TextRNN(nn.Layer):
        """Embedding, a two-layer (bidirectional) LSTM or GRU, and a classifier."""

        def __init__(self, cell):
            super().__init__()
            self.emb = nn.Embedding(50, 8)
            self.rnn = cell(8, 8, num_layers=2, direction="bidirect")
            self.fc = nn.Linear(16, 3)

        def forward(self, ids):
            out, _ = self.rnn(self.emb(ids))
            return self.fc(out[:, -1])

    class Encoder(nn.Layer):
        """A two-layer Transformer encoder over embedded tokens, mean-pooled."""

        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(50, 16)
            self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 2, 32,
                                                                        dropout=0.1), 2)
            self.fc = nn.Linear(16, 4)

        def forward(self, ids):
            return self.fc(self.enc(self.emb(ids)).mean(axis=1))

    return TextRNN, Encoder
