"""BuildStrategy (which compile passes run), ExecutionStrategy (threads), CompiledProgram."""

__all__ = ["BuildStrategy", "ExecutionStrategy", "CompiledProgram"]

import warnings

_PASS_FIELDS = ("enable_dce", "enable_constant_folding", "enable_cse",
                "fuse_elewise_add_act_ops", "fuse_bn_act_ops", "enable_inplace",
                "memory_optimize", "debug_poison_freed")
# options that act but are no pass switch (not part of the plan cache key)
_OTHER_FIELDS = ("debug_graphviz_path",)

# Paddle's other build options, with their defaults: accepted and kept, with no effect here
# (single-process CPU execution has no CINN, graph fusions beyond the passes above, devices
# or trainers to configure). Setting one to another value warns once per option.
_ACCEPTED_OPTIONS = {
    "build_cinn_pass": False, "enable_sequential_execution": False,
    "enable_auto_fusion": False, "enable_addto": False, "fuse_adamw": False,
    "fuse_bn_add_act_ops": True, "fuse_broadcast_ops": False,
    "fuse_gemm_epilogue": False, "fuse_dot_product_attention": False, "fuse_resunit": False,
    "fuse_relu_depthwise_conv": False, "fuse_all_optimizer_ops": False,
    "fuse_all_reduce_ops": False, "sync_batch_norm": False, "remove_unnecessary_lock": True,
    "allow_cuda_graph_capture": False, "enable_backward_optimizer_op_deps": True,
    "num_trainers": 1, "trainer_id": 0, "reduce_strategy": 0, "gradient_scale_strategy": 0,
}


_WARNED = set()


def _warn_no_effect(name, value):
    """Warn (once per option) that an option set away from its default does nothing."""
    if value != _ACCEPTED_OPTIONS[name] and name not in _WARNED:
        _WARNED.add(name)
        warnings.warn(f"BuildStrategy.{name} = {value!r} has no effect in sampan (one CPU "
                      f"process; the options that act here: "
                      f"{', '.join(_PASS_FIELDS + _OTHER_FIELDS)})",
                      stacklevel=3)


class _ReduceStrategy:
    """Paddle's BuildStrategy.ReduceStrategy members (one process: all mean the same)."""

    AllReduce = 0
    Reduce = 1
    _NoReduce = 2


class _GradientScaleStrategy:
    """Paddle's BuildStrategy.GradientScaleStrategy members."""

    CoeffNumDevice = 0
    One = 1
    Customized = 2


class BuildStrategy:
    """Boolean switches for the compile passes (Paddle-like names); Paddle's other options
    are accepted, and warn once that they have no effect when set to another value."""

    ReduceStrategy = _ReduceStrategy
    GradientScaleStrategy = _GradientScaleStrategy

    def __init__(self, **fields):
        for name, value in _ACCEPTED_OPTIONS.items():
            object.__setattr__(self, name, value)
        self.enable_dce = True
        self.enable_constant_folding = True
        self.enable_cse = True
        self.fuse_elewise_add_act_ops = False
        self.fuse_bn_act_ops = False
        self.enable_inplace = True
        self.memory_optimize = True
        self.debug_poison_freed = False
        self.debug_graphviz_path = ""
        for name, value in fields.items():
            setattr(self, name, value)

    @property
    def enable_fusion(self):
        """Alias of fuse_elewise_add_act_ops."""
        return self.fuse_elewise_add_act_ops

    @enable_fusion.setter
    def enable_fusion(self, value):
        self.fuse_elewise_add_act_ops = bool(value)

    def __setattr__(self, name, value):
        if name in _ACCEPTED_OPTIONS:
            _warn_no_effect(name, value)
            object.__setattr__(self, name, value)
            return
        if name in _OTHER_FIELDS:
            object.__setattr__(self, name, value)
            return
        if name not in _PASS_FIELDS and name != "enable_fusion":
            raise AttributeError(f"BuildStrategy has no option {name!r}; options: "
                                 f"{[*_PASS_FIELDS, *_OTHER_FIELDS, 'enable_fusion']} and "
                                 f"Paddle's {list(_ACCEPTED_OPTIONS)}")
        object.__setattr__(self, name, value)
        object.__setattr__(self, "_key", tuple(bool(getattr(self, f, False))
                                               for f in _PASS_FIELDS))

    def key(self):
        """Hashable summary (part of the plan cache key)."""
        return self._key

    def __repr__(self):
        return "BuildStrategy(" + ", ".join(f"{f}={getattr(self, f)}" for f in _PASS_FIELDS) + ")"


class ExecutionStrategy:
    """num_threads > 1 selects the parallel scheduler with that many workers."""

    def __init__(self, num_threads=1):
        self.num_threads = num_threads
        self.num_iteration_per_drop_scope = 1


class CompiledProgram:
    """A Program plus the strategies Executor.run should compile it with."""

    def __init__(self, program_or_graph, build_strategy=None, exec_strategy=None):
        self._program = program_or_graph
        self._build_strategy = build_strategy
        self._exec_strategy = exec_strategy

    @property
    def program(self):
        return self._program
