from rest_framework.routers import SimpleRouter

from .setup import GamingTableViewSet, RoomViewSet

router = SimpleRouter()
router.register("rooms", RoomViewSet, basename="room")
router.register("tables", GamingTableViewSet, basename="gaming-table")
urlpatterns = router.urls
