"""Task: the handle of a collective or point-to-point transfer that may still be running."""

__all__ = ["Task"]


class Task:
    """Returned by every communication call; `wait()` blocks until the transfer is done
    and its result is in place (the tensor updated, the list filled).

    `requests` are MPI requests (none for a transfer already done); `finish` callbacks run
    once, in order, after they complete.
    """

    __slots__ = ("_requests", "_finish", "_done")

    def __init__(self, requests=(), finish=None):
        self._requests = list(requests)
        self._finish = [] if finish is None else [finish]
        self._done = False

    def then(self, callback):
        """Run `callback()` when the transfer completes (now, if it already has)."""
        if self._done:
            callback()
        else:
            self._finish.append(callback)
        return self

    def wait(self, timeout=None):
        """Block until done; True (Paddle's tasks return True)."""
        if not self._done:
            for request in self._requests:
                request.Wait()
            self._requests = []
            self._done = True
            for callback in self._finish:
                callback()
            self._finish = []
        return True

    def is_completed(self):
        """True once the transfer finished (finishing it if it just did)."""
        if not self._done and all(request.Test() for request in self._requests):
            self.wait()
        return self._done

    synchronize = wait
