"""Paddle 3's second spelling of Layer's methods (`named_modules`, `zero_grad`,
`load_state_dict`, `get_submodule`, ...), written over Layer's own ones: a mixin of Layer,
so model code written against either spelling runs."""
import collections

__all__ = ["ModuleMethods", "IncompatibleKeys"]


class IncompatibleKeys(collections.namedtuple("IncompatibleKeys",
                                              ["missing_keys", "unexpected_keys"])):
    """load_state_dict's result: the keys not loaded on either side."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()


class ModuleMethods:
    """Layer methods under Paddle 3's torch-style names."""

    def add_module(self, name, module):
        """Register `module` (a Layer, or None to leave the slot empty) under `name`."""
        if module is None:
            self._unregister_name(str(name), keep=self._sub_layers)
            self._sub_layers[str(name)] = None
            return
        self.add_sublayer(name, module)

    register_module = add_module

    def register_parameter(self, name, param):
        """Register `param` (or None) under `name`."""
        self.add_parameter(name, param)

    def get_sublayer(self, target):
        """The sublayer at dotted path `target` ("" is the layer itself)."""
        layer = self
        for part in target.split(".") if target else ():
            child = layer._sub_layers.get(part)
            if child is None:
                raise AttributeError(f"{type(layer).__name__} has no sublayer {part!r} "
                                     f"(looking up {target!r})")
            layer = child
        return layer

    get_submodule = get_sublayer

    def set_sublayer(self, target, layer, strict=False):
        """Put `layer` at dotted path `target`; strict: only replace an existing one."""
        parent_path, _, name = target.rpartition(".")
        parent = self.get_sublayer(parent_path)
        if strict and parent._sub_layers.get(name) is None:
            raise AttributeError(f"{type(parent).__name__} has no sublayer {name!r} to "
                                 f"replace (strict=True)")
        parent.add_sublayer(name, layer)

    set_submodule = set_sublayer

    def _owned(self, target, table, what):
        """The entry `target` ("path.to.layer.name") of each layer's `table`."""
        path, _, name = target.rpartition(".")
        owner = self.get_sublayer(path)
        value = getattr(owner, table).get(name)
        if value is None:
            raise AttributeError(f"{type(owner).__name__} has no {what} {name!r} "
                                 f"(looking up {target!r})")
        return value

    def get_parameter(self, target):
        """The parameter at dotted path `target` ("fc.weight")."""
        return self._owned(target, "_parameters", "parameter")

    def get_buffer(self, target):
        """The buffer at dotted path `target`."""
        return self._owned(target, "_buffers", "buffer")

    def modules(self):
        """The layer and every sublayer, depth first, each once."""
        return iter(self.sublayers(include_self=True))

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(dotted name, layer) of the layer ("") and every sublayer, depth first."""
        return self.named_sublayers(prefix, include_self=True, layers_set=memo,
                                    remove_duplicate=remove_duplicate)

    def zero_grad(self, set_to_none=True):
        """Clear the parameters' gradients (to None, or to zeros)."""
        self.clear_gradients(set_to_zero=not set_to_none)

    def requires_grad_(self, requires_grad=True):
        """Make every parameter trainable (or frozen); returns the layer."""
        for param in self.parameters():
            param.stop_gradient = not requires_grad
        return self

    def cpu(self):
        """The layer (sampan computes on the CPU)."""
        return self

    def type(self, dst_type):
        """Cast the floating parameters and buffers to `dst_type`; returns the layer."""
        self.astype(dst_type)
        return self

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """`hook(layer, inputs, output)` after forward (register_forward_post_hook);
        prepend runs it before the hooks already registered."""
        if with_kwargs or always_call:
            raise NotImplementedError("register_forward_hook: with_kwargs and always_call "
                                      "are not supported by sampan")
        handle = self.register_forward_post_hook(hook)
        if prepend:
            self._forward_post_hooks.move_to_end(handle._id, last=False)
        return handle

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """set_state_dict; strict raises when a key is missing or unexpected. Returns
        (missing_keys, unexpected_keys)."""
        missing, unexpected = self.set_state_dict(state_dict)
        if strict and (missing or unexpected):
            raise RuntimeError(f"load_state_dict of {type(self).__name__}: missing keys "
                               f"{missing}, unexpected keys {unexpected}")
        return IncompatibleKeys(missing, unexpected)

    def to_static_state_dict(self, destination=None, include_sublayers=True,
                             structured_name_prefix="", use_hook=True, keep_vars=True):
        """state_dict (its tensors are the layer's own, as keep_vars asks)."""
        return self.state_dict(destination, include_sublayers, structured_name_prefix,
                               use_hook)
