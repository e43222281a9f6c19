from django.urls import path

from . import views

app_name = "authority"
urlpatterns = [
    path("", views.IndexView.as_view(), name="index"),
    path("autorisation/", views.AuthorisationView.as_view(), name="authorisation"),
    path("acces/", views.AccessView.as_view(), name="access"),
    path("archives/", views.ArchivesView.as_view(), name="archives"),
    path("archives/purge/", views.PurgeView.as_view(), name="purge"),
    path("archives/<int:pk>/fichier/", views.archive_file, name="archive_file"),
    path("agrements/", views.ApprovalsView.as_view(), name="approvals"),
    path("arretes/", views.ArretesView.as_view(), name="arretes"),
    path("declarations/", views.DeclarationsView.as_view(), name="declarations"),
    path("declarations/<int:pk>/suite/", views.DeclarationFollowUpView.as_view(), name="declaration_follow_up"),
    path("annonces/", views.CalledBetsView.as_view(), name="called_bets"),
    path("annonces/<int:pk>/visa/", views.CalledBetVisaView.as_view(), name="called_bet_visa"),
    path("annonces/<int:pk>/information-scj/", views.CalledBetScjNoticeView.as_view(), name="called_bet_scj_notice"),
    path("reglement-interieur/", views.HouseRulesView.as_view(), name="house_rules"),
    path("reglement-interieur/options/", views.TableOptionView.as_view(), name="table_option"),
    path("affichages/", views.DisplaysView.as_view(), name="displays"),
    path("split-aces/", views.SplitAcesView.as_view(), name="split_aces"),
    path("split-aces/releves/", views.ProgressiveReadingView.as_view(), name="progressive_reading"),
    path("split-aces/paiements/", views.ProgressivePayoutView.as_view(), name="progressive_payout"),
    path("banquiers/", views.BankersView.as_view(), name="bankers"),
    path("banquiers/<int:pk>/retrait/", views.BankerWithdrawView.as_view(), name="banker_withdraw"),
    path("police/", views.PoliceView.as_view(), name="police"),
    path("police/observations/nouvelle/", views.ObservationCreateView.as_view(), name="observation_create"),
    path("police/observations/<int:pk>/suite/", views.FollowUpView.as_view(), name="follow_up"),
    path("police/liaison/nouvelle/", views.QuestionCreateView.as_view(), name="question_create"),
    path("police/liaison/<int:pk>/reponse/", views.AnswerView.as_view(), name="answer"),
]
