from rest_framework.routers import SimpleRouter

from .api import seances

router = SimpleRouter()
router.register("table-sessions", seances.TableSessionViewSet, basename="table-session")
router.register("", seances.SeanceViewSet, basename="seance")
urlpatterns = router.urls
