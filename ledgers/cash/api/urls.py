from django.urls import path

from . import views

urlpatterns = [
    path("floats/", views.FloatView.as_view(), name="cash-float"),
    path("table-boxes/", views.TableBoxView.as_view(), name="cash-table-box"),
    path("slip-books/", views.SlipBookView.as_view(), name="cash-slip-book"),
    path("slips/", views.SlipView.as_view(), name="cash-slip"),
    path("slips/<int:pk>/serve/", views.SlipServeView.as_view(), name="cash-slip-serve"),
    path("slips/void/", views.SlipVoidView.as_view(), name="cash-slip-void"),
    path("counts/", views.CountView.as_view(), name="cash-count"),
    path("counts/<int:pk>/certify/", views.CertifyView.as_view(), name="cash-count-certify"),
    path("ticket-books/", views.TicketBookView.as_view(), name="cash-ticket-book"),
    path("cagnottes/compute/", views.CagnotteComputeView.as_view(), name="cash-cagnotte-compute"),
    path("cagnottes/lines/", views.PlayLineView.as_view(), name="cash-cagnotte-line"),
    path("cagnottes/count/", views.CagnotteCountView.as_view(), name="cash-cagnotte-count"),
    path("bad-beat-jackpot/tables/", views.BadBeatTableView.as_view(), name="cash-bad-beat-table"),
    path("bad-beat-jackpot/", views.BadBeatView.as_view(), name="cash-bad-beat"),
    path("bad-beat-jackpot/configs/", views.BadBeatConfigView.as_view(), name="cash-bbj-config"),
    path("bad-beat-jackpot/final-stops/", views.BadBeatFinalStopView.as_view(), name="cash-bbj-final-stop"),
    path("bad-beat-jackpot/breakdowns/", views.BadBeatBreakdownView.as_view(), name="cash-bbj-breakdown"),
    path("bad-beat-jackpot/breakdowns/<int:pk>/restore/", views.BadBeatRestoreView.as_view(),
         name="cash-bbj-restore"),
    path("bad-beat-jackpot/wins/", views.BadBeatWinView.as_view(), name="cash-bbj-win"),
    path("orphans/", views.OrphanView.as_view(), name="cash-orphan"),
    path("orphans/<int:pk>/restitution/", views.RestitutionView.as_view(), name="cash-orphan-restitution"),
    path("orphans/tirelires/", views.TirelireView.as_view(), name="cash-tirelire"),
    path("orphans/season-clearing/", views.SeasonClearView.as_view(), name="cash-orphans-season"),
    path("levy-sheets/", views.LevyMonthView.as_view(), name="cash-levy-month"),
    path("rake/", views.RakeView.as_view(), name="cash-rake"),
    path("control-days/", views.ControlCloseView.as_view(), name="cash-control-close"),
    path("control-days/<int:pk>/visa/", views.ControlVisaView.as_view(), name="cash-control-visa"),
]
