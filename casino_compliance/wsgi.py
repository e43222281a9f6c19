import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")
application = get_wsgi_application()

from ledgers.core.serving import ready_to_serve  # noqa: E402  (once Django is set up)

ready_to_serve()
