"""The project's URLs, and one API path whose database is gone: what a client sees of a 500."""

from django.db import OperationalError
from django.urls import path

from casino_compliance.urls import *  # noqa: F403
from casino_compliance.urls import urlpatterns as project


def lost_connection(request):
    raise OperationalError("server closed the connection unexpectedly")


urlpatterns = [path("api/v1/lost/", lost_connection), path("lost/", lost_connection), *project]
