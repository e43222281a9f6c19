from django.urls import path

from . import views

urlpatterns = [
    path("", views.IncidentList.as_view(), name="incidents-api-list"),
    path("declare/", views.IncidentDeclare.as_view(), name="incidents-api-declare"),
    path("<int:pk>/", views.IncidentDetail.as_view(), name="incidents-api-detail"),
    path("<int:pk>/notices/", views.IncidentNotify.as_view(), name="incidents-api-notify"),
    path("<int:pk>/decision/", views.IncidentDecide.as_view(), name="incidents-api-decide"),
    path("<int:pk>/close/", views.IncidentClose.as_view(), name="incidents-api-close"),
]
