"""Sequential, LayerList, LayerDict, ParameterList."""
import collections

from ...tensor.tensor_lists import tensor_list
from .layers import Layer

__all__ = ["Sequential", "LayerList", "LayerDict", "ParameterList", "ParameterDict"]


class _PositionalLayers:
    """append / extend / insert of sublayers named by their positions ("0", "1", ...),
    shared by Sequential and LayerList; each returns the container."""

    def append(self, layer):
        """Add `layer` at the end."""
        self.add_sublayer(str(len(self)), layer)
        return self

    def extend(self, layers):
        """Add each of `layers` at the end."""
        for layer in layers:
            self.append(layer)
        return self

    def insert(self, index, layer):
        """Insert `layer` before position `index` (negative counts from the end); the
        layers are then named by their positions."""
        if not -len(self) <= index <= len(self):
            raise IndexError(f"{type(self).__name__}.insert: index {index} out of range "
                             f"for {len(self)} layers")
        layers = list(self._sub_layers.values())
        layers.insert(index, layer)
        self._sub_layers.clear()
        return self.extend(layers)


class Sequential(_PositionalLayers, Layer):
    """Calls its sublayers in order; built from layers or (name, layer) pairs."""

    def __init__(self, *layers):
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], (dict, collections.OrderedDict)):
            layers = tuple(layers[0].items())
        for index, item in enumerate(layers):
            name, layer = item if isinstance(item, (list, tuple)) else (str(index), item)
            self.add_sublayer(name, layer)

    def __getitem__(self, index):
        layers = list(self._sub_layers.values())
        if isinstance(index, slice):
            return Sequential(*layers[index])
        if isinstance(index, str):
            return self._sub_layers[index]
        return layers[index]

    def __setitem__(self, index, layer):
        self._sub_layers[list(self._sub_layers)[index]] = layer

    def __delitem__(self, index):
        del self._sub_layers[list(self._sub_layers)[index]]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def forward(self, x):
        for layer in self._sub_layers.values():
            x = layer(x)
        return x


class LayerList(_PositionalLayers, Layer):
    """A list of sublayers registered as "0", "1", ..."""

    def __init__(self, sublayers=None):
        super().__init__()
        for layer in sublayers or ():
            self.append(layer)

    def _key(self, index):
        keys = list(self._sub_layers)
        return keys[index]

    def __getitem__(self, index):
        if isinstance(index, slice):
            return LayerList(list(self._sub_layers.values())[index])
        return self._sub_layers[self._key(index)]

    def __setitem__(self, index, layer):
        self._sub_layers[self._key(index)] = layer

    def __delitem__(self, index):
        layers = list(self._sub_layers.values())
        del layers[index]
        self._sub_layers.clear()
        self.extend(layers)

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())



class LayerDict(Layer):
    """An ordered dict of sublayers."""

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, layer):
        self.add_sublayer(key, layer)

    def __delitem__(self, key):
        del self._sub_layers[key]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers)

    def __contains__(self, key):
        return key in self._sub_layers

    def keys(self):
        """Layer names."""
        return self._sub_layers.keys()

    def values(self):
        """Layers."""
        return self._sub_layers.values()

    def items(self):
        """(name, layer) pairs."""
        return self._sub_layers.items()

    def pop(self, key):
        """Remove and return a layer."""
        return self._sub_layers.pop(key)

    def clear(self):
        """Remove every layer."""
        self._sub_layers.clear()

    def update(self, sublayers):
        """Add layers from a dict or (name, layer) pairs."""
        items = sublayers.items() if hasattr(sublayers, "items") else sublayers
        for key, layer in items:
            self.add_sublayer(key, layer)


class ParameterList(Layer):
    """A list of parameters registered as "0", "1", ..."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            for param in tensor_list(parameters, "parameters", "ParameterList"):
                self.append(param)

    def __getitem__(self, index):
        return list(self._parameters.values())[index]

    def __setitem__(self, index, param):
        self._parameters[list(self._parameters)[index]] = param

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, parameter):
        """Add a parameter at the end."""
        self.add_parameter(str(len(self)), parameter)
        return self


class ParameterDict(Layer):
    """Parameters registered under string keys (insertion order kept)."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, param):
        self.add_parameter(key, param)

    def __delitem__(self, key):
        del self._parameters[key]

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def __contains__(self, key):
        return key in self._parameters

    def keys(self):
        """The keys, in insertion order."""
        return self._parameters.keys()

    def values(self):
        """The parameters, in insertion order."""
        return self._parameters.values()

    def items(self):
        """(key, parameter) pairs, in insertion order."""
        return self._parameters.items()

    def update(self, parameters):
        """Add (or replace) the entries of a mapping or of an iterable of (key, param)."""
        pairs = parameters.items() if hasattr(parameters, "items") else parameters
        for key, param in pairs:
            self.add_parameter(key, param)
