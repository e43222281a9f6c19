from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("staff", views.StaffViewSet, basename="table-staff")
router.register("limits", views.LimitsViewSet, basename="table-limits")
router.register("extensions", views.ExtensionViewSet, basename="table-extensions")
router.register("bankers", views.BankerViewSet, basename="table-bankers")
urlpatterns = router.urls
