from django.urls import path

from . import authenticators as views

urlpatterns = [
    path("totp/", views.TotpStartView.as_view(), name="profile-api-totp"),
    path("totp/confirm/", views.TotpConfirmView.as_view(), name="profile-api-totp-confirm"),
    path("totp/<int:pk>/revoke/", views.TotpRevokeView.as_view(), name="profile-api-totp-revoke"),
    path("passkeys/options/", views.PasskeyOptionsView.as_view(), name="profile-api-passkey-options"),
    path("passkeys/", views.PasskeyRegisterView.as_view(), name="profile-api-passkeys"),
    path("passkeys/<int:pk>/revoke/", views.PasskeyRevokeView.as_view(), name="profile-api-passkey-revoke"),
]
