from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("staff", views.StaffViewSet, basename="table-staff")
router.register("limits", views.LimitsViewSet, basename="table-limits")
urlpatterns = router.urls
