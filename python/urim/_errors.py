"""The exceptions of the urim package, one per error code of liburim
(capi/errors.go)."""


class UrimError(Exception):
    """Base class of every error urim raises."""


class IllegalActionError(UrimError, ValueError):
    """An illegal or out-of-range action."""


class ClosedError(UrimError, RuntimeError):
    """A closed environment, agent or network, or a stale handle."""


class SpecError(UrimError, ValueError):
    """An unknown agent or a bad agent spec."""


class CheckpointError(UrimError, ValueError):
    """A corrupt or mismatched checkpoint, .npz or table."""


class AgentError(UrimError, RuntimeError):
    """An agent played by a Python callable failed."""


class InternalError(UrimError, RuntimeError):
    """A bug in urim, caught at the library's boundary."""


class ArgumentError(UrimError, ValueError):
    """A bad argument or value."""


class FileError(UrimError, OSError):
    """A file that cannot be read or written."""


_BY_CODE = {1: ArgumentError, 2: IllegalActionError, 3: ClosedError, 4: FileError, 5: SpecError,
            6: CheckpointError, 7: AgentError, 8: InternalError, 9: InternalError}


def from_code(code, message):
    return _BY_CODE.get(code, InternalError)(message)
