from django.urls import path
from rest_framework.routers import SimpleRouter

from .views import NoticeAcknowledgeView, NoticeViewSet

router = SimpleRouter()
router.register("", NoticeViewSet, basename="notice")
urlpatterns = [
    path("<int:pk>/acknowledge/", NoticeAcknowledgeView.as_view(), name="notice-acknowledge"),
    *router.urls,
]
