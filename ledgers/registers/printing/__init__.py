"""PDF printing of registers: see ``register.render_register``."""

from .register import Rendered, render_register

__all__ = ["Rendered", "render_register"]
