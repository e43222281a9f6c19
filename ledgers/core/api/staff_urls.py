from django.urls import path
from rest_framework.routers import SimpleRouter

from .staff import PasswordChangeView, RolePeriodList, StaffViewSet

router = SimpleRouter()
router.register("people", StaffViewSet, basename="staff-person")
urlpatterns = [
    path("password/", PasswordChangeView.as_view(), name="staff-password"),
    path("role-periods/", RolePeriodList.as_view(), name="staff-role-periods"),
    *router.urls,
]
