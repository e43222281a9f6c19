from django.urls import path

from . import views

app_name = "reports"
urlpatterns = [
    path("", views.report_list, name="list"),
    path("registres/<str:number>/imprimer/", views.register_print, name="register_print"),
    path("seances/", views.daily_request, name="daily_request"),
    path("mensuel/", views.monthly, name="monthly"),
    path("<int:pk>/", views.job_detail, name="job"),
    path("<int:pk>/avancement/", views.job_progress, name="job_progress"),
    path("<int:pk>/fichier/", views.job_file, name="job_file"),
]
