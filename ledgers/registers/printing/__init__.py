"""PDF printing of registers, bound in volumes: see ``register.render_register``; the print
history and the paraphe of volumes: ``services``. Also a Django app (``apps.PrintingConfig``),
so the package itself imports nothing at start-up: its names load on first use."""

__all__ = ["NoSuchVolume", "Rendered", "render_register", "render_register_volumes"]


def __getattr__(name: str):
    if name in __all__:
        from . import register

        return getattr(register, name)
    raise AttributeError(name)
