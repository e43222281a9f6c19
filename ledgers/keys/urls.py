from django.urls import path

from . import views

app_name = "keys"
urlpatterns = [
    path("", views.KeyListView.as_view(), name="list"),
    path("nouvelle/", views.KeyCreateView.as_view(), name="create"),
    path("<int:pk>/", views.KeyDetailView.as_view(), name="key"),
    path("remise/", views.IssueView.as_view(), name="issue"),
    path("sorties/<int:pk>/restitution/", views.ReturnView.as_view(), name="return"),
    path("socle-hors-exploitation/", views.SurrenderView.as_view(), name="surrender"),
    path("inventaire/", views.InventoryView.as_view(), name="inventory"),
    path("exceptions/", views.ExceptionsView.as_view(), name="exceptions"),
    path("detenteurs/", views.HoldingsView.as_view(), name="holdings"),
    path("controle/", views.SanityView.as_view(), name="sanity"),
]
