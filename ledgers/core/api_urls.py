from rest_framework.routers import SimpleRouter

from . import seance_api

router = SimpleRouter()
router.register("table-sessions", seance_api.TableSessionViewSet, basename="table-session")
router.register("", seance_api.SeanceViewSet, basename="seance")
urlpatterns = router.urls
