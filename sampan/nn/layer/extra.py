"""More of paddle.nn: Unfold/Fold, pixel (un)shuffle, shrink activations,
the RNN/BiRNN wrappers that run any cell over time, and paddle.create_parameter."""
from ...ops._generated import api
from .. import functional as F
from ..functional import extra as FX
from .activation import _activation
from .layers import Layer
from .recurrence import run_loop, run_steps, time_steps, time_unknown, to_time_major
from .rnn import RNNCellBase

__all__ = ["Unfold", "Fold", "PixelShuffle", "PixelUnshuffle", "Hardshrink", "Softshrink",
           "GLU", "ChannelShuffle", "RNN", "BiRNN"]

Hardshrink = _activation("Hardshrink", FX.hardshrink, threshold=0.5)
Softshrink = _activation("Softshrink", FX.softshrink, threshold=0.5)
GLU = _activation("GLU", FX.glu, axis=-1)


class _Call(Layer):
    """A layer calling `_fn(x, *args)` with the keyword `args` its constructor gives (in
    `_fn`'s order); `_repr` formats them by name into Paddle's summary."""

    _fn = None
    _repr = ""

    def __init__(self, **args):
        super().__init__()
        self._named = args

    def forward(self, x):
        return type(self)._fn(x, *self._named.values())

    def extra_repr(self):
        return self._repr.format(**self._named)


class _Shuffle(_Call):
    """Pixel/channel shuffles: as in Paddle, the summary names a layout other than NCHW."""

    def extra_repr(self):
        layout = self._named["data_format"]
        text = super().extra_repr()
        return text if layout == "NCHW" else f"{text}, data_format={layout}"


_WINDOW_REPR = ("kernel_size={kernel_sizes}, dilation={dilations}, padding={paddings}, "
                "stride={strides}")


class Unfold(_Call):
    """Layer form of nn.functional.unfold (im2col)."""

    _fn = staticmethod(FX.unfold)
    _repr = _WINDOW_REPR

    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__(kernel_sizes=kernel_sizes, strides=strides, paddings=paddings,
                         dilations=dilations)


class Fold(_Call):
    """Layer form of nn.functional.fold (col2im)."""

    _fn = staticmethod(FX.fold)
    _repr = _WINDOW_REPR

    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1,
                 name=None):
        super().__init__(output_sizes=output_sizes, kernel_sizes=kernel_sizes, strides=strides,
                         paddings=paddings, dilations=dilations)


class PixelShuffle(_Shuffle):
    """Layer form of nn.functional.pixel_shuffle."""

    _fn = staticmethod(FX.pixel_shuffle)
    _repr = "upscale_factor={upscale_factor}"

    def __init__(self, upscale_factor, data_format="NCHW", name=None):
        super().__init__(upscale_factor=upscale_factor, data_format=data_format)


class PixelUnshuffle(_Shuffle):
    """Layer form of nn.functional.pixel_unshuffle."""

    _fn = staticmethod(FX.pixel_unshuffle)
    _repr = "downscale_factor={downscale_factor}"

    def __init__(self, downscale_factor, data_format="NCHW", name=None):
        super().__init__(downscale_factor=downscale_factor, data_format=data_format)


class ChannelShuffle(_Shuffle):
    """Layer form of nn.functional.channel_shuffle."""

    _fn = staticmethod(F.channel_shuffle)
    _repr = "groups={groups}"

    def __init__(self, groups, data_format="NCHW", name=None):
        super().__init__(groups=groups, data_format=data_format)


# ---------------------------------------------------------------- RNN wrappers

def _initial_states(cell, inputs, time_major):
    """An RNNCellBase's own initial states (Paddle's RNN asks the cell for them), or None
    for a cell that makes its zero states itself or declares no state_shape."""
    if not isinstance(cell, RNNCellBase):
        return None
    try:
        return cell.get_initial_states(inputs, batch_dim_idx=1 if time_major else 0)
    except NotImplementedError:
        return None


def _run_cell(cell, inputs, states, time_major, reverse, sequence_length):
    """Run cell over the time axis (padded sequences when `sequence_length` is given);
    returns (stacked outputs, final states)."""
    if states is None:
        states = _initial_states(cell, inputs, time_major)
    if time_unknown(inputs, time_major):
        out, states = run_loop(cell, to_time_major(inputs, time_major), states, reverse,
                               sequence_length)
    else:
        steps = time_steps(inputs, time_major, type(cell).__name__)
        outputs, states = run_steps(cell, steps, states, reverse, sequence_length)
        out = api.stack(outputs, 0)
    if not time_major:
        out = api.transpose(out, [1, 0] + list(range(2, len(out.shape))))
    return out, states


class RNN(Layer):
    """Run a cell (forward(x_t, states) -> (out_t, states)) over every time step."""

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        self.cell = cell
        self.is_reverse, self.time_major = is_reverse, time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return _run_cell(self.cell, inputs, initial_states, self.time_major, self.is_reverse,
                         sequence_length)


class BiRNN(Layer):
    """A forward and a backward cell over time; outputs concatenated on the last axis."""

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        self.cell_fw, self.cell_bw = cell_fw, cell_bw
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        fw_state, bw_state = initial_states if initial_states is not None else (None, None)
        out_fw, final_fw = _run_cell(self.cell_fw, inputs, fw_state, self.time_major, False,
                                     sequence_length)
        out_bw, final_bw = _run_cell(self.cell_bw, inputs, bw_state, self.time_major, True,
                                     sequence_length)
        return api.concat([out_fw, out_bw], -1), (final_fw, final_bw)


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    """paddle.create_parameter: an eager Parameter, or a static one in static mode."""
    from ...core.param_attr import ParamAttr
    if name is not None and attr is None:
        attr = ParamAttr(name=name)
    helper = Layer(name_scope="create_parameter")
    return helper.create_parameter(shape, attr, dtype, is_bias, default_initializer)
