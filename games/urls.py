"""Routes for the pages players use."""

from django.urls import path

from games import views
from games.notifications.views import unsubscribe

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("matches/new/", views.create_match, name="create_match"),
    path("invite/<urlsafe:code>/", views.invite, name="invite"),
    path("matches/<id:pk>/", views.match_page, name="match"),
    path("matches/<id:pk>/scores/", views.scores, name="scores"),
    path("matches/<id:pk>/scores.csv", views.scores_csv, name="scores_csv"),
    path("matches/<id:pk>/record.json", views.match_record, name="match_record"),
    path("matches/<id:pk>/tricks/", views.tricks_so_far, name="tricks_so_far"),
    path("matches/<id:pk>/hands/<int:number>/", views.hand_review, name="hand_review"),
    path("matches/<id:pk>/verify/", views.verify_shuffle, name="verify_shuffle"),
    path("matches/<id:pk>/verify/record.json", views.shuffle_record, name="shuffle_record"),
    path("matches/<id:pk>/join/", views.join, name="join_match"),
    path("matches/<id:pk>/leave/", views.leave, name="leave_match"),
    path("matches/<id:pk>/bots/add/", views.add_bot, name="add_bot"),
    path("matches/<id:pk>/bots/remove/", views.remove_bot, name="remove_bot"),
    path("matches/<id:pk>/start/", views.start, name="start_match"),
    path("matches/<id:pk>/pass/", views.pass_cards, name="pass_cards"),
    path("matches/<id:pk>/play/", views.play_card, name="play_card"),
    path("matches/<id:pk>/moon/", views.choose_moon, name="choose_moon"),
    path("matches/<id:pk>/resign/", views.resign, name="resign"),
    path("matches/<id:pk>/nudge/", views.nudge, name="nudge"),
    path("matches/<id:pk>/hand-over/", views.hand_over, name="hand_over"),
    path("matches/<id:pk>/again/", views.play_again, name="play_again"),
    path("matches/<id:pk>/again/no-thanks/", views.no_thanks, name="no_thanks"),
    path("matches/<id:pk>/again/with-bots/", views.rematch_with_bots, name="rematch_with_bots"),
    path("play-now/", views.play_now, name="play_now"),
    path("notifications/unsubscribe/<token:token>/", unsubscribe, name="unsubscribe"),
    path("players/<player_name:name>/", views.player_page, name="player"),
    # Before the name, not after it: a display name may hold slashes, and "players/<name>/"
    # would take "players/<name>/follow/" as the page of a player named "<name>/follow".
    path("friends/follow/<player_name:name>/", views.follow, name="follow"),
    path("friends/unfollow/<player_name:name>/", views.unfollow, name="unfollow"),
    path("friends/block/<player_name:name>/", views.block, name="block"),
    path("friends/unblock/<player_name:name>/", views.unblock, name="unblock"),
    path("friends/", views.friends, name="friends"),
    path("challenges/", views.challenge_list, name="challenges"),
    path("challenges/names/", views.name_suggestions, name="challenge_names"),
    path("challenges/<id:pk>/accept/", views.accept, name="accept_challenge"),
    path("challenges/<id:pk>/decline/", views.decline, name="decline_challenge"),
    path("challenges/<id:pk>/cancel/", views.cancel, name="cancel_challenge"),
    path("bots/<slug:level>/", views.bot_page, name="bot_player"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("rules/", views.rules_page, name="rules"),
    path("tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/<slug:slug>/", views.tournament_page, name="tournament"),
    path("tournaments/<slug:slug>/register/", views.register, name="tournament_register"),
    path("tournaments/<slug:slug>/withdraw/", views.withdraw, name="tournament_withdraw"),
]
