from django.urls import path
from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("dice", views.DieViewSet, basename="dice-die")
router.register("allocations", views.AllocationViewSet, basename="dice-allocation")
router.register("swaps", views.SwapViewSet, basename="dice-swap")
router.register("checks", views.CheckViewSet, basename="dice-check")
router.register("destructions", views.DestructionViewSet, basename="dice-destruction")

urlpatterns = [
    path("stock/", views.StockView.as_view(), name="dice-stock"),
    path("receipts/", views.ReceiveView.as_view(), name="dice-receive"),
    path("pairs-cap/", views.PairsCapView.as_view(), name="dice-pairs-cap"),
    path("allocations/new/", views.AllocateView.as_view(), name="dice-allocate"),
    path("swaps/new/", views.SwapView.as_view(), name="dice-swap-new"),
    path("checks/new/", views.EndCheckView.as_view(), name="dice-end-check"),
    path("withdrawals/", views.WithdrawView.as_view(), name="dice-withdraw"),
    path("transfers/", views.TransferView.as_view(), name="dice-transfer"),
    path("annex-days/", views.DayCloseView.as_view(), name="dice-day-close"),
    path("suppliers/", views.SupplierCreateView.as_view(), name="dice-supplier-create"),
    path("suppliers/<int:pk>/approval/", views.SupplierApprovalView.as_view(), name="dice-supplier-approval"),
    path("orders/", views.OrderCreateView.as_view(), name="dice-order-create"),
    path("orders/<int:pk>/visa/", views.OrderVisaView.as_view(), name="dice-order-visa"),
    path("orders/<int:pk>/send/", views.OrderSendView.as_view(), name="dice-order-send"),
    path("destructions/new/", views.DestructionPlanView.as_view(), name="dice-destruction-plan"),
    path("destructions/<int:pk>/notify/", views.DestructionNotifyView.as_view(), name="dice-destruction-notify"),
    path("destructions/<int:pk>/complete/", views.DestructionCompleteView.as_view(), name="dice-destruction-complete"),
    path("verifications/", views.VerificationView.as_view(), name="dice-verification"),
    *router.urls,
]
