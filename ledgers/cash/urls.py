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
    path("bad-beat-jackpot/<int:pk>/", views.BadBeatJackpotView.as_view(), name="bbj"),
    path("bad-beat-jackpot/<int:pk>/conditions/", views.BadBeatConfigView.as_view(), name="bbj_config"),
    path("bad-beat-jackpot/<int:pk>/arret-definitif/", views.BadBeatFinalStopView.as_view(), name="bbj_final_stop"),
    path("bad-beat-jackpot/<int:pk>/panne/", views.BadBeatBreakdownView.as_view(), name="bbj_breakdown"),
    path("bad-beat-jackpot/<int:pk>/pannes/<int:stop>/retablissement/", views.BadBeatRestoreView.as_view(),
         name="bbj_restore"),
    path("tables/<int:pk>/bad-beat-gain/", views.BadBeatWinView.as_view(), name="bbj_win"),
    path("cagnottes/nouvelle/", views.TableCagnotteView.as_view(), name="table_cagnotte"),
    path("tables/<int:pk>/avance-sfe/", views.SfeAdvanceView.as_view(), name="sfe_advance"),
    path("caisse-changeur/somme/", views.ChangeurFloatFixView.as_view(), name="changeur_fix"),
    path("tables/<int:pk>/caisse-changeur/", views.ChangeurFloatView.as_view(), name="changeur_float"),
]
