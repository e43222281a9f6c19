from django.urls import path

from . import views

app_name = "equipment-api"

urlpatterns = [
    path("models/", views.ApprovedModelList.as_view(), name="model-list"),
    path("models/register/", views.ApprovedModelRegister.as_view(), name="model-register"),
    path("shoes/", views.ShoeList.as_view(), name="shoe-list"),
    path("shoes/receive/", views.ShoeReceive.as_view(), name="shoe-receive"),
    path("shoes/allocate/", views.ShoeAllocate.as_view(), name="shoe-allocate"),
    path("shoes/return/", views.ShoeReturn.as_view(), name="shoe-return"),
    path("shoes/repeated-pairs/", views.RepeatedPairs.as_view(), name="repeated-pairs"),
    path("shoes/<int:pk>/", views.ShoeDetail.as_view(), name="shoe-detail"),
    path("shoes/<int:pk>/update/", views.ShoeUpdate.as_view(), name="shoe-update"),
    path("shoes/<int:pk>/withdraw/", views.ShoeWithdraw.as_view(), name="shoe-withdraw"),
    path("allocations/", views.AllocationList.as_view(), name="allocation-list"),
    path("destructions/plan/", views.DestructionPlan.as_view(), name="destruction-plan"),
    path("destructions/<int:pk>/notify/", views.DestructionNotify.as_view(), name="destruction-notify"),
    path("destructions/<int:pk>/complete/", views.DestructionComplete.as_view(), name="destruction-complete"),
    path("shufflers/", views.ShufflerList.as_view(), name="shuffler-list"),
    path("shufflers/register/", views.ShufflerRegister.as_view(), name="shuffler-register"),
    path("shufflers/<int:pk>/commission/", views.ShufflerCommission.as_view(), name="shuffler-commission"),
    path("shufflers/<int:pk>/mount/", views.ShufflerMount.as_view(), name="shuffler-mount"),
    path("shufflers/<int:pk>/unmount/", views.ShufflerUnmount.as_view(), name="shuffler-unmount"),
    path("shufflers/<int:pk>/malfunction/", views.ShufflerMalfunction.as_view(), name="shuffler-malfunction"),
    path("shufflers/<int:pk>/return-to-service/", views.ShufflerReturnToService.as_view(),
         name="shuffler-return-to-service"),
    path("socles/", views.SocleCreate.as_view(), name="socle-create"),
    path("shuffler-uses/", views.ShufflerUseList.as_view(), name="shuffler-use-list"),
    path("shuffler-uses/start/", views.ShufflerUseStart.as_view(), name="shuffler-use-start"),
    path("shuffler-uses/<int:pk>/end/", views.ShufflerUseEnd.as_view(), name="shuffler-use-end"),
    path("shuffler-uses/<int:pk>/pause/", views.ShufflerPause.as_view(), name="shuffler-use-pause"),
    path("wheels/", views.WheelList.as_view(), name="wheel-list"),
    path("wheels/register/", views.WheelRegister.as_view(), name="wheel-register"),
    path("wheels/<int:pk>/commission/", views.WheelCommission.as_view(), name="wheel-commission"),
    path("wheels/<int:pk>/install/", views.WheelInstall.as_view(), name="wheel-install"),
    path("wheel-checks/", views.WheelCheckList.as_view(), name="wheel-check-list"),
    path("wheel-checks/record/", views.WheelCheckRecord.as_view(), name="wheel-check-record"),
    path("lid-locks/", views.LidLockRecord.as_view(), name="lid-lock"),
]
