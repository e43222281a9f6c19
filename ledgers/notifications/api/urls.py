from rest_framework.routers import SimpleRouter

from .views import NoticeViewSet

router = SimpleRouter()
router.register("", NoticeViewSet, basename="notice")
urlpatterns = router.urls
