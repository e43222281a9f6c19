from django.urls import path

from . import views
from .printing.views import VolumesView

app_name = "registers"
urlpatterns = [
    path("", views.RegisterListView.as_view(), name="list"),
    path("nouveau/", views.RegisterCreateView.as_view(), name="create"),
    path("a-ouvrir/", views.RegistersToOpenView.as_view(), name="to_open"),
    path("a-ouvrir/creer/", views.RegistersToOpenCreateView.as_view(), name="to_open_create"),
    path("cles-publiques/", views.PublicKeysView.as_view(), name="public_keys"),
    path("viser/<str:kind>/", views.KindVisaView.as_view(), name="visa_kind"),
    path("<str:number>/", views.RegisterDetailView.as_view(), name="detail"),
    path("<str:number>/cote-et-paraphe/", views.RegisterOpenView.as_view(), name="open"),
    path("<str:number>/inscrire/", views.MainCouranteRecordView.as_view(), name="record"),
    path("<str:number>/export.<str:export_format>", views.RegisterExportView.as_view(), name="export"),
    path("<str:number>/tomes/", VolumesView.as_view(), name="volumes"),
    path("<str:number>/visa/", views.VisaView.as_view(), name="visa"),
    path("<str:number>/cloture/", views.RegisterCloseView.as_view(), name="close"),
    path("<str:number>/retrait/", views.RegisterWithdrawView.as_view(), name="withdraw"),
    path("<str:number>/entrees/<int:seq>/", views.EntryDetailView.as_view(), name="entry"),
    path("<str:number>/entrees/<int:seq>/correction/", views.CorrectionView.as_view(), name="correct"),
]
