
# --- gsd-core epilogue -------------------------------------------------------------------
# Appended by this repository's uniffi-bindgen (bindings/uniffi/bindgen) to the module
# uniffi 0.32 generates. It changes no call's result; it fixes how the generated classes
# behave under Python's generic protocols (copy, pickle, str/repr, ==), where uniffi's
# defaults are unsafe or unreadable, and checks every string argument in full before a call
# takes anything (a string that cannot cross leaked what the call had taken). See
# docs/uniffi.md, "What the generated module adds".


def _gsd_epilogue():
    import inspect

    # A Registry owns one reference to a native value through `_handle`. `copy` and `pickle`
    # would duplicate that raw handle without taking a reference, so the value would be
    # freed twice (a crash). The registry is immutable: a copy may be the object itself; it
    # cannot leave the process.
    def _same(self, *_memo):
        return self

    def _no_pickle(self, *_protocol):
        raise TypeError(
            "a Registry is a native value of this process and cannot be pickled; "
            "build it on the other side (Registry.first_party(), with_overlays(...))"
        )

    # Strings: uniffi checks every argument (`check_lower`) before it takes a reference to
    # the registry and converts the arguments one by one, but only converts a string to
    # UTF-8 in the second pass, so a lone surrogate (`os.environ` holds them for variables
    # that are not UTF-8) or a string past 2 GiB failed there and leaked the reference and
    # the arguments already converted. The check now encodes, so such a call fails before
    # anything is taken.
    plain_check = _UniffiFfiConverterString.check_lower

    def _check_str(value):
        plain_check(value)
        size = len(value) if value.isascii() else len(value.encode("utf-8"))
        if size > 0x7FFFFFFF:
            raise ValueError(
                "a string of {} bytes is more than one call can carry (2 GiB - 1)".format(size)
            )
        return value

    _UniffiFfiConverterString.check_lower = staticmethod(_check_str)

    Registry.__copy__ = _same
    Registry.__deepcopy__ = _same
    Registry.__reduce__ = _no_pickle
    Registry.__reduce_ex__ = _no_pickle

    # Records: `repr` names every field with its value's repr (uniffi's is `Host()`), so a
    # record inside a list or a field prints whole: str(validation) shows its diagnostics.
    def _record_repr(self):
        names = type(self)._gsd_fields
        shown = ", ".join("{}={!r}".format(name, getattr(self, name)) for name in names)
        return "{}({})".format(type(self).__name__, shown)

    # Records: `==` compares two records of one class field by field, and answers
    # NotImplemented for anything else (uniffi's reads the other object's fields: a record
    # equalled any object with the same attributes, and `record == None` raised), so
    # Python falls back to identity: `record != None` is True, `None in records` works.
    def _record_eq(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in type(self)._gsd_fields)

    for value in list(globals().values()):
        if (
            isinstance(value, type)
            and value.__module__ == __name__
            and getattr(value, "__dataclass_fields__", None) is not None
            and not issubclass(value, BaseException)
        ):
            value._gsd_fields = tuple(
                p.name
                for p in inspect.signature(value.__init__).parameters.values()
                if p.kind is inspect.Parameter.KEYWORD_ONLY
            )
            value.__repr__ = _record_repr
            value.__eq__ = _record_eq

    # Errors: `str(error)` is the message (uniffi's is "message='…'"), so are `error.args`
    # (what `traceback` and logging show), and an error that is pickled (process pools)
    # comes back as the same variant with the same message.
    def _error_init(init):
        def __init__(self, message):
            init(self, message)
            self.args = (message,)

        return __init__

    def _error_str(self):
        return self.message

    def _error_repr(self):
        return "GsdError.{}(message={!r})".format(type(self).__name__, self.message)

    def _error_reduce(self):
        return (type(self), (self.message,))

    for value in list(vars(GsdError).values()):
        if isinstance(value, type) and issubclass(value, BaseException):
            value.__init__ = _error_init(value.__init__)
            value.__str__ = _error_str
            value.__repr__ = _error_repr
            value.__reduce__ = _error_reduce


_gsd_epilogue()
del _gsd_epilogue
