"""Common Paddle names exist in sampan's namespaces, so removals are caught."""
import pytest

import sampan as paddle

TOP = """
to_tensor zeros ones full empty arange linspace eye rand randn randint uniform normal randperm
zeros_like ones_like full_like empty_like seed no_grad grad enable_static disable_static
in_dynamic_mode save load Tensor ParamAttr Model set_device get_device set_default_dtype
get_default_dtype float32 float64 int32 int64 bool
add subtract multiply divide pow exp log sqrt rsqrt abs sin cos tan tanh sigmoid floor ceil
round sign clip where maximum minimum sum mean max min prod cumsum cumprod var std argmax
argmin logsumexp matmul bmm dot mm einsum softmax topk sort argsort reshape transpose squeeze
unsqueeze flatten concat stack split chunk unbind gather gather_nd index_select scatter expand
tile flip roll masked_fill masked_select tril triu meshgrid numel isnan isinf isfinite allclose
isclose equal not_equal less_than greater_than logical_and logical_or cast assign add_n
asin acos atan sinh cosh asinh acosh atanh atan2 logit lerp heaviside gcd lcm nan_to_num frac
rad2deg deg2rad stanh count_nonzero diff kron outer cross dist cdist trace diag diagonal real
imag conj multinomial histogram bincount searchsorted bucketize median quantile nonzero unique
take_along_axis put_along_axis index_sample unstack moveaxis crop clone rank is_tensor
create_parameter norm inverse linalg amp nn optimizer static jit io metric
inner rot90 repeat_interleave kthvalue mode nanmean nansum addmm baddbmm index_add index_fill
swapaxes tensordot tensor_split vsplit hsplit dsplit atleast_1d atleast_2d atleast_3d hypot
fmax fmin cummax cummin logcumsumexp add_ subtract_ clip_ scale_ uniform_ normal_ reshape_
logaddexp copysign isin signbit sgn isreal isneginf isposinf is_complex is_floating_point
is_integer is_empty cartesian_prod combinations block_diag diag_embed diagflat vander
trapezoid cumulative_trapezoid renorm take unflatten view view_as unfold masked_scatter
select_scatter slice_scatter diagonal_scatter rand_like randn_like randint_like sinc positive
finfo iinfo version utils
"""

NN = """
Layer Linear Conv1D Conv2D Conv2DTranspose BatchNorm1D BatchNorm2D LayerNorm GroupNorm
Embedding Dropout ReLU GELU Sigmoid Tanh Softmax LeakyReLU Sequential LayerList LayerDict
ParameterList MaxPool2D AvgPool2D AdaptiveAvgPool2D CrossEntropyLoss MSELoss L1Loss BCELoss
BCEWithLogitsLoss NLLLoss SmoothL1Loss KLDivLoss LSTM GRU SimpleRNN LSTMCell GRUCell
SimpleRNNCell MultiHeadAttention TransformerEncoderLayer TransformerEncoder Transformer
Flatten Identity Upsample ClipGradByGlobalNorm
Unfold Fold PixelShuffle PixelUnshuffle Hardshrink Softshrink Tanhshrink GLU
AdaptiveAvgPool1D AdaptiveMaxPool1D RNN BiRNN
Silu SiLU CELU ThresholdedReLU Maxout Softmax2D Unflatten Pad1D Pad3D ZeroPad2D
CosineSimilarity PairwiseDistance MarginRankingLoss HingeEmbeddingLoss SoftMarginLoss
CosineEmbeddingLoss TripletMarginLoss MultiLabelSoftMarginLoss PoissonNLLLoss Bilinear
AlphaDropout ChannelShuffle LocalResponseNorm InstanceNorm1D InstanceNorm3D Conv1DTranspose
RReLU Dropout3D GaussianNLLLoss LPPool1D LPPool2D Softmin MultiMarginLoss ParameterDict
"""

FUNCTIONAL = """
relu gelu sigmoid tanh softmax log_softmax leaky_relu elu selu silu swish mish hardswish
hardsigmoid hardtanh softplus softsign prelu linear dropout embedding one_hot pad normalize
cosine_similarity conv1d conv2d conv2d_transpose max_pool2d avg_pool2d adaptive_avg_pool2d
max_pool1d avg_pool1d batch_norm layer_norm group_norm interpolate cross_entropy mse_loss
l1_loss nll_loss smooth_l1_loss binary_cross_entropy binary_cross_entropy_with_logits kl_div
hardshrink softshrink tanhshrink conv1d_transpose adaptive_avg_pool1d adaptive_max_pool1d
margin_ranking_loss unfold fold pixel_shuffle pixel_unshuffle label_smooth sigmoid_focal_loss
glu gumbel_softmax square_error_cost log_loss hinge_embedding_loss soft_margin_loss
celu thresholded_relu maxout cosine_embedding_loss triplet_margin_loss pairwise_distance
alpha_dropout local_response_norm sequence_mask scaled_dot_product_attention zeropad2d
bilinear channel_shuffle poisson_nll_loss multi_label_soft_margin_loss
rrelu dropout3d gaussian_nll_loss lp_pool1d lp_pool2d softmin multi_margin_loss dice_loss
npair_loss
"""

LINALG = """
norm vector_norm matrix_norm inv det slogdet solve cholesky qr svd eigh eigvalsh matrix_power
pinv matrix_rank cond multi_dot lstsq cross triangular_solve cholesky_solve
"""

AMP = "auto_cast decorate GradScaler"

METHODS = """
numpy item tolist backward clear_grad detach astype reshape transpose sum mean max min abs exp
log matmul unsqueeze squeeze flatten cast clip argmax sort topk split chunk gather expand tile
norm diagonal trace kron outer cross take_along_axis put_along_axis unique nonzero median
quantile moveaxis lerp logit asin acos atan sinh cosh atan2 clone diff count_nonzero frac
zero_ fill_ add_ subtract_ multiply_ divide_ scale_ clip_ uniform_ normal_ copy_ reshape_
squeeze_ unsqueeze_ flatten_ exp_ sqrt_ tanh_ element_size is_contiguous contiguous to
repeat_interleave rot90 cummax cummin kthvalue mode nansum nanmean tensordot index_add
"""

SPACES = [(paddle, TOP), (paddle.nn, NN), (paddle.nn.functional, FUNCTIONAL),
          (paddle.linalg, LINALG), (paddle.amp, AMP), (paddle.Tensor, METHODS)]
NAMES = [(space, name) for space, names in SPACES for name in names.split()]


@pytest.mark.parametrize("space,name", NAMES,
                         ids=[f"{getattr(s, '__name__', s)}.{n}" for s, n in NAMES])
def test_name_exists(space, name):
    """`name` is an attribute of its namespace."""
    assert hasattr(space, name), f"{space.__name__}.{name} is missing"


def test_no_public_function_is_shadowed_by_a_submodule():
    """Importing a submodule binds its name on the package: a module named like a public
    function (say tensor/scatter.py) would replace paddle.scatter with the module."""
    import types

    import sampan
    import sampan.tensor
    shadowed = [name for name in sampan.tensor.__all__
                if isinstance(getattr(sampan.tensor, name), types.ModuleType)
                or isinstance(getattr(sampan, name, None), types.ModuleType)]
    assert not shadowed
