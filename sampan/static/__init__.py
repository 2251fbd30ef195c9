"""Static graph: Program IR, the static mode of the dispatch funnel, and its tools.

The Program IR loads with the package; control flow, the executor, backward, inference-model
I/O, persistence and the other tools load when a name below is first read.
"""
from ..core.lazy import lazy_exports
from .data import create_global_var, create_parameter, data  # `data` names a submodule too
from .framework import Block, Operator, Parameter, Program, Variable
from .input_spec import InputSpec
from .program_state import default_main_program, default_startup_program, program_guard

__all__ = ["append_backward", "gradients", "data", "create_parameter", "create_global_var",
           "Block", "Operator", "Parameter", "Program", "Variable", "InputSpec",
           "default_main_program", "default_startup_program", "program_guard",
           "program_from_json", "program_to_json", "ProgramVerifyError", "cpu_places",
           "device_guard", "name_scope", "cuda_places", "xpu_places",
           "Executor", "global_scope", "scope_guard", "Scope", "BuildStrategy",
           "ExecutionStrategy", "CompiledProgram",
           "save_inference_model", "load_inference_model", "save", "load",
           "load_program_state", "set_program_state", "serialize_program",
           "serialize_persistables", "save_to_file", "deserialize_program",
           "deserialize_persistables", "load_from_file", "normalize_program",
           "ExponentialMovingAverage", "IpuCompiledProgram", "IpuStrategy", "ipu_shard_guard",
           "set_ipu_shard", "accuracy", "auc", "WeightNormParamAttr", "Print", "py_func",
           "setitem", "draw"]
lazy_exports(globals(), {
    ".backward": ["append_backward", "gradients"],
    ".guards": ["cpu_places", "cuda_places", "device_guard", "name_scope", "xpu_places"],
    ".serialize": ["program_from_json", "program_to_json"],
    ".verify": ["ProgramVerifyError"],
    "..executor": ["BuildStrategy", "CompiledProgram", "ExecutionStrategy", "Executor", "Scope",
                   "global_scope", "scope_guard"],
    ".io": ["deserialize_persistables", "deserialize_program", "load_from_file",
            "load_inference_model", "normalize_program", "save_inference_model", "save_to_file",
            "serialize_persistables", "serialize_program"],
    ".persist": ["load", "load_program_state", "save", "set_program_state"],
    ".ema": ["ExponentialMovingAverage"],
    ".ipu": ["IpuCompiledProgram", "IpuStrategy", "ipu_shard_guard", "set_ipu_shard"],
    ".param_attr": ["WeightNormParamAttr"],
    ".metric": ["accuracy", "auc"],
    ".print_op": ["Print"],
    ".item_assign": ["setitem"],
    ".graph_drawing": ["draw"],
    ".py_func": ["py_func"],  # also the submodule's name: load it through this name only
})
