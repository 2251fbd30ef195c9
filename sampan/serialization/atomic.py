"""Crash-safe file replacement: write a temporary sibling, fsync it, rename it onto the target.

Every save in sampan goes through `atomic_open` / `atomic_write` (one file) or
`atomic_write_all` (several files that must change together), so a reader (or a process
restarted after a crash or ``kill -9``) sees either the complete old files or the complete
new files, never a mix.

A multi-file save commits with one rename: once every new file is written (under a
temporary name), a small journal beside the first file (``.<name>.journal``) records which
temporary becomes which file, and only then are the files renamed one by one. A writer
killed between two of those renames leaves the journal behind; a loader reads the files
through `committed_paths`, which takes the journal's temporaries over their targets (the new
set, whole), and the next save to the same files finishes the renames first.

A writer holds an exclusive `flock` on each of its temporaries (``.<name>.<12 hex>.tmp``)
until they are renamed or removed. A killed writer's temporaries are left behind, but the
lock dies with the process: the next save to the same target removes the temporaries that
no live process holds.
"""

import contextlib
import errno
import json
import os
import re

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locks, stale temporaries stay
    fcntl = None

__all__ = ["atomic_open", "atomic_write", "atomic_write_all", "committed_paths",
           "InterruptedSaveError"]

_JOURNAL_FORMAT = "sampan.save_journal"
_MAX_JOURNAL_BYTES = 1 << 16


class InterruptedSaveError(ValueError):
    """A save journal that cannot be followed (damaged, or naming files outside its folder)."""

_MODES = {"wb": {}, "w": {"encoding": "utf-8"}}
_OPEN_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


class _Temporary:
    """A locked temporary sibling of `target` (a new empty file, or with `link_to` a hard
    link to that file); `release()` unlocks it and deletes it unless it was committed."""

    def __init__(self, target, link_to=None):
        self.target = target
        folder, name = os.path.split(target)
        remove_stale_temporaries(folder, name)
        while True:
            self.path = os.path.join(folder, f".{name}.{os.urandom(6).hex()}.tmp")
            if link_to is None:
                self.fd = os.open(self.path, _OPEN_FLAGS, 0o666)
            else:
                os.link(link_to, self.path, follow_symlinks=False)
                self.fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            _lock(self.fd)
            if _still_named(self.fd, self.path):
                break  # not removed as stale by another save before it was locked
            os.close(self.fd)

    def commit(self):
        """Move the temporary onto its target."""
        os.replace(self.path, self.target)
        self.path = None

    def release(self):
        """Remove the temporary unless it was committed, then drop the lock."""
        if self.path is not None:
            _remove_quietly(self.path)
        os.close(self.fd)


def _still_named(fd, path):
    """True if `path` still names the file open as `fd`."""
    try:
        return os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


@contextlib.contextmanager
def atomic_open(path, mode="wb"):
    """Yield a file for writing that replaces ``path`` atomically when the block exits cleanly.

    ``mode`` is ``"wb"`` (binary) or ``"w"`` (UTF-8 text).  The data goes to a temporary file in
    the same folder; on a clean exit it is flushed, fsynced, moved onto ``path`` with
    `os.replace` and the folder is fsynced.  On any exception (including KeyboardInterrupt)
    the temporary file is removed, ``path`` is left untouched and the exception propagates.
    """
    if mode not in _MODES:
        raise ValueError(f"atomic_open mode must be 'wb' or 'w', got {mode!r}")
    temp = _Temporary(os.path.abspath(os.fspath(path)))
    try:
        with open(os.dup(temp.fd), mode, **_MODES[mode]) as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        temp.commit()
    finally:
        temp.release()
    _fsync_folder(os.path.dirname(temp.target))


def atomic_write(path, write_fn):
    """Call ``write_fn(file)`` on a binary temporary file, then atomically move it onto ``path``."""
    with atomic_open(path, "wb") as file:
        return write_fn(file)


def atomic_write_all(contents):
    """Write ``{path: bytes}`` (all in one folder) so that a loader sees every new file or
    none of them.

    All temporaries are written and fsynced first, existing targets hard-linked to locked
    backups, and the journal naming each temporary's target is written atomically: that is
    the commit. The temporaries are then renamed in the order given and the journal removed.
    If a rename fails, the renamed targets get their old files back (or are removed if they
    did not exist), the journal goes and the error propagates. Once every rename is done the
    save has happened: removing the backups and the journal can no longer make it fail.
    """
    targets = [os.path.abspath(os.fspath(path)) for path in contents]
    folder = os.path.dirname(targets[0])
    if any(os.path.dirname(t) != folder for t in targets):
        raise ValueError(f"atomic_write_all: the files must share one folder, got {targets}")
    journal = _journal_path(targets[0])
    finish_interrupted_save(targets[0])
    staged, backups = [], []
    try:
        for target, data in zip(targets, contents.values()):
            staged.append(_written(target, data))
        for temp in staged:
            backups.append(_backup(temp.target))
        record = {"format": _JOURNAL_FORMAT, "files": [
            [os.path.basename(t.path), os.path.basename(t.target)] for t in staged]}
        atomic_write(journal, lambda file: file.write(json.dumps(record).encode("utf-8")))
        try:
            _commit_or_roll_back(staged, backups)
        except BaseException:
            _remove_quietly(journal)
            raise
    finally:
        for temp in staged + [b for b in backups if b is not None]:
            temp.release()
    _fsync_folder(folder)
    with contextlib.suppress(OSError):
        os.unlink(journal)


