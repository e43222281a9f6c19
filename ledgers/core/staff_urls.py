from django.contrib.auth import views as auth_views
from django.urls import path

from . import password_views, staff_views

urlpatterns = [
    path("etablissement/personnel/", staff_views.StaffView.as_view(), name="staff"),
    path("etablissement/personnel/roles/", staff_views.RoleGrantView.as_view(), name="staff-role-grant"),
    path("etablissement/personnel/roles/retrait/", staff_views.RoleRevokeView.as_view(), name="staff-role-revoke"),
    path("etablissement/personnel/desactivation/", staff_views.DeactivateView.as_view(), name="staff-deactivate"),
    path("etablissement/personnel/historique/", staff_views.RoleHistoryView.as_view(), name="staff-history"),
    path("etablissement/personnel/invitation/", password_views.InviteView.as_view(), name="staff-invite"),
    path(
        "etablissement/personnel/mot-de-passe/",
        password_views.ProvisionalPasswordView.as_view(),
        name="staff-provisional-password",
    ),
    path("profil/mot-de-passe/", password_views.PasswordChangeView.as_view(), name="password-change"),
    path("invitation/<uidb64>/<token>/", password_views.InvitationView.as_view(), name="invitation"),
    path("mot-de-passe-oublie/", password_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "mot-de-passe-oublie/envoye/",
        auth_views.PasswordResetDoneView.as_view(template_name="core/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "reinitialisation/<uidb64>/<token>/", password_views.LinkPasswordView.as_view(), name="password_reset_confirm"
    ),
    path(
        "reinitialisation/terminee/",
        auth_views.PasswordResetCompleteView.as_view(template_name="core/password_reset_complete.html"),
        name="password_reset_complete",
    ),
]
