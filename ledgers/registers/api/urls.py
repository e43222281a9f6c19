from django.urls import path
from rest_framework.routers import SimpleRouter

from . import acts
from .views import ConsistencyProofView, EntryProofView, EntryViewSet, PublicKeysView, RegisterViewSet

router = SimpleRouter()
router.register("registers", RegisterViewSet, basename="register")

urlpatterns = [
    path("registers/public-keys/", PublicKeysView.as_view(), name="public-keys"),
    path("registers/new/", acts.RegisterCreateView.as_view(), name="register-create"),
    path("registers/to-open/", acts.RegistersToOpenView.as_view(), name="registers-to-open"),
    path("registers/visas-by-kind/", acts.KindVisaView.as_view(), name="register-visas-kind"),
    path("registers/<str:register_number>/opening/", acts.RegisterOpenView.as_view(), name="register-open"),
    path("registers/<str:register_number>/main-courante/", acts.MainCouranteView.as_view(), name="register-record"),
    path("registers/<str:register_number>/closing/", acts.RegisterCloseView.as_view(), name="register-close"),
    path("registers/<str:register_number>/withdrawal/", acts.RegisterWithdrawView.as_view(), name="register-withdraw"),
    path(
        "registers/<str:register_number>/entries/<int:seq>/corrections/",
        acts.CorrectionView.as_view(),
        name="entry-correct",
    ),
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
    path(
        "registers/<str:register_number>/consistency/",
        ConsistencyProofView.as_view(),
        name="register-consistency",
    ),
]
