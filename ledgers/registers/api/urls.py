from django.urls import path
from rest_framework.routers import SimpleRouter

from .views import EntryViewSet, RegisterViewSet

router = SimpleRouter()
router.register("registers", RegisterViewSet, basename="register")

urlpatterns = [
    *router.urls,
    path("registers/<str:register_number>/entries/", EntryViewSet.as_view({"get": "list"}), name="entry-list"),
    path(
        "registers/<str:register_number>/entries/<int:seq>/",
        EntryViewSet.as_view({"get": "retrieve"}),
        name="entry-detail",
    ),
]
