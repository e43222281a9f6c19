"""The project: settings, URLs, WSGI/ASGI. The Celery app (``celery.py``) is imported by the tasks modules
that bind to it and found by ``celery -A casino_compliance``, not here: commands and requests start without Celery."""
