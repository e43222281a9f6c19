from django.contrib.auth import views as auth_views
from django.urls import path

from . import profile, setup_views, staff_urls, views
from .profile import ProfileView

urlpatterns = [
    path("", views.DashboardView.as_view(), name="dashboard"),
    path("connexion/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("profil/", ProfileView.as_view(), name="profile"),
    path("profil/authentificateur/", profile.TotpStartView.as_view(), name="profile-totp"),
    path("profil/authentificateur/confirmer/", profile.TotpConfirmView.as_view(), name="profile-totp-confirm"),
    path("profil/authentificateur/<int:pk>/retirer/", profile.TotpRevokeView.as_view(), name="profile-totp-revoke"),
    path("etablissement/authentificateurs/", profile.StaffAuthenticatorsView.as_view(), name="staff-authenticators"),
    path("profil/cles-d-acces/<int:pk>/revoquer/", profile.PasskeyRevokeView.as_view(), name="profile-passkey-revoke"),
    path("etablissement/", views.EstablishmentView.as_view(), name="establishment"),
    path("graphiques/", views.ChartsView.as_view(), name="charts"),
    path("etablissement/choisir/", views.EstablishmentSwitchView.as_view(), name="establishment-switch"),
    path("etablissement/creation/", setup_views.EstablishmentCreateView.as_view(), name="establishment-create"),
    path("etablissement/mise-en-place/", setup_views.SetupView.as_view(), name="setup"),
    path("etablissement/mise-en-place/salles/", setup_views.RoomsView.as_view(), name="setup-rooms"),
    path("etablissement/mise-en-place/emplacements/", setup_views.LocationsView.as_view(), name="setup-locations"),
    path("etablissement/mise-en-place/import/<slug:code>/", setup_views.ImportView.as_view(), name="setup-import"),
    path("etablissement/tables/", views.GamingTablesView.as_view(), name="gaming-tables"),
    path("etablissement/tables/changement/", views.GamingTableChangeView.as_view(), name="gaming-table-change"),
    path("etablissement/reglages/", views.EstablishmentSettingsView.as_view(), name="establishment-settings"),
    path("etablissement/reglages/<str:code>/", views.EstablishmentSettingView.as_view(), name="establishment-setting"),
    path(
        "historique/<str:app_label>/<str:model_name>/<int:pk>/",
        views.ObjectHistoryView.as_view(),
        name="object-history",
    ),
]
urlpatterns += [
    path("seances/", views.SeanceListView.as_view(), name="seances"),
    path("seances/<int:pk>/", views.SeanceView.as_view(), name="seance"),
    path("seances/<int:pk>/cloture/", views.SeanceCloseView.as_view(), name="seance-close"),
    path("seances/<int:pk>/tables/", views.TablePrepareView.as_view(), name="seance-prepare"),
    path("seances/tables/<int:pk>/", views.TableSessionView.as_view(), name="seance-table"),
    path(
        "seances/tables/<int:pk>/ouverture/", views.TableSessionActView.as_view(action="open"), name="seance-table-open"
    ),
    path(
        "seances/tables/<int:pk>/fin-de-partie/",
        views.TableSessionActView.as_view(action="close"),
        name="seance-table-close",
    ),
]
urlpatterns += staff_urls.urlpatterns
