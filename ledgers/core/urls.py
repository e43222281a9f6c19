from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("", views.DashboardView.as_view(), name="dashboard"),
    path("connexion/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("etablissement/", views.EstablishmentView.as_view(), name="establishment"),
    path("etablissement/choisir/", views.EstablishmentSwitchView.as_view(), name="establishment-switch"),
    path(
        "historique/<str:app_label>/<str:model_name>/<int:pk>/", views.ObjectHistoryView.as_view(),
        name="object-history",
    ),
]
