from django.urls import path
from rest_framework.routers import SimpleRouter

from . import accounting, progressives, views

router = SimpleRouter()
router.register("machines", views.MachineViewSet, basename="slots-machine")

urlpatterns = [
    path("machines/<int:pk>/moves/", views.MoveView.as_view(), name="slots-move"),
    path("releves/", views.ReleveOpenView.as_view(), name="slots-releve-open"),
    path("releves/<int:pk>/close/", views.ReleveCloseView.as_view(), name="slots-releve-close"),
    path("releves/<int:pk>/readings/", views.ReadingsImportView.as_view(), name="slots-readings"),
    path("releves/<int:pk>/counts/", views.CountView.as_view(), name="slots-count"),
    path("interventions/", views.InterventionOpenView.as_view(), name="slots-intervention-open"),
    path("interventions/<int:pk>/close/", views.InterventionCloseView.as_view(), name="slots-intervention-close"),
    path("jackpots/", views.JackpotView.as_view(), name="slots-jackpot"),
    path("machines/<int:pk>/avances/", accounting.AvanceView.as_view(), name="slots-avance"),
    path("machines/<int:pk>/carnet/tickets/", accounting.TicketsView.as_view(), name="slots-carnet-tickets"),
    path("machines/<int:pk>/carnet/counts/", accounting.CountView.as_view(), name="slots-carnet-count"),
    path("carnet/payments/", accounting.PaymentPostView.as_view(), name="slots-carnet-payment"),
    path("statements/", accounting.StatementView.as_view(), name="slots-statement"),
    path("meter-statements/", accounting.MeterStatementView.as_view(), name="slots-meter-statement"),
    path("progressives/", progressives.ProgressiveCreateView.as_view(), name="slots-progressive-create"),
    path("progressives/readings/", progressives.ProgressiveReadingView.as_view(), name="slots-progressive-reading"),
    path("progressives/stops/", progressives.ProgressiveStopView.as_view(), name="slots-progressive-stop"),
    path("progressives/recoveries/", progressives.RecoverView.as_view(), name="slots-progressive-recover"),
    path("jpm/readings/", progressives.JpmReadingView.as_view(), name="slots-jpm-reading"),
    path("jpm/connections/", progressives.JpmConnectView.as_view(), name="slots-jpm-connect"),
    path("jpm/wins/", progressives.JpmWinView.as_view(), name="slots-jpm-win"),
    path("jpm/restarts/", progressives.JpmRestartView.as_view(), name="slots-jpm-restart"),
    path("jpm/transmissions/", progressives.TransmissionView.as_view(), name="slots-jpm-transmission"),
    path("jpm/withdrawals/", progressives.WithdrawView.as_view(), name="slots-jpm-withdraw"),
    path("tickets/", progressives.TicketsImportView.as_view(), name="slots-tickets-import"),
    path("tickets/redemptions/", progressives.TicketRedeemView.as_view(), name="slots-ticket-redeem"),
    path("tickets/expiries/", progressives.TicketsExpireView.as_view(), name="slots-tickets-expire"),
    path("releves/<int:pk>/reconciliation/", progressives.ReconciliationView.as_view(),
         name="slots-reconciliation"),
    *router.urls,
]