def committed_paths(anchor):
    """{target: path to read} for the files of an interrupted multi-file save whose first
    file is `anchor` (empty when there is none): each target whose renamed-to-be temporary
    still exists is read from it, so a loader sees the interrupted save's files whole."""
    entries = _read_journal(os.path.abspath(os.fspath(anchor)))
    return {target: temp for temp, target in entries if os.path.isfile(temp)}


def finish_interrupted_save(anchor):
    """Complete the renames of an interrupted save recorded beside `anchor`, then drop its
    journal (a damaged journal is dropped: the caller writes every file anew)."""
    anchor = os.path.abspath(os.fspath(anchor))
    try:
        entries = _read_journal(anchor)
    except InterruptedSaveError:
        entries = []
    for temp, target in entries:
        with contextlib.suppress(FileNotFoundError):
            os.replace(temp, target)
    if os.path.lexists(_journal_path(anchor)):
        _fsync_folder(os.path.dirname(anchor))
        _remove_quietly(_journal_path(anchor))


def _journal_path(anchor):
    """The journal of a multi-file save whose first file is `anchor`."""
    folder, name = os.path.split(anchor)
    return os.path.join(folder, f".{name}.journal")


def _read_journal(anchor):
    """[(temporary, target)] absolute paths from `anchor`'s journal ([] when there is none);
    every name must be a plain file name of that folder, each temporary one of its target's."""
    path = _journal_path(anchor)
    try:
        with open(path, "rb") as file:
            raw = file.read(_MAX_JOURNAL_BYTES + 1)
    except FileNotFoundError:
        return []
    try:
        record = json.loads(raw) if len(raw) <= _MAX_JOURNAL_BYTES else None
    except ValueError:
        record = None
    files = record.get("files") if type(record) is dict else None
    if record is None or record.get("format") != _JOURNAL_FORMAT or type(files) is not list:
        raise InterruptedSaveError(f"save journal {path!r} is damaged")
    folder, entries = os.path.dirname(anchor), []
    for entry in files:
        ok = (type(entry) is list and len(entry) == 2 and all(type(n) is str for n in entry)
              and os.path.basename(entry[1]) == entry[1] and entry[1] not in ("", ".", "..")
              and _temporary_pattern(entry[1]).match(entry[0]))
        if not ok:
            raise InterruptedSaveError(f"save journal {path!r} names {entry!r:.200}, not a "
                                       "temporary and its file in the journal's folder")
        entries.append((os.path.join(folder, entry[0]), os.path.join(folder, entry[1])))
    return entries


def _written(target, data):
    """A locked temporary for `target` holding `data`, fsynced."""
    temp = _Temporary(target)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(temp.fd, view):]
        os.fsync(temp.fd)
    except BaseException:
        temp.release()
        raise
    return temp


def _backup(target):
    """A locked hard link to the current `target` (None if there is none); a target that
    cannot be linked (a folder, say) fails here, before anything is renamed."""
    if not os.path.lexists(target):
        return None
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, "cannot replace a folder with a file", target)
    return _Temporary(target, link_to=target)


def _commit_or_roll_back(staged, backups):
    """Rename every temporary onto its target; on failure restore the previous targets."""
    done = 0
    try:
        for temp in staged:
            temp.commit()
            done += 1
    except BaseException:
        for temp, backup in reversed(list(zip(staged[:done], backups[:done]))):
            if backup is None:
                _remove_quietly(temp.target)
            else:
                backup.commit()
        raise


def remove_stale_temporaries(folder, name):
    """Delete `folder`'s temporaries of target `name` whose writer has died (unlocked)."""
    if fcntl is None:
        return
    pattern = _temporary_pattern(name)
    try:
        entries = os.listdir(folder or ".")
    except OSError:
        return
    for entry in entries:
        if pattern.match(entry):
            _remove_if_unlocked(os.path.join(folder, entry))


def _temporary_pattern(name):
    """Matches the names of target `name`'s temporaries."""
    return re.compile(rf"\.{re.escape(name)}\.[0-9a-f]{{12}}\.tmp\Z")


def _remove_if_unlocked(path):
    """Unlink `path` if no process holds its lock."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        _remove_quietly(path)
    except OSError:
        pass  # held by a live writer
    finally:
        os.close(fd)


def _lock(fd):
    """Hold an exclusive lock on `fd` while it is open (no-op without fcntl)."""
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)


def _remove_quietly(path):
    """Delete ``path`` if it still exists."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def _fsync_folder(folder):
    """Make the renames inside ``folder`` durable (POSIX). It runs after the commit, so an
    error here (a filesystem without folder fsync, say) cannot turn a done save into a
    reported failure: it is ignored."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
