"""Tests of sampan.distributed: real multi-process jobs under mpiexec."""
