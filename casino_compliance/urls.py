from django.contrib import admin
from django.contrib.staticfiles import finders
from django.http import FileResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

api_v1 = [
    path("", include("ledgers.registers.api.urls")),
    path("dice/", include("ledgers.dice.api.urls")),
    path("cards/", include("ledgers.cards.api.urls")),
    path("incidents/", include("ledgers.incidents.api.urls")),
    path("equipment/", include("ledgers.equipment.api.urls")),
    path("", include("ledgers.reports.api.urls")),
    path("keys/", include("ledgers.keys.api.urls")),
    path("", include("ledgers.registers.printing.api")),
    path("seances/", include("ledgers.core.api_urls")),
    path("establishment/", include("ledgers.core.api.setup_urls")),
    path("profile/", include("ledgers.core.api.authenticator_urls")),
    path("staff/", include("ledgers.core.api.staff_urls")),
    path("tables/", include("ledgers.tables.api.urls")),
    path("authority/", include("ledgers.authority.api.urls")),
    path("cash/", include("ledgers.cash.api.urls")),
    path("slots/", include("ledgers.slots.api.urls")),
    path("notifications/", include("ledgers.notifications.api.urls")),
    path("takeover/", include("ledgers.takeover.api.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
]


def favicon(request):
    """The icon browsers ask for at /favicon.ico, from the vendored static files."""
    icon = finders.find("img/favicon.svg")
    return FileResponse(open(icon, "rb"), content_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include(api_v1)),
    path("", include("ledgers.core.urls")),
    path("registres/", include("ledgers.registers.urls")),
    path("notifications/", include("ledgers.notifications.urls")),
    path("des/", include("ledgers.dice.urls")),
    path("cartes/", include("ledgers.cards.urls")),
    path("incidents/", include("ledgers.incidents.urls")),
    path("materiel/", include("ledgers.equipment.urls")),
    path("rapports/", include("ledgers.reports.urls")),
    path("cles/", include("ledgers.keys.urls")),
    path("seances/tables/", include("ledgers.tables.urls")),
    path("autorites/", include("ledgers.authority.urls")),
    path("caisses/", include("ledgers.cash.urls")),
    path("machines-a-sous/", include("ledgers.slots.urls")),
    path("reprise/", include("ledgers.takeover.urls")),
]

handler500 = "ledgers.core.api.errors.server_error"
