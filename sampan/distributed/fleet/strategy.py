"""DistributedStrategy: the settings of fleet's collective (data-parallel) training.

Every field of Paddle's strategy can be read; setting a name Paddle does not have is a
TypeError. Fields of features sampan does not run in fleet (AMP, recompute, sharding,
pipeline or tensor parallelism, ...) can be set, and `check_supported` refuses them by
name when fleet is asked to train with them, instead of silently ignoring them.
"""
import copy

__all__ = ["DistributedStrategy"]

# Used by fleet's data parallelism: gradients averaged in buckets of fuse_grad_size_in_MB
# (the first last_comm_group_size_MB), find_unused_parameters as in DataParallel.
_USED = {
    "fuse_grad_size_in_MB": 32, "last_comm_group_size_MB": 1.0,
    "find_unused_parameters": False,
    "hybrid_configs": {"dp_degree": -1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1,
                       "sep_degree": 1},
}
# Accepted and without effect on the CPU (stream, fusion and graph options).
_NO_EFFECT = {
    "fuse_all_reduce_ops": True, "fuse_grad_size_in_num": 8, "nccl_comm_num": 1,
    "sync_nccl_allreduce": True, "without_graph_optimization": True, "split_data": True,
    "build_strategy": None, "execution_strategy": None, "gradient_scale_configs":
    {"scale_strategy": "avg", "scale_gradient": False}, "a_sync": True, "a_sync_configs": {},
    "conv_workspace_size_limit": 512, "cudnn_batchnorm_spatial_persistent": True,
    "cudnn_exhaustive_search": False, "sync_param_name": ["embedding", "layer_norm", ".b_"],
    "hierarchical_allreduce_inter_nranks": 1, "elastic": False, "auto": False,
    "semi_auto": False, "auto_search": False,
}
# Features sampan's fleet does not run: refused when switched on.
_REFUSED = {
    "amp": False, "recompute": False, "sharding": False, "pipeline": False,
    "tensor_parallel": False, "gradient_merge": False, "dgc": False, "lars": False,
    "lamb": False, "localsgd": False, "adaptive_localsgd": False, "qat": False, "asp": False,
    "fp16_allreduce": False, "sync_batch_norm": False, "heter_ccl_mode": False,
    "use_hierarchical_allreduce": False, "fuse_grad_merge": False, "is_fl_ps_mode": False,
    "is_with_coordinator": False, "adam_d2sum": False,
}
_CONFIGS = ("amp_configs", "recompute_configs", "sharding_configs", "pipeline_configs",
            "tensor_parallel_configs", "gradient_merge_configs", "dgc_configs",
            "lars_configs", "lamb_configs", "localsgd_configs", "adaptive_localsgd_configs",
            "qat_configs", "trainer_desc_configs", "fleet_desc_configs",
            "sparse_table_configs", "hybrid_parallel_order")
_FIELDS = {**_USED, **_NO_EFFECT, **_REFUSED, **{name: {} for name in _CONFIGS}}


class DistributedStrategy:
    """Paddle's `fleet.DistributedStrategy` for collective training.

    Example:
        strategy = fleet.DistributedStrategy()
        strategy.fuse_grad_size_in_MB = 16
        fleet.init(is_collective=True, strategy=strategy)
    """

    def __init__(self):
        object.__setattr__(self, "_values", copy.deepcopy(_FIELDS))

    def __getattr__(self, name):
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        raise AttributeError(f"DistributedStrategy has no field {name!r}")

    def __setattr__(self, name, value):
        if name not in _FIELDS:
            raise TypeError(f"{name} is not a field of DistributedStrategy (fields: "
                            f"{', '.join(sorted(_FIELDS))})")
        if isinstance(_FIELDS[name], dict) and isinstance(value, dict):
            merged = dict(self._values[name])
            merged.update(value)
            value = merged
        self._values[name] = value

    def check_supported(self, world_size):
        """Raise NotImplementedError naming any switched-on feature fleet cannot run."""
        on = sorted(name for name in _REFUSED if self._values[name])
        if on:
            raise NotImplementedError(
                f"DistributedStrategy: {', '.join(on)} {'is' if len(on) == 1 else 'are'} not "
                f"supported by sampan's fleet (collective data parallelism only)")
        hybrid = self._values["hybrid_configs"]
        other = {k: v for k, v in hybrid.items() if k.endswith("_degree") and k != "dp_degree"
                 and v not in (1, -1)}
        if other or hybrid.get("dp_degree", -1) not in (-1, world_size):
            raise NotImplementedError(
                f"DistributedStrategy.hybrid_configs {hybrid}: only data parallelism over "
                f"every rank (dp_degree = -1 or {world_size}) is supported")

    def __repr__(self):
        changed = {k: v for k, v in self._values.items() if v != _FIELDS[k]}
        return f"DistributedStrategy({changed})"
