from django.urls import path

from . import views

urlpatterns = [
    path("inventories/", views.InventoryList.as_view(), name="takeover-inventories"),
    path("inventories/preview/", views.InventoryPreview.as_view(), name="takeover-inventory-preview"),
    path("inventories/new/", views.InventoryCreate.as_view(), name="takeover-inventory-create"),
    path("inventories/<int:pk>/", views.InventoryDetail.as_view(), name="takeover-inventory"),
    path("inventories/<int:pk>/sign/", views.InventorySign.as_view(), name="takeover-inventory-sign"),
    path("inventories/<int:pk>/visa/", views.InventoryVisa.as_view(), name="takeover-inventory-visa"),
    path("inventories/<int:pk>/post/", views.InventoryPost.as_view(), name="takeover-inventory-post"),
]
