from django.urls import path

from . import views

urlpatterns = [
    path("observations/", views.ObservationList.as_view(), name="authority-observations"),
    path("observations/<int:pk>/follow-up/", views.ObservationFollowUp.as_view(), name="authority-follow-up"),
    path("liaison/", views.LiaisonList.as_view(), name="authority-liaison"),
    path("liaison/<int:pk>/answer/", views.LiaisonAnswer.as_view(), name="authority-answer"),
    path("access-log/", views.AccessLogList.as_view(), name="authority-access-log"),
    path("archives/", views.ArchiveList.as_view(), name="authority-archives"),
    path("archives/<int:pk>/file/", views.ArchiveFile.as_view(), name="authority-archive-file"),
    path("arretes/", views.ArreteList.as_view(), name="authority-arretes"),
    path("declarations/", views.DeclarationList.as_view(), name="authority-declarations"),
    path(
        "declarations/<int:pk>/follow-up/", views.DeclarationFollowUp.as_view(), name="authority-declaration-follow-up"
    ),
    path("called-bets/", views.CalledBetList.as_view(), name="authority-called-bets"),
    path("called-bets/<int:pk>/visa/", views.CalledBetVisa.as_view(), name="authority-called-bet-visa"),
    path(
        "called-bets/<int:pk>/scj-notices/",
        views.CalledBetScjNotice.as_view(),
        name="authority-called-bet-scj-notice",
    ),
    path("house-rules/", views.HouseRulesList.as_view(), name="authority-house-rules"),
    path("table-options/", views.TableOptionSet.as_view(), name="authority-table-options"),
    path("purges/", views.PurgeRequest.as_view(), name="authority-purge"),
    path("displays/", views.DisplayList.as_view(), name="authority-displays"),
    path("split-aces/configs/", views.ProgressiveConfigList.as_view(), name="authority-split-aces-configs"),
    path("split-aces/readings/", views.ProgressiveReadingList.as_view(), name="authority-split-aces-readings"),
    path("split-aces/payouts/", views.ProgressivePayoutList.as_view(), name="authority-split-aces-payouts"),
    path("bankers/", views.BankerList.as_view(), name="authority-bankers"),
    path("bankers/<int:pk>/withdraw/", views.BankerWithdraw.as_view(), name="authority-banker-withdraw"),
]
