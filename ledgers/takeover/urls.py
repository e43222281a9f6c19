from django.urls import path

from . import views

app_name = "takeover"
urlpatterns = [
    path("", views.InventoryListView.as_view(), name="list"),
    path("nouveau/", views.InventoryCreateView.as_view(), name="create"),
    path("modele/<str:domain>/", views.BlankSheetView.as_view(), name="blank"),
    path("<int:pk>/", views.InventoryDetailView.as_view(), name="inventory"),
    path("<int:pk>/signature/", views.SignView.as_view(), name="sign"),
    path("<int:pk>/visa/", views.VisaView.as_view(), name="visa"),
    path("<int:pk>/report/", views.PostView.as_view(), name="post"),
]
