from django.urls import path
from rest_framework.routers import SimpleRouter

from . import accounting, cashdesk, counts, reports, views

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
    path("socles/withdraw/", views.SocleWithdrawView.as_view(), name="slots-socle-withdraw"),
    path("socles/", views.SocleCreateView.as_view(), name="slots-socle-create"),
    path("machines/register/", views.MachineRegisterView.as_view(), name="slots-machine-register"),
    path("machines/<int:pk>/sheets/", views.SheetView.as_view(), name="slots-sheet"),
    path("machines/<int:pk>/ram-clears/", views.RamClearView.as_view(), name="slots-ram-clear"),
    path("releves/<int:pk>/boxes/", views.BoxView.as_view(), name="slots-box"),
    path("transmittals/", views.TransmittalView.as_view(), name="slots-transmittal"),
    path("disputes/", views.DisputeView.as_view(), name="slots-dispute"),
    path("top-ups/", views.TopUpView.as_view(), name="slots-top-up"),
    path("orphans/", views.OrphanView.as_view(), name="slots-orphan"),
    path("counts/", counts.CountOpenView.as_view(), name="slots-count-open"),
    path("counts/<int:pk>/lines/", counts.CountLineView.as_view(), name="slots-count-line"),
    path("counts/<int:pk>/close/", counts.CountCloseView.as_view(), name="slots-count-close"),
    path("change-points/", cashdesk.ChangePointView.as_view(), name="slots-change-point"),
    path("change-points/<int:pk>/assignments/", cashdesk.AssignView.as_view(), name="slots-change-assign"),
    path("change-points/<int:pk>/changes/", cashdesk.ChangeView.as_view(), name="slots-change"),
    path("assignments/<int:pk>/justifications/", cashdesk.JustifyView.as_view(), name="slots-encaisse-justify"),
    path("assignments/<int:pk>/restorations/", cashdesk.RestoreView.as_view(), name="slots-encaisse-restore"),
    path("assignments/<int:pk>/close/", cashdesk.AssignmentCloseView.as_view(), name="slots-assignment-close"),
    path("common-desks/", cashdesk.CommonDeskView.as_view(), name="slots-common-desk"),
    path("counterfeits/", cashdesk.CounterfeitView.as_view(), name="slots-counterfeit"),
    path("counterfeits/destructions/", cashdesk.DestructionView.as_view(), name="slots-counterfeit-destroy"),
    path("incident-reports/", reports.ReportView.as_view(), name="slots-incident-report"),
    *router.urls,
]
