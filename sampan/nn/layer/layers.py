"""Layer: the base class of every network block (parameters, buffers, sublayers, hooks)."""
import collections
import re
import warnings

import numpy as np

from ...core import dtype as dtypes
from ...core import unique_name
from ...eager.tensor import Parameter as EagerParameter, Tensor
from ...framework_mode import in_dynamic_mode
from ...static.framework import Parameter as StaticParameter, Variable
from ...static.mode import is_capturing_tensors
from ...core.param_attr import ParamAttr
from .module_methods import ModuleMethods

__all__ = ["Layer", "HookRemoveHelper"]

_PARAM_TYPES = (EagerParameter, StaticParameter)
_TENSOR_TYPES = (Tensor, Variable)


def _snake(name):
    """CamelCase class name → snake_case name scope (BatchNorm2D → batch_norm2d)."""
    words = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", words).lower()


class _TreeEpoch:
    """Bumped by every change of a layer's `training` flag or of a sublayer table, so a
    cache of a layer tree's flags (to_static's program key) knows when to rebuild."""

    value = 0


class _SubLayers(collections.OrderedDict):
    """A layer's sublayer table: every edit bumps _TreeEpoch (containers edit it directly)."""

    def pop(self, key, *default):
        if key in self:
            _TreeEpoch.value += 1
        return super().pop(key, *default)


def _bumping(method):
    """`method` of OrderedDict, bumping _TreeEpoch first."""
    def edit(self, *args, **kwargs):
        _TreeEpoch.value += 1
        return method(self, *args, **kwargs)
    edit.__name__ = method.__name__
    return edit


for _name in ("__setitem__", "__delitem__", "popitem", "clear", "update", "setdefault",
              "move_to_end"):
    setattr(_SubLayers, _name, _bumping(getattr(collections.OrderedDict, _name)))


class HookRemoveHelper:
    """Handle returned by hook registration; `remove()` unregisters the hook."""

    _next_id = [0]

    def __init__(self, hooks):
        self._hooks = hooks
        self._id = HookRemoveHelper._next_id[0]
        HookRemoveHelper._next_id[0] += 1

    def remove(self):
        """Unregister the hook."""
        self._hooks.pop(self._id, None)


