from django.urls import path
from rest_framework.routers import SimpleRouter

from .settings import SettingList
from .setup import EstablishmentCreate, GamingTableViewSet, ImportView, LocationViewSet, RoomViewSet

router = SimpleRouter()
router.register("rooms", RoomViewSet, basename="room")
router.register("tables", GamingTableViewSet, basename="gaming-table")
router.register("locations", LocationViewSet, basename="location")
urlpatterns = [
    path("settings/", SettingList.as_view(), name="establishment-settings"),
    path("create/", EstablishmentCreate.as_view(), name="establishment-new"),
    path("imports/<slug:code>/", ImportView.as_view(), name="setup-imports"),
    *router.urls,
]
