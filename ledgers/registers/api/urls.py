from django.urls import path
from rest_framework.routers import SimpleRouter

from .views import EntryProofView, EntryViewSet, PublicKeysView, RegisterViewSet

router = SimpleRouter()
router.register("registers", RegisterViewSet, basename="register")

urlpatterns = [
    path("registers/public-keys/", PublicKeysView.as_view(), name="public-keys"),
    *router.urls,
    path("registers/<str:register_number>/entries/", EntryViewSet.as_view({"get": "list"}), name="entry-list"),
    path(
        "registers/<str:register_number>/entries/<int:seq>/",
        EntryViewSet.as_view({"get": "retrieve"}),
        name="entry-detail",
    ),
    path(
        "registers/<str:register_number>/entries/<int:seq>/proof/",
        EntryProofView.as_view(),
        name="entry-proof",
    ),
]