class Layer(ModuleMethods):
    """Base class of layers: assign Parameters, Layers and buffers as attributes."""

    def __init__(self, name_scope=None, dtype=None):
        self.__dict__.update(_parameters=collections.OrderedDict(),
                             _sub_layers=_SubLayers(),
                             _buffers=collections.OrderedDict())
        self.training = True
        self._full_name = unique_name.generate(name_scope or _snake(self.__class__.__name__))
        self._dtype = dtype or dtypes.get_default_dtype()
        self._non_persistable_buffer_names = set()
        self._forward_pre_hooks = collections.OrderedDict()
        self._forward_post_hooks = collections.OrderedDict()

    # -- attribute routing ------------------------------------------------------------
    def __setattr__(self, name, value):
        store = self.__dict__.get("_parameters")
        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
        elif isinstance(value, _PARAM_TYPES):
            self._require_init(store, name)
            self._unregister_name(name, keep=store)
            store[name] = value
        elif isinstance(value, Layer):
            self._require_init(store, name)
            self._unregister_name(name, keep=self._sub_layers)
            self._sub_layers[name] = value
        elif value is not None and store is not None and name in store:
            raise TypeError(f"assignment to parameter {name!r} should be a Parameter or "
                            f"None, got {type(value).__name__}")
        elif value is not None and store is not None and name in self._sub_layers:
            raise TypeError(f"assignment to sublayer {name!r} should be a Layer or None, got "
                            f"{type(value).__name__}")
        elif store is not None and name in self._buffers:
            if value is not None and not isinstance(value, _TENSOR_TYPES):
                raise TypeError(f"buffer {name!r} must be a Tensor or None")
            self._set_buffer(name, value)
        elif isinstance(value, Tensor):
            self._require_init(store, name)
            self.register_buffer(name, value, persistable=False)
        else:
            if store is not None:
                self._unregister_name(name)
            if name == "training":
                _TreeEpoch.value += 1
            object.__setattr__(self, name, value)

    def _set_buffer(self, name, value):
        """Rebind buffer `name`. In a Program, a Variable given to a persistable buffer
        Variable is written into it (an assign op), so the new value outlives the run, as
        `self.count = self.count + 1` does eagerly."""
        current = self._buffers[name]
        if isinstance(value, Variable) and value is not current:
            if isinstance(current, Variable) and current.persistable:
                current._take_over(value)
                return
            if current is None and is_capturing_tensors():
                raise RuntimeError(
                    f"{type(self).__name__}.{name} is a buffer set to None in this to_static "
                    f"function; giving it a new Tensor there is not supported (the eager "
                    f"buffer could not follow): assign a Tensor without setting None first")
        self._buffers[name] = value

    @staticmethod
    def _require_init(store, name):
        if store is None:
            raise RuntimeError(f"call super().__init__() before assigning {name!r}")

    def _unregister_name(self, name, keep=None):
        """Drop `name` from every table but `keep` (where a re-assignment keeps its place)."""
        for table in (self._parameters, self._sub_layers, self._buffers):
            if table is not keep:
                table.pop(name, None)
        self.__dict__.pop(name, None)

    def __getattr__(self, name):
        for table in ("_parameters", "_sub_layers", "_buffers"):
            entries = self.__dict__.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __delattr__(self, name):
        if name in self._parameters or name in self._sub_layers or name in self._buffers:
            self._unregister_name(name)
            self._non_persistable_buffer_names.discard(name)
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._sub_layers)
                      | set(self._buffers))

    # -- creation ---------------------------------------------------------------------
    def full_name(self):
        """The layer's unique name (`linear_0`)."""
        return self._full_name

    def create_parameter(self, shape, attr=None, dtype=None, is_bias=False,
                         default_initializer=None):
        """A Parameter built from `attr` (None when attr is False), eager or static."""
        from .. import initializer as init
        attr = ParamAttr._to_attr(attr)
        if attr is False:
            return None
        initializer = (attr.initializer or init.global_initializer(is_bias) or default_initializer
                       or (init.Constant(0.0) if is_bias else init.XavierUniform()))
        name = attr.name or unique_name.generate(self._full_name + (".b" if is_bias else ".w"))
        dt = dtypes.to_dtype(dtype or self._dtype)
        shape = [int(d) for d in shape]
        if in_dynamic_mode():
            param = EagerParameter(initializer._value(shape, dt), name=name,
                                   trainable=attr.trainable)
        else:
            from ...static import create_parameter
            param = create_parameter(shape, dt, name=name, default_initializer=initializer._value)
        return attr._set_on(param)

    def create_variable(self, name=None, persistable=None, dtype=None):
        """An empty Tensor named `<full_name>.<name>`, to be filled (e.g. by assign)."""
        var_name = (f"{self._full_name}.{name}" if name is not None
                    else unique_name.generate(f"{self._full_name}._generated_var"))
        dt = dtypes.to_dtype(dtype or self._dtype)
        if not in_dynamic_mode():
            from ...static import default_main_program
            return default_main_program().current_block().create_var(
                name=var_name, persistable=persistable, dtype=dt.name)
        tensor = Tensor(np.zeros([0], dt.np), name=var_name)
        tensor.persistable = bool(persistable)
        return tensor

    create_tensor = create_variable

    def add_parameter(self, name, parameter):
        """Register `parameter` (or None) under `name`."""
        if parameter is not None and not isinstance(parameter, _PARAM_TYPES):
            raise TypeError(f"parameter {name!r} must be a Parameter")
        self._unregister_name(name, keep=self._parameters)
        self._parameters[name] = parameter
        return parameter

    def add_sublayer(self, name, sublayer):
        """Register `sublayer` under `name` and return it."""
        if not isinstance(sublayer, Layer):
            raise TypeError(f"sublayer {name!r} must be a Layer")
        self._unregister_name(str(name), keep=self._sub_layers)
        self._sub_layers[str(name)] = sublayer
        return sublayer

    def register_buffer(self, name, tensor, persistable=True):
        """Register a state tensor; persistable buffers go into state_dict."""
        if tensor is not None and not isinstance(tensor, _TENSOR_TYPES):
            raise TypeError(f"buffer {name!r} must be a Tensor or None")
        self._unregister_name(name, keep=self._buffers)
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names.discard(name)
        else:
            self._non_persistable_buffer_names.add(name)

    # -- traversal (iterative: a tree thousands of layers deep needs no recursion) -------
    def _walk(self):
        """(dotted path from self, "" for self; layer) of self and every sublayer, depth
        first in table order; a layer shared by two parents comes once per path. A layer
        that contains itself raises ValueError (recursion would never end)."""
        stack, on_path = [("", self, False)], set()
        while stack:
            name, layer, leaving = stack.pop()
            if leaving:
                on_path.discard(id(layer))
                continue
            if id(layer) in on_path:
                raise ValueError(f"layer {name!r} ({type(layer).__name__}) contains itself")
            on_path.add(id(layer))
            yield name, layer
            stack.append((name, layer, True))
            stack.extend((f"{name}.{key}" if name else key, sub, False)
                         for key, sub in reversed(layer._sub_layers.items()) if sub is not None)

    def named_sublayers(self, prefix="", include_self=False, layers_set=None,
                        remove_duplicate=True):
        """(qualified name, layer) of every sublayer, depth first, each once (or once per
        path when not remove_duplicate)."""
        seen = set() if layers_set is None else layers_set
        for name, layer in self._walk():
            if (name or include_self) and (layer not in seen or not remove_duplicate):
                seen.add(layer)
                yield ".".join(part for part in (prefix, name) if part), layer

    def sublayers(self, include_self=False):
        """Every sublayer, depth first."""
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_children(self):
        """(name, layer) of the direct sublayers, each once (a generator, as in Paddle)."""
        seen = set()
        for key, layer in self._sub_layers.items():
            if layer is not None and layer not in seen:
                seen.add(layer)
                yield key, layer

    def children(self):
        """The direct sublayers, each once (a generator, as in Paddle)."""
        for _, layer in self.named_children():
            yield layer

    def _training_flags(self):
        """`training` of this layer and every sublayer, depth first (to_static's program
        key); cached until any layer's flag or sublayer table changes."""
        cached = self.__dict__.get("_flags_cache")
        if cached is None or cached[0] != _TreeEpoch.value:
            flags = tuple(layer.training for layer in self.sublayers(include_self=True))
            cached = self.__dict__["_flags_cache"] = (_TreeEpoch.value, flags)
        return cached[1]

    def _named_members(self, table, prefix, include_sublayers):
        layers = (self.named_sublayers(prefix, include_self=True) if include_sublayers
                  else [(prefix, self)])
        seen = set()
        for layer_prefix, layer in layers:
            for key, value in getattr(layer, table).items():
                if value is None or id(value) in seen:
                    continue
                seen.add(id(value))
                yield (f"{layer_prefix}.{key}" if layer_prefix else key), value

    def named_parameters(self, prefix="", include_sublayers=True):
        """(qualified name, parameter) pairs, each parameter once."""
        return self._named_members("_parameters", prefix, include_sublayers)

    def parameters(self, include_sublayers=True):
        """Every parameter, each once."""
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_buffers(self, prefix="", include_sublayers=True):
        """(qualified name, buffer) pairs."""
        return self._named_members("_buffers", prefix, include_sublayers)

    def buffers(self, include_sublayers=True):
        """Every buffer."""
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    # -- modes, hooks, call -----------------------------------------------------------
    def train(self):
        """Training mode for this layer and its sublayers."""
        for layer in self.sublayers(include_self=True):
            layer.training = True
        return self

    def eval(self):
        """Evaluation mode for this layer and its sublayers."""
        for layer in self.sublayers(include_self=True):
            layer.training = False
        return self

    def register_forward_pre_hook(self, hook):
        """`hook(layer, inputs)` runs before forward; a non-None result replaces inputs."""
        handle = HookRemoveHelper(self._forward_pre_hooks)
        self._forward_pre_hooks[handle._id] = hook
        return handle

    def register_forward_post_hook(self, hook):
        """`hook(layer, inputs, output)` runs after forward; non-None replaces output."""
        handle = HookRemoveHelper(self._forward_post_hooks)
        self._forward_post_hooks[handle._id] = hook
        return handle

    def forward(self, *inputs, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} does not define forward")

    def __call__(self, *inputs, **kwargs):
        if not (self._forward_pre_hooks or self._forward_post_hooks):
            return self.forward(*inputs, **kwargs)
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, inputs)
            if result is not None:
                inputs = result if isinstance(result, tuple) else (result,)
        output = self.forward(*inputs, **kwargs)
        for hook in list(self._forward_post_hooks.values()):
            result = hook(self, inputs, output)
            if result is not None:
                output = result
        return output

    def apply(self, fn):
        """Call `fn(layer)` on every sublayer, then on self (each child's subtree in order,
        the parent after its children)."""
        for _ in self._walk():
            pass  # refuses a layer that contains itself
        stack = [(self, False)]
        while stack:
            layer, children_done = stack.pop()
            if children_done:
                fn(layer)
                continue
            stack.append((layer, True))
            stack.extend((child, False) for child in reversed(list(layer.children())))
        return self

    def clear_gradients(self, set_to_zero=True):
        """Clear the gradient of every trainable parameter."""
        for p in self.parameters():
            if p.trainable and isinstance(p, Tensor):
                p.clear_grad(set_to_zero)

    def to(self, device=None, dtype=None, blocking=None):
        """Cast floating parameters and buffers to `dtype` in place (device: CPU only)."""
        if dtype is not None:
            self._cast_floating(dtype)
        return self

    def _cast_floating(self, dtype, excluded_layers=None):
        """Cast the floating tensors of every layer whose exact type is not excluded."""
        excluded = (excluded_layers if isinstance(excluded_layers, (list, tuple))
                    else [] if excluded_layers is None else [excluded_layers])
        if not all(isinstance(kind, type) for kind in excluded):
            raise TypeError("excluded_layers must be a Layer class or a list of them")
        target = dtypes.to_dtype(dtype)
        for layer in self.sublayers(include_self=True):
            if type(layer) not in excluded:
                layer._cast_own(target)
        return self

    def _cast_own(self, target):
        """Cast this layer's own floating parameters and buffers to `target`."""
        for table in (self._parameters, self._buffers):
            for tensor in table.values():
                if isinstance(tensor, Tensor) and tensor._data.dtype.kind == "f":
                    tensor._set_data(tensor._data.astype(target.np))
        self._dtype = target.name

    def float(self, excluded_layers=None):
        """Floating parameters and buffers to float32, except in `excluded_layers` types."""
        return self._cast_floating("float32", excluded_layers)

    def double(self, excluded_layers=None):
        """Floating parameters and buffers to float64, except in `excluded_layers` types."""
        return self._cast_floating("float64", excluded_layers)

    def float16(self, excluded_layers=None):
        """Floating parameters and buffers to float16, except in `excluded_layers` types."""
        return self._cast_floating("float16", excluded_layers)

    half = float16

    def astype(self, dtype=None):
        """Cast floating parameters and buffers to `dtype` in place; returns the layer."""
        return self.to(dtype=dtype)

    # -- state ------------------------------------------------------------------------
    def _state_items(self, include_sublayers, prefix):
        """(structured name, tensor) in Paddle's state_dict order: this layer's parameters,
        then its persistable buffers, then each sublayer's entries (depth first; a tensor
        shared by two layers appears under both names, as in Paddle)."""
        layers = self._walk() if include_sublayers else [("", self)]
        for name, layer in layers:
            path = f"{prefix}{name}." if name else prefix
            for key, value in layer._parameters.items():
                if value is not None:
                    yield path + key, value
            for key, value in layer._buffers.items():
                if value is not None and key not in layer._non_persistable_buffer_names:
                    yield path + key, value

    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True):
        """Ordered {structured name: tensor} of parameters and persistable buffers; each
        name is `structured_name_prefix` + the dotted path, joined as is (as in Paddle)."""
        result = collections.OrderedDict() if destination is None else destination
        for name, tensor in self._state_items(include_sublayers, structured_name_prefix):
            result[name] = tensor
        return result

    def set_state_dict(self, state_dict, use_structured_name=True):
        """Copy state_dict's values into the parameters and persistable buffers; returns
        (missing_keys, unexpected_keys) as Paddle 3 does: an entry that is absent or has another
        shape is skipped with a warning and listed as missing, and every key of state_dict
        that was not loaded (a wrong-shaped one included) is listed as unexpected. In
        static mode the values go to the global scope; inside a function converted by
        to_static it raises ValueError (the parameters are the Program's inputs there)."""
        if is_capturing_tensors():
            raise ValueError(
                f"{type(self).__name__}.set_state_dict() was called inside a function "
                f"converted by to_static, where parameters are inputs of the Program being "
                f"built and cannot be loaded. This error might happens in dy2static, while "
                f"calling 'set_state_dict' dynamically in 'forward', which is not supported. "
                f"If you only need call 'set_state_dict' once, move it to '__init__'.")
        missing, loaded = [], set()
        for name, tensor in self._state_items(True, ""):
            key = name if use_structured_name else tensor.name
            value = state_dict.get(key)
            array = None if value is None else _as_array(value)
            problem = _load_problem(key, array, tensor)
            if problem:
                warnings.warn(f"Skip loading for {key}: {problem}")
                missing.append(key)
                continue
            loaded.add(key)
            _store(tensor, array)
        return missing, [k for k in state_dict if k not in loaded]

    set_dict = set_state_dict
    load_dict = set_state_dict

    # -- printing ---------------------------------------------------------------------
    def extra_repr(self):
        """Extra text inside the layer's repr."""
        return ""

    def __repr__(self):
        # written in one pass with an explicit stack, each line indented by its depth, so
        # a tree thousands of layers deep neither recurses nor re-copies its sublayers' text
        for _ in self._walk():
            pass  # refuses a layer that contains itself
        parts, stack = [], [(self, 0, "")]
        while stack:
            item, depth, label = stack.pop()
            if isinstance(item, str):
                parts.append(item)
                continue
            pad = "\n" + "  " * depth
            if type(item).__repr__ is not Layer.__repr__:
                parts.append(label + repr(item).replace("\n", pad))
                continue
            children = [(k, v) for k, v in item._sub_layers.items() if v is not None]
            extra = item.extra_repr()
            if "\n" in extra:
                extra = pad + "  " + extra.replace("\n", pad + "  ") + pad
            parts.append(f"{label}{type(item).__name__}({extra}")
            stack.append((pad + ")" if children else ")", depth, ""))
            stack.extend((v, depth + 1, f"{pad}  ({k}): ") for k, v in reversed(children))
        return "".join(parts)


def _load_problem(key, array, tensor):
    """Why a state-dict entry (`array`, None when absent) cannot be loaded into `tensor`
    (None when it can)."""
    if array is None:
        return f"the state dict has no entry {key!r}"
    shape = list(array.shape)
    if shape != list(tensor.shape):
        return f"its value has shape {shape}, but the layer's {key} has {list(tensor.shape)}"
    return None


def _store(tensor, array):
    """Load `array` into parameter or buffer `tensor`: an eager tensor takes a copy over, a
    static Variable's value is set in the global scope (static mode)."""
    if isinstance(tensor, Tensor):
        tensor._set_data(array.astype(tensor._data.dtype, copy=True))
    else:
        from ...static.values import set_variable_value  # loads the executor: lazily
        set_variable_value(tensor, array)


def _as_array(value):
    """A state-dict entry (Tensor or array-like) as a NumPy array."""
    return np.asarray(value._data if isinstance(value, Tensor) else value)
