from django.urls import path

from . import views

app_name = "equipment"

urlpatterns = [
    path("", views.OverviewView.as_view(), name="overview"),
    path("tables/<int:pk>/", views.TableEquipmentView.as_view(), name="table"),
    path("modeles/", views.ApprovedModelListView.as_view(), name="model_list"),
    path("modeles/nouveau/", views.ApprovedModelCreateView.as_view(), name="model_create"),
    # Sabots
    path("sabots/", views.ShoeListView.as_view(), name="shoe_list"),
    path("sabots/prise-en-charge/", views.ShoeReceiveView.as_view(), name="shoe_receive"),
    path("sabots/affectation/", views.ShoeAllocateView.as_view(), name="shoe_allocate"),
    path("sabots/rentree/", views.ShoeReturnView.as_view(), name="shoe_return"),
    path("sabots/affectations-repetees/", views.RepeatedPairsView.as_view(), name="repeated_pairs"),
    path("sabots/<int:pk>/", views.ShoeDetailView.as_view(), name="shoe_detail"),
    path("sabots/<int:pk>/fiche/", views.ShoeUpdateView.as_view(), name="shoe_update"),
    path("sabots/<int:pk>/hors-usage/", views.ShoeWithdrawView.as_view(), name="shoe_withdraw"),
    path("sabots/destructions/", views.DestructionListView.as_view(), name="destruction_list"),
    path("sabots/destructions/programmer/", views.DestructionPlanView.as_view(), name="destruction_plan"),
    path("sabots/destructions/<int:pk>/information/", views.DestructionNotifyView.as_view(), name="destruction_notify"),
    path(
        "sabots/destructions/<int:pk>/execution/", views.DestructionCompleteView.as_view(), name="destruction_complete"
    ),
    # Shufflers
    path("melangeurs/", views.ShufflerListView.as_view(), name="shuffler_list"),
    path("melangeurs/nouveau/", views.ShufflerCreateView.as_view(), name="shuffler_create"),
    path("melangeurs/socles/nouveau/", views.SocleCreateView.as_view(), name="socle_create"),
    path("melangeurs/mise-en-marche/", views.ShufflerUseStartView.as_view(), name="shuffler_use_start"),
    path(
        "melangeurs/utilisations/<int:pk>/fin-de-seance/", views.ShufflerUseEndView.as_view(), name="shuffler_use_end"
    ),
    path("melangeurs/utilisations/<int:pk>/interruption/", views.ShufflerPauseView.as_view(), name="shuffler_pause"),
    path("melangeurs/<int:pk>/", views.ShufflerDetailView.as_view(), name="shuffler_detail"),
    path("melangeurs/<int:pk>/mise-en-service/", views.ShufflerCommissionView.as_view(), name="shuffler_commission"),
    path("melangeurs/<int:pk>/installation/", views.ShufflerMountView.as_view(), name="shuffler_mount"),
    path("melangeurs/<int:pk>/depose/", views.ShufflerUnmountView.as_view(), name="shuffler_unmount"),
    path(
        "melangeurs/<int:pk>/dysfonctionnement/", views.ShufflerMalfunctionView.as_view(), name="shuffler_malfunction"
    ),
    path(
        "melangeurs/<int:pk>/remise-en-service/",
        views.ShufflerReturnToServiceView.as_view(),
        name="shuffler_return_to_service",
    ),
    # Wheels
    path("cylindres/", views.WheelListView.as_view(), name="wheel_list"),
    path("cylindres/nouveau/", views.WheelCreateView.as_view(), name="wheel_create"),
    path("cylindres/verification/", views.WheelCheckView.as_view(), name="wheel_check"),
    path("cylindres/fermeture/", views.LidLockView.as_view(), name="lid_lock"),
    path("cylindres/<int:pk>/", views.WheelDetailView.as_view(), name="wheel_detail"),
    path("cylindres/<int:pk>/mise-en-service/", views.WheelCommissionView.as_view(), name="wheel_commission"),
    path("cylindres/<int:pk>/installation/", views.WheelInstallView.as_view(), name="wheel_install"),
    path("cylindres/ordre-de-roulement/", views.LaunchRosterView.as_view(), name="launch_roster"),
    path("cylindres/lanceurs/", views.LaunchTurnView.as_view(), name="launch_turn"),
    path("signalements/", views.ExceptionsView.as_view(), name="exceptions"),
]
