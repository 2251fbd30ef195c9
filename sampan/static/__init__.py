"""Static graph: Program IR, the static mode of the dispatch funnel, and its tools."""
from .backward import append_backward, gradients
from .data import create_global_var, create_parameter, data
from .guards import cpu_places, cuda_places, device_guard, name_scope, xpu_places
from .framework import Block, Operator, Parameter, Program, Variable
from .input_spec import InputSpec
from .program_state import default_main_program, default_startup_program, program_guard
from .serialize import program_from_json, program_to_json
from .verify import ProgramVerifyError

__all__ = ["append_backward", "gradients", "data", "create_parameter", "create_global_var",
           "Block", "Operator", "Parameter", "Program", "Variable", "InputSpec",
           "default_main_program", "default_startup_program", "program_guard",
           "program_from_json", "program_to_json", "ProgramVerifyError", "cpu_places",
           "device_guard", "name_scope", "cuda_places", "xpu_places"]
from ..executor import (BuildStrategy, CompiledProgram, ExecutionStrategy, Executor, Scope,
                        global_scope, scope_guard)

__all__ += ["Executor", "global_scope", "scope_guard", "Scope", "BuildStrategy",
            "ExecutionStrategy", "CompiledProgram"]
from . import nn  # noqa: E402  (static control flow: static.nn.cond, while_loop, ...)
from .io import (deserialize_persistables, deserialize_program,  # noqa: E402
                 load_from_file, load_inference_model, normalize_program, save_inference_model,
                 save_to_file, serialize_persistables, serialize_program)
from .persist import load, load_program_state, save, set_program_state  # noqa: E402
from .ema import ExponentialMovingAverage  # noqa: E402
from .ipu import IpuCompiledProgram, IpuStrategy, ipu_shard_guard, set_ipu_shard  # noqa: E402
from .metric import accuracy, auc  # noqa: E402
from .param_attr import WeightNormParamAttr  # noqa: E402
from .print_op import Print  # noqa: E402
from .py_func import py_func  # noqa: E402

__all__ += ["save_inference_model", "load_inference_model", "save", "load",
            "load_program_state", "set_program_state", "serialize_program",
            "serialize_persistables", "save_to_file", "deserialize_program",
            "deserialize_persistables", "load_from_file", "normalize_program",
            "ExponentialMovingAverage", "IpuCompiledProgram", "IpuStrategy", "ipu_shard_guard",
            "set_ipu_shard", "accuracy", "auc", "WeightNormParamAttr", "Print", "py_func"]
