from django.urls import path

from . import accounting_views, views

app_name = "slots"
urlpatterns = [
    path("", views.MachineListView.as_view(), name="machines"),
    path("socles/nouveau/", views.SocleCreateView.as_view(), name="socle_create"),
    path("machines/nouvelle/", views.MachineRegisterView.as_view(), name="machine_register"),
    path("machines/<int:pk>/", views.MachineDetailView.as_view(), name="machine"),
    path("machines/<int:pk>/fiche-technique/", views.SheetView.as_view(), name="sheet"),
    path("machines/<int:pk>/tremie/", views.HopperLidView.as_view(), name="hopper_lid"),
    path("machines/<int:pk>/deplacement/", views.MoveView.as_view(), name="move"),
    path("machines/<int:pk>/remise-a-zero/", views.RamClearView.as_view(), name="ram_clear"),
    path("machines/<int:pk>/intervention/", views.InterventionOpenView.as_view(), name="intervention_open"),
    path("interventions/<int:pk>/fin/", views.InterventionCloseView.as_view(), name="intervention_close"),
    path("interventions/remise/", views.TransmittalView.as_view(), name="transmittal"),
    path("releves/nouvelle/", views.ReleveOpenView.as_view(), name="releve_open"),
    path("releves/<int:pk>/", views.ReleveDetailView.as_view(), name="releve"),
    path("releves/<int:pk>/import/", views.ImportView.as_view(), name="import"),
    path("releves/<int:pk>/boite/", views.BoxView.as_view(), name="box"),
    path("releves/<int:pk>/comptage/", views.CountView.as_view(), name="count"),
    path("releves/<int:pk>/cloture/", views.ReleveCloseView.as_view(), name="releve_close"),
    path("visites-sfm/nouvelle/", views.SfmVisitView.as_view(), name="sfm_visit"),
    path("jackpots/paiement/", views.JackpotView.as_view(), name="jackpot"),
    path("jackpots/contestation/", views.DisputeView.as_view(), name="dispute"),
    path("jackpots/complement/", views.TopUpView.as_view(), name="top_up"),
    path("orphelins/nouveau/", views.OrphanView.as_view(), name="orphan"),
    path("fichiers/copie/", views.FilesCopyView.as_view(), name="files_copy"),
    path("evenements/import/", views.EventsImportView.as_view(), name="events_import"),
    path("agrements/nouveau/", views.ApprovalView.as_view(), name="approval"),
    path("machines/<int:pk>/carnet/", accounting_views.CarnetView.as_view(), name="carnet"),
    path("machines/<int:pk>/carnet/avance/", accounting_views.AvanceView.as_view(), name="avance"),
    path("machines/<int:pk>/carnet/tickets/", accounting_views.TicketsView.as_view(), name="carnet_tickets"),
    path("machines/<int:pk>/carnet/comptage/", accounting_views.CountView.as_view(), name="carnet_count"),
    path("carnet/paiement/", accounting_views.PaymentPostView.as_view(), name="carnet_payment"),
    path("etat-recapitulatif/", accounting_views.StatementView.as_view(), name="statement"),
    path("etat-compteurs/", accounting_views.MeterStatementView.as_view(), name="meter_statement"),
]
