from django.urls import path

from . import views

app_name = "dice"
urlpatterns = [
    path("", views.DayView.as_view(), name="day"),
    path("stock/", views.StockView.as_view(), name="stock"),
    path("stock/verification/", views.VerificationView.as_view(), name="verification"),
    path("stock/maximum-paires/", views.PairsCapView.as_view(), name="pairs_cap"),
    path("liste/", views.DieListView.as_view(), name="list"),
    path("liste/<int:pk>/", views.DieDetailView.as_view(), name="die"),
    path("reception/", views.ReceiptView.as_view(), name="receive"),
    path("retrait/", views.WithdrawView.as_view(), name="withdraw"),
    path("transfert/", views.TransferView.as_view(), name="transfer"),
    path("comptabilite-annexe/", views.DayCloseView.as_view(), name="day_close"),
    path("fournisseurs/", views.SupplierListView.as_view(), name="suppliers"),
    path("fournisseurs/nouveau/", views.SupplierCreateView.as_view(), name="supplier_create"),
    path("fournisseurs/<int:pk>/agrement/", views.SupplierApprovalView.as_view(), name="supplier_approval"),
    path("commandes/", views.OrderListView.as_view(), name="orders"),
    path("commandes/nouveau/", views.OrderCreateView.as_view(), name="order_create"),
    path("commandes/<int:pk>/visa/", views.OrderVisaView.as_view(), name="order_visa"),
    path("commandes/<int:pk>/envoi/", views.OrderSendView.as_view(), name="order_send"),
    path("seances/<int:seance>/tables/<int:table>/preparer/", views.SessionPrepareView.as_view(), name="prepare"),
    path("tables/<int:pk>/", views.SessionView.as_view(), name="session"),
    path("tables/<int:pk>/ouvrir/", views.SessionActionView.as_view(action="open"), name="session_open"),
    path("tables/<int:pk>/fermer/", views.SessionActionView.as_view(action="close"), name="session_close"),
    path("tables/<int:pk>/dotation/", views.AllocationView.as_view(), name="allocate"),
    path("tables/<int:pk>/changement/", views.SwapView.as_view(), name="swap"),
    path("tables/<int:pk>/controle/", views.EndCheckView.as_view(), name="end_check"),
    path("destructions/", views.DestructionListView.as_view(), name="destructions"),
    path("destructions/nouvelle/", views.DestructionPlanView.as_view(), name="destruction_plan"),
    path("destructions/<int:pk>/", views.DestructionDetailView.as_view(), name="destruction"),
    path("destructions/<int:pk>/information-scj/", views.DestructionNotifyView.as_view(), name="destruction_notify"),
    path("destructions/<int:pk>/execution/", views.DestructionCompleteView.as_view(), name="destruction_complete"),
]
