"""A server process's start: what its first request would load is loaded, and kept out of the
garbage collector's full passes."""

import gc

from django.urls import get_resolver
from django.utils import translation

from ledgers.core.dashboard import _providers
from ledgers.core.serving import ready_to_serve


def test_ready_to_serve_loads_the_pages_and_freezes_them():
    try:
        ready_to_serve()
        assert gc.get_freeze_count() > 0
        assert _providers  # the apps' panels are registered
        for code in ("fr", "en"):
            with translation.override(code):
                assert code in get_resolver()._reverse_dict  # the URLconf's reverse index, built
    finally:
        gc.unfreeze()  # the tests' objects go on being collected
