"""What the vision models share: the refusal of pretrained weights, the classifier tail
(optional global pool, then flatten and classifier when num_classes > 0), channel rounding and
the maker of Paddle's model functions (`resnet18(pretrained=False, **kwargs)`, ...)."""
from ... import tensor as T


def check_pretrained(arch, pretrained):
    """Refuse `pretrained=True`: Paddle downloads ImageNet weights, which cannot happen here."""
    if pretrained:
        raise RuntimeError(
            f"{arch}(pretrained=True): sampan cannot download Paddle's pretrained weights "
            f"(there is no network access to Paddle's model servers). Build the model with "
            f"pretrained=False and load weights you have with "
            f"model.set_state_dict(paddle.load(path)).")


def pool_and_classify(model, x, pool="avgpool", classifier="fc"):
    """The common tail: `model.<pool>` if `with_pool`, then flatten and `model.<classifier>`
    if `num_classes > 0`."""
    if model.with_pool:
        x = getattr(model, pool)(x)
    if model.num_classes > 0:
        x = getattr(model, classifier)(T.flatten(x, 1))
    return x


def make_divisible(value, divisor=8, min_value=None):
    """`value` rounded to the nearest multiple of `divisor` (at least `min_value`, default
    `divisor`), never more than 10% below `value` (MobileNet's channel rounding)."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


def model_function(arch, build, title, **fixed):
    """Paddle's `arch(pretrained=False, **kwargs)`: `build(**kwargs, **fixed)` (the fixed
    arguments win, as in Paddle), refusing pretrained weights."""
    def make(pretrained=False, **kwargs):
        check_pretrained(arch, pretrained)
        return build(**{**kwargs, **fixed})

    return _named(make, arch, build, title, "")


def scaled_model_function(name, build, title, weights_prefix):
    """Paddle's `name(pretrained=False, scale=1.0, **kwargs)`: `build(scale=scale, **kwargs)`
    (MobileNets; Paddle names their weights `weights_prefix + str(scale)`)."""
    def make(pretrained=False, scale=1.0, **kwargs):
        check_pretrained(f"{weights_prefix}{scale}", pretrained)
        return build(scale=scale, **kwargs)

    return _named(make, name, build, title,
                  "    scale (float): channel multiplier (default 1.0).\n")


def _named(make, name, build, title, args_doc):
    make.__name__ = make.__qualname__ = name
    make.__module__ = build.__module__
    make.__doc__ = (f"{title}.\n\n"
                    f"Args:\n"
                    f"    pretrained (bool): must be False: sampan cannot download Paddle's "
                    f"weights.\n{args_doc}"
                    f"    **kwargs: further arguments of {build.__name__}.\n\n"
                    f"Returns:\n    {build.__name__}: the model, freshly initialised.\n\n"
                    f"Example:\n    >>> model = {name}(num_classes=10)\n")
    return make


def uniform_attr(bound):
    """A ParamAttr initialising uniformly on [-bound, bound]."""
    from ...nn import ParamAttr
    from ...nn.initializer import Uniform
    return ParamAttr(initializer=Uniform(-bound, bound))
