from django.urls import path
from rest_framework.routers import SimpleRouter

from .settings import SettingList
from .setup import GamingTableViewSet, RoomViewSet

router = SimpleRouter()
router.register("rooms", RoomViewSet, basename="room")
router.register("tables", GamingTableViewSet, basename="gaming-table")
urlpatterns = [path("settings/", SettingList.as_view(), name="establishment-settings"), *router.urls]
