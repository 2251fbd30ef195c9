"""Timing helper shared by the benchmarks (not a test)."""
import time

__all__ = ["interleaved", "sgd_step"]


def sgd_step(loss_fn, opt):
    """A closure running one training step: loss_fn() -> loss, backward, opt.step(),
    opt.clear_grad(); it returns the loss."""
    def step():
        loss = loss_fn()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return step


def interleaved(fns, rounds=15, number=20):
    """Best mean seconds per call of each fn in {name: fn}, measured round-robin so that
    drifts in machine speed hit every fn alike; one warm-up call each first."""
    for fn in fns.values():
        fn()
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(number):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / number)
    return best
