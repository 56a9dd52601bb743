"""Account routes: Django's auth views plus sign-up and the profile."""

from django.contrib.auth import views as auth_views
from django.urls import path

from games.accounts import own_data, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/email-address/", views.change_email, name="change_email"),
    path("profile/emails/", views.notification_settings, name="notification_settings"),
    path("profile/vacation/", views.take_vacation, name="take_vacation"),
    path("profile/vacation/end/", views.end_vacation, name="end_vacation"),
    path("profile/data/", own_data.download_data, name="download_data"),
    path("profile/delete/", own_data.delete_account, name="delete_account"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<urlsafe:uidb64>/<urlsafe:token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
