from django.urls import path

from . import views

app_name = "tables"
urlpatterns = [
    path("<int:pk>/personnel/", views.AssignView.as_view(), name="assign"),
    path("<int:pk>/releve/", views.ReliefView.as_view(), name="relieve"),
    path("<int:pk>/limites/", views.LimitsView.as_view(), name="limits"),
    path("<int:pk>/prolongation/", views.ExtensionView.as_view(), name="extension"),
    path("<int:pk>/banquier/", views.BankerView.as_view(), name="banker"),
]
