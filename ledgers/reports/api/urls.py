from django.urls import path

from . import views

urlpatterns = [
    path("reports/", views.ReportJobList.as_view(), name="api-reports"),
    path("reports/<int:pk>/", views.ReportJobDetail.as_view(), name="api-report"),
    path("reports/<int:pk>/file/", views.ReportJobFile.as_view(), name="api-report-file"),
]
