from django.urls import path

from . import views

urlpatterns = [
    path("keys/", views.KeyList.as_view(), name="keys-list"),
    path("keys/new/", views.KeyCreate.as_view(), name="keys-create"),
    path("issues/", views.IssueList.as_view(), name="keys-issues"),
    path("issues/new/", views.IssueCreate.as_view(), name="keys-issue"),
    path("issues/<int:pk>/return/", views.IssueReturn.as_view(), name="keys-return"),
    path("surrenders/", views.SurrenderCreate.as_view(), name="keys-surrender"),
    path("exceptions/", views.ExceptionList.as_view(), name="keys-exceptions"),
    path("inventories/", views.InventoryCreate.as_view(), name="keys-inventory"),
]
