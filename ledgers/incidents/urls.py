from django.urls import path

from . import views

app_name = "incidents"
urlpatterns = [
    path("", views.IncidentListView.as_view(), name="list"),
    path("declarer/", views.IncidentDeclareView.as_view(), name="declare"),
    path("<int:pk>/", views.IncidentNotifyView.as_view(), name="detail"),
    path("<int:pk>/decision/", views.IncidentDecideView.as_view(), name="decide"),
    path("<int:pk>/cloture/", views.IncidentCloseView.as_view(), name="close"),
]
