from django.urls import path

from . import views

app_name = "cash"
urlpatterns = [
    path("", views.DayView.as_view(), name="day"),
    path("tables/<int:pk>/avance/", views.FloatView.as_view(), name="float"),
    path("tables/<int:pk>/comptee/", views.CountView.as_view(), name="count"),
    path("tables/<int:pk>/certification/", views.CertifyView.as_view(), name="certify"),
    path("somme-en-banque/", views.FixBankView.as_view(), name="fix_bank"),
    path("bons/carnets/nouveau/", views.SlipBookView.as_view(), name="book_open"),
    path("bons/nouveau/", views.SlipWriteView.as_view(), name="slip_write"),
    path("bons/<int:pk>/servir/", views.SlipServeView.as_view(), name="slip_serve"),
    path("bons/annulation/", views.SlipVoidView.as_view(), name="slip_void"),
    path("seances/<int:pk>/centralisation/", views.CentraliseView.as_view(), name="centralise"),
    path("cagnotte-poker/", views.RakeView.as_view(), name="rake"),
    path("registre-controle/", views.ControlView.as_view(), name="control"),
    path("registre-controle/<int:pk>/visa/", views.ControlVisaView.as_view(), name="control_visa"),
    path("carnets-tickets/nouveau/", views.TicketBookView.as_view(), name="ticket_book"),
    path("tables/<int:pk>/cagnotte/calcul/", views.CagnotteComputeView.as_view(), name="cagnotte_compute"),
    path("tables/<int:pk>/cagnotte/comptage/", views.CagnotteCountView.as_view(), name="cagnotte_count"),
    path("tables/<int:pk>/bad-beat-jackpot/", views.BadBeatView.as_view(), name="bad_beat"),
    path("orphelins/nouveau/", views.OrphanView.as_view(), name="orphan"),
    path("orphelins/<int:pk>/restitution/", views.RestitutionView.as_view(), name="restitution"),
    path("carnet-prelevements/", views.LevyMonthView.as_view(), name="levy_month"),
    path("signalements/", views.ExceptionsView.as_view(), name="exceptions"),
    path("plaques-jetons/", views.PlaquesView.as_view(), name="plaques"),
    path("plaques-jetons/series/nouvelle/", views.ChipSeriesView.as_view(), name="chip_series"),
    path("plaques-jetons/series/<int:pk>/", views.ChipAllocateView.as_view(), name="chip_allocate"),
    path("carnets-tickets/", views.TicketsView.as_view(), name="tickets"),
    path("carnets-tickets/<int:pk>/timbre/", views.TicketStampView.as_view(), name="ticket_stamp"),
    path("machines-retenue/nouvelle/", views.LevyMachineView.as_view(), name="levy_machine"),
    path("tables/<int:pk>/cagnotte/historique/", views.MachineHistoryView.as_view(), name="machine_history"),
    path("jeux-electroniques/", views.DevicesView.as_view(), name="devices"),
    path("jeux-electroniques/<int:pk>/poste/", views.StationResultView.as_view(), name="station_result"),
    path("jeux-electroniques/<int:pk>/visa/", views.DeviceVisaView.as_view(), name="device_visa"),
]
